/**
 * `lantern import uptime-kuma --db FILE --email E` and `lantern import gatus --config FILE --email E`:
 * the import lands in the personal team of the account named by --email; prints the report (with --json, as JSON).
 */
import { need, type CliCommand, type Flags } from '../../lib/cli-flags.ts'
import type { Services } from '../../services.ts'
import { readKumaDatabase } from './kuma-read.ts'
import { planFromKuma } from './kuma-map.ts'
import { readGatusConfig } from './gatus-read.ts'
import { planFromGatus } from './gatus-map.ts'
import { reportText, type ImportPlan } from './types.ts'

type Command = CliCommand<Services>

const run = (plan: (f: Flags) => Promise<ImportPlan> | ImportPlan): Command['run'] => async (s, f) => {
  const owner = await s.accounts.personalTeamOwner(await s.accounts.findUserByEmail(need(f, 'email')))
  const report = await s.importer.apply(owner, await plan(f))
  return f.json === true ? JSON.stringify(report) : reportText(report)
}

export const importCommands: Record<string, Command> = {
  'import uptime-kuma': {
    options: { email: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } },
    run: run((f) => planFromKuma(readKumaDatabase(need(f, 'db')))),
  },
  'import gatus': {
    options: { email: { type: 'string' }, config: { type: 'string' }, json: { type: 'boolean' } },
    run: run(async (f) => planFromGatus(await readGatusConfig(need(f, 'config')))),
  },
}
