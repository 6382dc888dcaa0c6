/**
 * Which permission each owner route needs, as data: the API (`/user/api/v1/…`) and the web app's
 * screens (`/user/…`) alike. Rules are matched against the route's pattern as the router has it
 * (`/user/api/v1/components/:id`), first match wins. A route no rule names is refused (403): the
 * matrix test reads every route from the router, so a new route cannot be forgotten.
 *
 * `reads` rules apply to GET and HEAD; `writes` to every other method. A rule may say that a body
 * holding only some fields needs less (a responder may PATCH a component's status, not its name).
 */
import type { Permission } from '../plans/roles.ts'

export interface RouteRule {
  pattern: RegExp
  /** Only this method (otherwise every method of its kind). */
  method?: string
  reads?: Permission
  writes?: Permission
  /** A write whose body names only these fields needs `lighter` instead. */
  lighterFields?: readonly string[]
  lighter?: Permission
}

const rule = (pattern: string, reads: Permission | undefined, writes?: Permission, lighter?: { fields: readonly string[]; permission: Permission }): RouteRule => ({
  pattern: new RegExp(`^${pattern}$`),
  reads,
  writes,
  lighterFields: lighter?.fields,
  lighter: lighter?.permission,
})

const ANY = '(?:/.*)?'

/** Signed-out screens: login, sign-up, setup, password reset, the two-factor step. No member needed. */
export const PUBLIC_SCREENS: readonly RegExp[] = [
  /^\/user\/(login|signup|setup|password-reset|logout)(\/.*)?$/,
  /^\/user\/invitations\/:token(\/.*)?$/,
  /^\/user\/sso(\/.*)?$/,
  /^\/user\/passkeys\/sign-in(\/.*)?$/,
]

export const ROUTE_RULES: readonly RouteRule[] = [
  // The person's own account, whatever their role.
  rule(`/user/api/v1/(api-keys|sessions)${ANY}`, 'self', 'self'),
  rule(`/user/(account|api-keys|two-factor|password|passkeys)${ANY}`, 'self', 'self'),
  rule(`/user/teams${ANY}`, 'self', 'self'),
  // An invitation's link: any member of any team may join another one.
  rule(`/user/invitations/:token${ANY}`, 'self', 'self'),
  // Creating, listing and joining teams: the person's own, whatever their role where they act.
  rule(`/user/api/v1/(teams|invitations)${ANY}`, 'self', 'self'),
  rule('/user', 'self'),
  // The team: members and invitations are the admin's, the plan and the team itself the owner's.
  rule(`/user/api/v1/team/(members|invitations)${ANY}`, 'read', 'manage'),
  rule('/user/api/v1/team', 'read', 'manage'),
  rule('/user/api/v1/team/sso-domain', undefined, 'manage'),
  rule(`/user/api/v1/team/ownership`, undefined, 'own'),
  rule(`/user/team/(delete|ownership)${ANY}`, 'own', 'own'),
  // The members screen: its lists are read by every member, a removal's confirmation is the admin's.
  rule('/user/team/members/:user_id/remove', 'manage', 'manage'),
  // The audit log (who did what, from which address): admins and owners; nothing writes to it.
  rule(`/user/(api/v1/)?team/audit(\\.csv)?`, 'manage'),
  rule(`/user/team${ANY}`, 'read', 'manage'),
  rule(`/user/(api/v1/)?plan`, 'read'),
  // Deleting a page and moving one between teams.
  { pattern: /^\/user\/api\/v1\/status-pages\/:id$/, method: 'DELETE', writes: 'manage' },
  rule(`/user/api/v1/status-pages/:id/transfer${ANY}`, 'read', 'manage'),
  rule(`/user/(api/v1/)?transfers/:token${ANY}`, 'read', 'manage'),
  rule(`/user/pages/:id/(transfer|delete)${ANY}`, 'manage', 'manage'),
  // During an outage: incidents, maintenance, a component's status, lookups.
  rule(`/user/api/v1/incident-templates/:id/incidents`, undefined, 'respond'),
  rule(`/user/api/v1/(incidents|maintenances|maintenance-series)${ANY}`, 'read', 'respond'),
  rule(`/user/(incidents|maintenance|maintenance-series)${ANY}`, 'read', 'respond'),
  rule(`/user/pages/:id/(incidents|maintenance)${ANY}`, 'read', 'respond'),
  rule(`/user/pages/:id/components/:cid/status`, undefined, 'respond'),
  rule('/user/api/v1/components/:id', 'read', 'edit', { fields: ['status'], permission: 'respond' }),
  rule(`/user/api/v1/tools/lookups${ANY}`, 'read', 'respond'),
  rule(`/user/tools${ANY}`, 'read', 'respond'),
  // Configuration as code: any member may export and plan; applying is an editor's (deleting pages an admin's, checked by apply).
  rule('/user/api/v1/config/export', 'read'),
  { pattern: /^\/user\/api\/v1\/config\/plan$/, method: 'POST', writes: 'read' },
  // Everything else an owner configures.
  rule('/user/api/v1/.*', 'read', 'edit'),
  rule(`/user/(pages|monitors|notifications|templates|analytics|import)${ANY}`, 'read', 'edit'),
]

/**
 * The permission a request needs: by the route's pattern and method, and for a write by the
 * fields of its body. Undefined when no rule names the route (refused).
 */
export function permissionFor(method: string, route: string, body?: unknown): Permission | undefined {
  const reads = method === 'GET' || method === 'HEAD'
  for (const candidate of ROUTE_RULES) {
    if (candidate.method !== undefined && candidate.method !== method) continue
    if (!candidate.pattern.test(route)) continue
    const needed = reads ? candidate.reads : candidate.writes
    if (needed === undefined) continue
    if (!reads && candidate.lighter && candidate.lighterFields && isObjectWithOnly(body, candidate.lighterFields)) return candidate.lighter
    return needed
  }
  return undefined
}

/**
 * What a member without two-factor still reaches while their team requires it (the rest of the web
 * app sends them to enrol): their account, two-factor and passkeys, their password, the teams
 * screen (to act in another team) and an invitation's link. Logging out is a public screen.
 */
export const TWO_FACTOR_FREE_SCREENS: readonly RegExp[] = [/^\/user\/(account|two-factor|password|passkeys|teams|invitations\/:token)(\/.*)?$/]

export const isTwoFactorFreeScreen = (route: string): boolean => TWO_FACTOR_FREE_SCREENS.some((pattern) => pattern.test(route))

/**
 * The one 'self' API write still refused to a session lacking the two-factor its team requires:
 * making an API key, which would act in the team without two-factor ever after.
 */
export const isKeyMaking = (method: string, route: string): boolean => method === 'POST' && route === '/user/api/v1/api-keys'

export const isPublicScreen = (route: string): boolean => PUBLIC_SCREENS.some((pattern) => pattern.test(route))

function isObjectWithOnly(body: unknown, fields: readonly string[]): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false
  const keys = Object.keys(body)
  return keys.length > 0 && keys.every((key) => fields.includes(key))
}
