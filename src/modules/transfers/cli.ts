/**
 * `lantern page transfer`: the same TransfersService as the API, for an administrator at the
 * database. One JSON line (the API's PageTransfer model), or nothing when no transfer is pending.
 *
 *   page transfer --email OWNER --id N --to RECIPIENT   offer page N (no password: the CLI is the administrator)
 *   page transfer --email OWNER --id N                  the pending transfer of page N
 *   page transfer --email OWNER --id N --cancel         withdraw it
 *   page transfer --email RECIPIENT --id N --accept     accept it as its recipient (no mail link needed)
 *   page transfer --email RECIPIENT --id N --decline
 */
import { badRequest } from '../../lib/errors.ts'
import { need, text, type CliCommand } from '../../lib/cli-flags.ts'
import type { Services } from '../../services.ts'
import { transferJson } from './model.ts'

type Command = CliCommand<Services>


export const transferCommands: Record<string, Command> = {
  'page transfer': {
    options: { email: { type: 'string' }, id: { type: 'string' }, to: { type: 'string' }, cancel: { type: 'boolean' }, accept: { type: 'boolean' }, decline: { type: 'boolean' } },
    run: async (s, f) => {
      const rawId = need(f, 'id')
      if (!/^[1-9]\d{0,15}$/.test(rawId)) throw badRequest('--id must be a positive integer')
      const pageId = Number(rawId)
      const to = text(f, 'to')
      const actions = [to !== undefined, f.cancel === true, f.accept === true, f.decline === true].filter(Boolean).length
      if (actions > 1) throw badRequest('give one of --to, --cancel, --accept, --decline')
      const user = await s.accounts.personalTeamOwner(await s.accounts.findUserByEmail(need(f, 'email')))
      const { transfers } = s
      if (to !== undefined) return JSON.stringify(transferJson(await transfers.startAsAdministrator(user, pageId, to)))
      if (f.cancel === true) return JSON.stringify(transferJson(await transfers.cancel(user, pageId)))
      if (f.accept === true) return JSON.stringify(transferJson(await transfers.acceptForPage(user, pageId)))
      if (f.decline === true) return JSON.stringify(transferJson(await transfers.declineForPage(user, pageId)))
      const pending = await transfers.pending(user, pageId)
      return pending ? JSON.stringify(transferJson(pending)) : ''
    },
  },
}
