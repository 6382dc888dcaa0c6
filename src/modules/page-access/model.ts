/** Schemas of a private page's access settings in the management API, the answer a named model. */
import { t, type Static } from 'elysia'
import { modelRef, namedModels } from '../../http/schemas.ts'

export const AccessBody = t.Object({ password: t.Nullable(t.String({ maxLength: 2000, error: 'password must be a string or null' })) })

const AccessJson = t.Object({
  visibility: t.String(),
  password_set: t.Boolean(),
  embed_token_set: t.Boolean(),
})

/** The named models of the OpenAPI document the access routes define. */
export const accessModels = namedModels({ PageAccess: AccessJson })
export const PageAccessRef = modelRef(accessModels, 'PageAccess')

export const accessJson = (a: { visibility: string; passwordSet: boolean; embedTokenSet: boolean }): Static<typeof AccessJson> => ({
  visibility: a.visibility,
  password_set: a.passwordSet,
  embed_token_set: a.embedTokenSet,
})
