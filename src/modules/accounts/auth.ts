/**
 * Owner authentication: an API key (`Authorization: Bearer lnt_…` or `X-API-Key: lnt_…`) or the
 * login session cookie. Routes that use this plugin get `owner` in their context; without valid
 * credentials they answer 401. A state-changing request authenticated by the cookie must carry an
 * Origin (or Referer) of this service, or it is refused with 403 (cross-site request forgery).
 */
import { Elysia } from 'elysia'
import { forbidden, unauthorized } from '../../lib/errors.ts'
import { readCookie } from '../../lib/cookies.ts'
import type { AccountsService, User } from './service.ts'

export const SESSION_COOKIE = 'lantern_session'

export function presentedApiKey(headers: Record<string, string | undefined>): string | undefined {
  const authorization = headers.authorization
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
    return match?.[1]
  }
  return headers['x-api-key']?.trim() || undefined
}

export const apiKeySecurity: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { sessionCookie: [] }]

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * True when a request comes from this service's own pages: its Origin (or, failing that, Referer)
 * has the host the request was sent to, or is the configured service origin (or, with neither,
 * `Sec-Fetch-Site: same-origin`). Browsers always send
 * Origin on cross-site POST/PATCH/DELETE and a page cannot forge it.
 */
export function isSameOrigin(request: Request, serviceOrigin?: string): boolean {
  const origin0 = request.headers.get('origin')
  const claimed = origin0 && origin0 !== 'null' ? origin0 : request.headers.get('referer')
  // Browsers send `Origin: null` on form posts from pages with `Referrer-Policy: no-referrer`; their
  // Fetch Metadata header (which no page script can set) still tells a same-origin request apart.
  if (!claimed) return request.headers.get('sec-fetch-site') === 'same-origin'
  let origin: URL
  try {
    origin = new URL(claimed)
  } catch {
    return false
  }
  if (serviceOrigin && origin.origin === serviceOrigin) return true
  const host = request.headers.get('host') ?? new URL(request.url).host
  return origin.host === host
}

export const sessionToken = (request: Request): string | undefined => readCookie(request.headers.get('cookie'), SESSION_COOKIE)

/**
 * The owner behind a request, by API key first (exactly as before logins existed: a presented but
 * invalid key is 401 even with a cookie), then by session cookie. Undefined when neither is there.
 */
export async function authenticateOwner(accounts: AccountsService, request: Request, headers: Record<string, string | undefined>): Promise<User | undefined> {
  const key = presentedApiKey(headers)
  if (key || headers.authorization) return key ? await accounts.authenticateApiKey(key) : undefined
  const token = sessionToken(request)
  if (!token) return undefined
  const user = await accounts.authenticateSession(token)
  if (user && !SAFE_METHODS.has(request.method) && !isSameOrigin(request, accounts.serviceOrigin)) {
    throw forbidden('cross-site request refused: Origin does not match this service')
  }
  return user
}

export function ownerAuth(accounts: AccountsService) {
  return new Elysia({ name: 'owner-auth', seed: accounts }).resolve({ as: 'scoped' }, async ({ headers, request }) => {
    const owner = await authenticateOwner(accounts, request, headers)
    if (!owner) throw unauthorized()
    return { owner }
  })
}
