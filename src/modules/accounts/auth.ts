/**
 * Owner authentication for the management API: `Authorization: Bearer lnt_…` or `X-API-Key: lnt_…`.
 * Routes that use this plugin get `owner` in their context; without a valid key they answer 401.
 */
import { Elysia } from 'elysia'
import { unauthorized } from '../../lib/errors.ts'
import type { AccountsService } from './service.ts'

export function presentedApiKey(headers: Record<string, string | undefined>): string | undefined {
  const authorization = headers.authorization
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
    return match?.[1]
  }
  return headers['x-api-key']?.trim() || undefined
}

export const apiKeySecurity: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }]

export function ownerAuth(accounts: AccountsService) {
  return new Elysia({ name: 'owner-auth', seed: accounts }).resolve({ as: 'scoped' }, async ({ headers }) => {
    const key = presentedApiKey(headers)
    const owner = key ? await accounts.authenticateApiKey(key) : undefined
    if (!owner) throw unauthorized()
    return { owner }
  })
}
