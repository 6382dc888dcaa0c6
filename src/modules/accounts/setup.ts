/**
 * First-run setup without a terminal: while the database has no users, the server prints one link
 * with a one-time token at start (AccountsService.issueSetupToken keeps only its hash). Opening it
 * shows /user/setup, which creates the first account (admin, the instance's default plan).
 */
import type { AccountsService } from './service.ts'

export const SETUP_PATH = '/user/setup'

export const setupUrl = (baseUrl: string, token: string): string => `${baseUrl}${SETUP_PATH}?token=${encodeURIComponent(token)}`

export const setupLogLine = (url: string): string => `lantern: no accounts yet — create the first one at ${url}`

/** Issues a fresh setup token when there are no users and returns the line to print (else undefined). */
export async function announceFirstRunSetup(accounts: AccountsService, baseUrl: string): Promise<string | undefined> {
  const token = await accounts.issueSetupToken()
  return token === undefined ? undefined : setupLogLine(setupUrl(baseUrl, token))
}
