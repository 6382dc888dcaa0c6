/**
 * The caller's login sessions in the management API, as the account screen shows them: list them
 * (the row id, never the token or its hash), end one, end all others. "Others" are all but the
 * session of the request's own cookie; a request with an API key has none, so it ends them all.
 */
import { Elysia, t, type Static } from 'elysia'
import { errorResponses, IdParams, modelRef, namedModels, sharedModels } from '../../http/schemas.ts'
import { toIso, toIsoOrNull } from '../../lib/time.ts'
import { apiKeySecurity, ownerAuth, sessionToken } from './auth.ts'
import type { AccountsService, SessionInfo } from './service.ts'

const SessionJson = t.Object({
  id: t.Integer({ description: 'The session\'s number (not its secret): what DELETE /sessions/{id} takes' }),
  created_at: t.String({ description: 'Log-in time (RFC 3339)' }),
  last_seen_at: t.Nullable(t.String({ description: 'Last request with this session (RFC 3339, recorded at most once a minute)' })),
  expires_at: t.String({ description: 'RFC 3339' }),
  client: t.Nullable(t.String({ description: 'The browser, summarised ("Chrome on Linux"); null when unknown' })),
  current: t.Boolean({ description: 'True for the session whose cookie sent this request' }),
})

const sessionModels = namedModels({ Session: SessionJson })
const SessionRef = modelRef(sessionModels, 'Session')

export const sessionJson = (session: SessionInfo): Static<typeof SessionJson> => ({
  id: session.id,
  created_at: toIso(session.createdAt),
  last_seen_at: toIsoOrNull(session.lastSeenAt),
  expires_at: toIso(session.expiresAt),
  client: session.client,
  current: session.current,
})

const NO_STORE = { 'cache-control': 'no-store' }

export function sessionsRoutes(deps: { accounts: AccountsService }) {
  const { accounts } = deps
  const detail = (summary: string, description: string) => ({ tags: ['Sessions'], summary, description, security: apiKeySecurity })
  return new Elysia({ prefix: '/user/api/v1' })
    .model(sharedModels)
    .model(sessionModels)
    .use(ownerAuth(accounts))
    .get(
      '/sessions',
      async ({ owner, request, set }) => {
        Object.assign(set.headers, NO_STORE)
        const list = (await accounts.listSessions(owner.userId, sessionToken(request))).map(sessionJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        response: { 200: t.Object({ data: t.Array(SessionRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('List your login sessions', 'Live sessions, newest first; `current` marks the one of this request\'s cookie.'),
      },
    )
    .delete(
      '/sessions/:id',
      async ({ owner, params, set }) => {
        Object.assign(set.headers, NO_STORE)
        await accounts.endSessionById(owner.userId, params.id)
        return { data: { ended: 1 } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Object({ ended: t.Integer() }) }), ...errorResponses },
        detail: detail('End one session', 'Its browser\'s next request goes to the login page. Another user\'s session, or one already ended, is 404.'),
      },
    )
    .delete(
      '/sessions',
      async ({ owner, request, set }) => {
        Object.assign(set.headers, NO_STORE)
        return { data: { ended: await accounts.endOtherSessions(owner.userId, sessionToken(request)) } }
      },
      {
        response: { 200: t.Object({ data: t.Object({ ended: t.Integer({ description: 'How many sessions ended' }) }) }), ...errorResponses },
        detail: detail('End all other sessions', 'Every session but the one of this request\'s cookie; with an API key (no cookie) every session ends.'),
      },
    )
}
