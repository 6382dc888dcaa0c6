/**
 * Owner authentication: an API key (`Authorization: Bearer lnt_…` or `X-API-Key: lnt_…`) or the
 * login session cookie. Routes that use this plugin get `owner` (the acting team and member) in
 * their context; without valid credentials they answer 401. A state-changing request authenticated
 * by the cookie must carry an Origin (or Referer) of this service, or it is refused with 403
 * (cross-site request forgery). Then the member's role must allow what the route needs
 * (route-permissions.ts), or 403; and a successful write is written to the audit log.
 */
import { Elysia } from 'elysia'
import { forbidden, unauthorized } from '../../lib/errors.ts'
import { readCookie } from '../../lib/cookies.ts'
import { publicOrigin, requestProvenance } from '../../lib/same-origin.ts'
import { clientKey } from '../../http/context.ts'
import { roleLabel, roleMay } from '../plans/roles.ts'
import { isKeyMaking, permissionFor } from './route-permissions.ts'
import { summarizeUserAgent } from './user-agent.ts'
import type { AccountsService, Owner } from './service.ts'

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
export async function authenticateOwner(accounts: AccountsService, request: Request, headers: Record<string, string | undefined>): Promise<Owner | undefined> {
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

/**
 * True when `owner` acts by a session in a team that requires two-factor and has none themselves:
 * they may reach their own account ('self' routes) and nothing else of the team until they enrol.
 */
export async function lacksRequiredTwoFactor(accounts: AccountsService, owner: Owner): Promise<boolean> {
  return owner.via === 'session' && owner.teamRequiresTwoFactor && !(await accounts.hasSecondFactor(owner.userId))
}

/** What a member lacking the two-factor their team requires is told. */
export const twoFactorRequiredMessage = (owner: Owner): string => `${owner.teamName} requires two-factor sign-in: turn it on to go on`

/**
 * Refuses (403) what the owner's role may not do on `route`, and a session of a team that requires
 * two-factor while its member has none (API keys are not subject to two-factor), but for their own
 * account's routes; making an API key is refused too (the key would act without two-factor).
 */
export async function authorize(accounts: AccountsService, owner: Owner, method: string, route: string, body: unknown): Promise<void> {
  const needed = permissionFor(method, route, body)
  if (needed === undefined) throw forbidden('this route names no permission')
  if (!roleMay(owner.role, needed)) throw forbidden(`your role in ${owner.teamName} (${roleLabel(owner.role)}) may not do this`)
  if ((needed !== 'self' || isKeyMaking(method, route)) && (await lacksRequiredTwoFactor(accounts, owner))) {
    throw forbidden(`${owner.teamName} requires two-factor sign-in: turn it on under Account → Two-factor sign-in first`)
  }
}

/** What the audit log is told of a successful write to an owner route. */
export interface RequestAudit {
  owner: Owner
  method: string
  route: string
  params: Record<string, string | undefined>
  body: unknown
  address: string
  client: string | null
}

export interface AuditSink {
  recordRequest(entry: RequestAudit): Promise<void>
}

export const requestAudit = (owner: Owner, request: Request, route: string, params: Record<string, string | undefined>, body: unknown): RequestAudit => ({
  owner,
  method: request.method,
  route,
  params,
  body,
  address: clientKey(request),
  client: summarizeUserAgent(request.headers.get('user-agent')),
})

export function ownerAuth(accounts: AccountsService) {
  return new Elysia({ name: 'owner-auth', seed: accounts })
    .resolve({ as: 'scoped' }, async ({ headers, request, route, body }) => {
      const owner = await authenticateOwner(accounts, request, headers)
      if (!owner) throw unauthorized()
      await authorize(accounts, owner, request.method, route, body)
      return { owner }
    })
    .onAfterHandle({ as: 'scoped' }, async (context) => {
      const { request, route, params, body, set } = context
      const owner = (context as { owner?: Owner }).owner
      if (!owner || SAFE_METHODS.has(request.method)) return
      const status = typeof set.status === 'number' ? set.status : 200
      if (status >= 400) return
      await accounts.audit?.recordRequest(requestAudit(owner, request, route, params as Record<string, string | undefined>, body))
    })
}
