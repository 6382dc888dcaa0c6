/**
 * The caller's API keys in the management API: create one (the secret is in that answer only),
 * list them (never the secret or its hash) and revoke one. The CLI does the same (`lantern key …`).
 *
 * Creating a key needs the login session (the web app, or the cookie with this site's Origin), not
 * an API key: a leaked key that could mint keys would outlive its own revocation.
 */
import { Elysia, t, type Static } from 'elysia'
import { errorResponses, IdParams, modelRef, namedModels, sharedModels } from '../../http/schemas.ts'
import { toIso, toIsoOrNull } from '../../lib/time.ts'
import { ROLES } from '../plans/roles.ts'
import { forbidden } from '../../lib/errors.ts'
import { apiKeySecurity, ownerAuth, presentsApiKey } from './auth.ts'
import { CreateApiKeyBody } from './model.ts'
import type { AccountsService, ApiKeyInfo } from './service.ts'

const ApiKeyJson = t.Object({
  id: t.Integer(),
  prefix: t.String({ description: '`lnt_` and the key id: the start of the key, to recognise it by' }),
  name: t.String(),
  created_at: t.String({ description: 'RFC 3339' }),
  last_used_at: t.Nullable(t.String({ description: 'Last authenticated request (RFC 3339, recorded at most once a minute)' })),
  revoked_at: t.Nullable(t.String({ description: 'RFC 3339' })),
  state: t.Union([t.Literal('active'), t.Literal('revoked')]),
  role: t.Union(
    ROLES.map((role) => t.Literal(role)),
    { description: 'What the key may do in its team (never above its member\'s role: the lower of the two counts)' },
  ),
})

/** The named models of the OpenAPI document this module defines. */
const NewApiKeyJson = t.Composite([
  ApiKeyJson,
  t.Object({ key: t.String({ description: 'The whole key (`lnt_…`): shown in this answer only, never again' }) }),
])

const apiKeyModels = namedModels({ ApiKey: ApiKeyJson, NewApiKey: NewApiKeyJson, CreateApiKey: CreateApiKeyBody })
const ApiKeyRef = modelRef(apiKeyModels, 'ApiKey')
const NewApiKeyRef = modelRef(apiKeyModels, 'NewApiKey')

/** Why an API key cannot create keys (403), for the API and its documentation. */
export const KEYS_NEED_SESSION = 'API keys cannot create API keys: create one in the web app (Account → API keys) or with lantern key create'

export const apiKeyJson = (key: ApiKeyInfo): Static<typeof ApiKeyJson> => ({
  id: key.id,
  prefix: key.prefix,
  name: key.name,
  created_at: toIso(key.createdAt),
  last_used_at: toIsoOrNull(key.lastUsedAt),
  revoked_at: toIsoOrNull(key.revokedAt),
  state: key.state,
  role: key.role,
})

const NO_STORE = { 'cache-control': 'no-store' }

export function apiKeysRoutes(deps: { accounts: AccountsService }) {
  const { accounts } = deps
  const detail = (summary: string, description: string) => ({ tags: ['API keys'], summary, description, security: apiKeySecurity })
  return new Elysia({ prefix: '/user/api/v1' })
    .model(sharedModels)
    .model(apiKeyModels)
    .use(ownerAuth(accounts))
    .get(
      '/api-keys',
      async ({ owner, set }) => {
        Object.assign(set.headers, NO_STORE)
        const list = (await accounts.listApiKeys(owner.userId)).map(apiKeyJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        response: { 200: t.Object({ data: t.Array(ApiKeyRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('List your API keys', 'Oldest first, revoked keys included (`state: "revoked"`). The secret is never shown again after `lantern key create`, and only its hash is stored.'),
      },
    )
    .post(
      '/api-keys',
      async ({ owner, body, headers, set, status }) => {
        Object.assign(set.headers, NO_STORE)
        if (presentsApiKey(headers)) throw forbidden(KEYS_NEED_SESSION)
        const created = await accounts.createApiKey(owner, body.name, body.role)
        return status(201, { data: { ...apiKeyJson(created.info), key: created.key } })
      },
      {
        body: CreateApiKeyBody,
        response: { 201: t.Object({ data: NewApiKeyRef }), ...errorResponses },
        detail: {
          ...detail(
            'Create an API key',
            'Answers the whole key (`key`) once; only its hash is stored, so it cannot be shown again. Needs the login session cookie (a POST from this site\'s Origin); a request with an API key is refused with 403, so a leaked key cannot create keys that outlive its revocation.',
          ),
          security: [{ sessionCookie: [] }],
        },
      },
    )
    .delete(
      '/api-keys/:id',
      async ({ owner, params, set }) => {
        Object.assign(set.headers, NO_STORE)
        return { data: apiKeyJson(await accounts.revokeApiKey(owner.userId, params.id)) }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: ApiKeyRef }), ...errorResponses },
        detail: detail(
          'Revoke an API key',
          'Every later request with the key answers 401; the key stays in the list as `revoked`. Revoking the key this request uses is allowed (this answer still succeeds). Revoking a revoked key returns it unchanged; another user\'s key is 404.',
        ),
      },
    )
}
