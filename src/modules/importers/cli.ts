/**
 * `lantern import uptime-kuma --db FILE --email E`, `lantern import gatus --config FILE --email E` and
 * `lantern import statuspage --page-id ID --api-key KEY [--base-url URL] | --from DIR --email E [--reconfirm]`:
 * the import lands in the personal team of the account named by --email; prints the report (with --json, as JSON).
 */
import { need, type CliCommand, type Flags } from '../../lib/cli-flags.ts'
import type { Services } from '../../services.ts'
import { readKumaDatabase } from './kuma-read.ts'
import { planFromKuma } from './kuma-map.ts'
import { readGatusConfig } from './gatus-read.ts'
import { planFromGatus } from './gatus-map.ts'
import { DEFAULT_STATUSPAGE_URL, fetchStatuspage, readStatuspageFolder } from './statuspage-read.ts'
import { planFromStatuspage } from './statuspage-map.ts'
import { badRequest } from '../../lib/errors.ts'
import { reportText, type ImportPlan } from './types.ts'

type Command = CliCommand<Services>

const run = (plan: (f: Flags) => Promise<ImportPlan> | ImportPlan): Command['run'] => async (s, f) => {
  const owner = await s.accounts.personalTeamOwner(await s.accounts.findUserByEmail(need(f, 'email')))
  const report = await s.importer.apply(owner, await plan(f), { reconfirm: f.reconfirm === true })
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
  'import statuspage': {
    options: { email: { type: 'string' }, 'page-id': { type: 'string' }, 'api-key': { type: 'string' }, 'base-url': { type: 'string' }, from: { type: 'string' }, reconfirm: { type: 'boolean' }, json: { type: 'boolean' } },
    run: run(async (f) => {
      if (typeof f.from === 'string') {
        if (f['page-id'] !== undefined || f['api-key'] !== undefined) throw badRequest('give either --from or --page-id with --api-key, not both')
        return planFromStatuspage(await readStatuspageFolder(f.from))
      }
      const baseUrl = typeof f['base-url'] === 'string' ? f['base-url'] : DEFAULT_STATUSPAGE_URL
      return planFromStatuspage(await fetchStatuspage({ pageId: need(f, 'page-id'), apiKey: need(f, 'api-key'), baseUrl }))
    }),
  },
}
