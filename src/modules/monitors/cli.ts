/**
 * `lantern monitor list|create|pause|resume|delete`: the same MonitorsService as the API, for the
 * owner named by --email. Output: one JSON line per monitor (the API's Monitor model).
 */
import { badRequest } from '../../lib/errors.ts'
import { need, text, type CliCommand, type Flags } from '../../lib/cli-flags.ts'
import type { Services } from '../../services.ts'
import type { MonitorInput, MonitorPlacement } from './definition.ts'
import { monitorJson } from './model.ts'

type Command = CliCommand<Services>

function positive(f: Flags, name: string): number | undefined {
  const value = text(f, name)
  if (value === undefined) return undefined
  if (!/^[1-9]\d{0,15}$/.test(value)) throw badRequest(`--${name} must be a positive integer`)
  return Number(value)
}

/** The account named by --email, acting in its personal team. */
const owner = async (s: Services, f: Flags) => s.accounts.personalTeamOwner(await s.accounts.findUserByEmail(need(f, 'email')))
const line = (s: Services, monitor: Parameters<typeof monitorJson>[0], token?: string) => JSON.stringify(monitorJson(monitor, s.config.baseUrl, token))

const byId = (action: (s: Services, f: Flags, id: number) => Promise<string>): Command => ({
  options: { email: { type: 'string' }, id: { type: 'string' } },
  run: async (s, f) => action(s, f, positive(f, 'id') ?? Number(need(f, 'id'))),
})

export const monitorCommands: Record<string, Command> = {
  'monitor list': {
    options: { email: { type: 'string' } },
    run: async (s, f) => (await s.monitors.list(await owner(s, f))).map((m) => line(s, m)).join('\n'),
  },
  'monitor create': {
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      type: { type: 'string' },
      target: { type: 'string' },
      interval: { type: 'string' },
      component: { type: 'string' },
      page: { type: 'string' },
      options: { type: 'string' },
    },
    run: async (s, f) => {
      let extra: MonitorInput = {}
      const json = text(f, 'options')
      if (json !== undefined) {
        try {
          extra = JSON.parse(json) as MonitorInput
        } catch {
          throw badRequest('--options must be a JSON object of monitor fields, e.g. {"keyword":"OK"}')
        }
        if (extra === null || typeof extra !== 'object' || Array.isArray(extra)) throw badRequest('--options must be a JSON object')
      }
      const input: MonitorInput & MonitorPlacement = {
        ...extra,
        name: need(f, 'name'),
        type: need(f, 'type') as MonitorInput['type'],
        ...(text(f, 'target') !== undefined ? { target: text(f, 'target') } : {}),
        ...(positive(f, 'interval') !== undefined ? { interval_seconds: positive(f, 'interval') } : {}),
        ...(positive(f, 'component') !== undefined ? { component_id: positive(f, 'component') } : {}),
        ...(positive(f, 'page') !== undefined ? { status_page_id: positive(f, 'page') } : {}),
      }
      const created = await s.monitors.create(await owner(s, f), input)
      return line(s, created.monitor, created.pushToken)
    },
  },
  'monitor pause': byId(async (s, f, id) => line(s, await s.monitors.setEnabled(await owner(s, f), id, false))),
  'monitor resume': byId(async (s, f, id) => line(s, await s.monitors.setEnabled(await owner(s, f), id, true))),
  'monitor delete': byId(async (s, f, id) => {
    await s.monitors.delete(await owner(s, f), id)
    return JSON.stringify({ id, deleted: true })
  }),
}
