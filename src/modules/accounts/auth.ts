/**
 * Owner authentication: an API key (`Authorization: Bearer lnt_…` or `X-API-Key: lnt_…`) or the
 * login session cookie. Routes that use this plugin get `owner` in their context; without valid
 * credentials they answer 401. A state-changing request authenticated by the cookie must carry an
 * Origin (or Referer) of this service, or it is refused with 403 (cross-site request forgery).
 */
import { Elysia } from 'elysia'
import { forbidden, unauthorized } from '../../lib/errors.ts'
import { readCookie } from '../../lib/cookies.ts'
import { publicOrigin, requestProvenance } from '../../lib/same-origin.ts'
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

/** True when the request presents an API key (or any Authorization header), whatever else it carries. */
export const presentsApiKey = (headers: Record<string, string | undefined>): boolean =>
  presentedApiKey(headers) !== undefined || headers.authorization !== undefined

export const apiKeySecurity: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { sessionCookie: [] }]

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Origins whose pages may write with the session cookie: BASE_URL's, and the request's own host
 * under BASE_URL's scheme (the service also answers on IP literals). The whole origin is compared
 * (src/lib/same-origin.ts): `http://<service host>` is not this service when BASE_URL is https.
 */
function serviceOrigins(request: Request, serviceOrigin: string): string[] {
  const own = publicOrigin(new URL(serviceOrigin).protocol as 'http:' | 'https:', new URL(request.url).host)
  return own && own !== serviceOrigin ? [serviceOrigin, own] : [serviceOrigin]
}

/** True when the browser says a page of this service sent the request (Origin, Referer or Sec-Fetch-Site). */
export const isSameOrigin = (request: Request, serviceOrigin: string): boolean =>
  requestProvenance(request, serviceOrigins(request, serviceOrigin)) === 'same'

/** True when the browser says another site sent the request; a request that says nothing is not. */
export const isCrossSite = (request: Request, serviceOrigin: string): boolean =>
  requestProvenance(request, serviceOrigins(request, serviceOrigin)) === 'cross'

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
