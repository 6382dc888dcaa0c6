/**
 * `lantern export`, `lantern plan -f FILE` and `lantern apply -f FILE [--prune]`: configuration as
 * code for the team of the account named by --email (its personal team, or --team ID where it is a
 * member, with its role there). References in the file are read from the command's environment.
 */
import { badRequest } from '../../lib/errors.ts'
import { need, text, type CliCommand, type Flags } from '../../lib/cli-flags.ts'
import type { Services } from '../../services.ts'
import type { Owner } from '../accounts/service.ts'
import { configText, parseConfigText } from './file.ts'
import { planJson } from './model.ts'
import type { ConfigPlan } from './types.ts'

type Command = CliCommand<Services>

async function ownerOf(s: Services, f: Flags): Promise<Owner> {
  const team = text(f, 'team')
  if (team !== undefined && !/^[1-9]\d{0,15}$/.test(team)) throw badRequest('--team must be a team id (a positive integer)')
  return s.accounts.personalTeamOwner(await s.accounts.findUserByEmail(need(f, 'email')), team === undefined ? null : Number(team))
}

async function readFile(f: Flags): Promise<string> {
  const path = need(f, 'file')
  const file = Bun.file(path)
  if (!(await file.exists())) throw badRequest(`cannot read ${path}: no such file`)
  return file.text()
}

const SIGN = { create: '+', update: '~', delete: '-' } as const

/** The plan as lines for a terminal: `+ monitor "API"`, `~ page "acme": name, time_zone`. */
export function planText(plan: ConfigPlan, applied: boolean): string {
  if (plan.changes.length === 0) return applied ? 'No changes: the team already is what the file says.' : 'No changes.'
  const lines = plan.changes.map((c) => `${SIGN[c.action]} ${c.kind} "${c.key}"${c.fields.length > 0 ? `: ${c.fields.join(', ')}` : ''}`)
  const { summary } = planJson(plan, applied)
  lines.push(`${applied ? 'Applied' : 'Plan'}: ${summary.create} to create, ${summary.update} to change, ${summary.delete} to delete.`)
  return lines.join('\n')
}

const fileOptions = { email: { type: 'string' }, team: { type: 'string' }, file: { type: 'string', short: 'f' }, prune: { type: 'boolean' }, json: { type: 'boolean' } } as const

export const configCommands: Record<string, Command> = {
  export: {
    options: { email: { type: 'string' }, team: { type: 'string' }, output: { type: 'string', short: 'o' } },
    run: async (s, f) => {
      const { file, secrets } = await s.configAsCode.export(await ownerOf(s, f))
      const yaml = configText(file)
      const output = text(f, 'output')
      if (output === undefined) return yaml.trimEnd()
      await Bun.write(output, yaml)
      return JSON.stringify({ written: output, bytes: new TextEncoder().encode(yaml).length, secrets: Object.keys(secrets).sort() })
    },
  },
  plan: {
    options: fileOptions,
    run: async (s, f, env) => {
      const plan = await s.configAsCode.plan(await ownerOf(s, f), parseConfigText(await readFile(f)), { prune: f.prune === true, env })
      return f.json === true ? JSON.stringify({ ...planJson(plan, false), notes: plan.notes }) : [planText(plan, false), ...plan.notes.map((note) => `note: ${note}`)].join('\n')
    },
  },
  apply: {
    options: fileOptions,
    run: async (s, f, env) => {
      const result = await s.configAsCode.apply(await ownerOf(s, f), parseConfigText(await readFile(f)), { prune: f.prune === true, env, address: null, client: 'lantern apply' })
      if (f.json === true) return JSON.stringify({ ...planJson(result.plan, true), notes: result.notes })
      return [planText(result.plan, true), ...result.notes.map((note) => `note: ${note}`)].join('\n')
    },
  },
}
