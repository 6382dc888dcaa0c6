import { t, type Static } from 'elysia'
import type { Config } from '../../config.ts'
import { toIso } from '../../lib/time.ts'
import { boundedText, modelRef, namedModels } from '../../http/schemas.ts'
import { MAX_PAGE_NAME, type StatusPage } from './service.ts'
import { statusPageUrl } from './urls.ts'

const VisibilitySchema = t.Union([t.Literal('public'), t.Literal('private')], {
  error: 'visibility must be "public" or "private"',
})

const slug = t.String({ maxLength: 200, error: 'slug must be a string of letters, digits and hyphens' })
const name = boundedText('name', MAX_PAGE_NAME)
const customDomain = t.Nullable(t.String({ maxLength: 1000 }), {
  error: 'custom_domain must be a host name or null',
})

export const CreateStatusPageBody = t.Object({
  slug,
  name,
  custom_domain: t.Optional(customDomain),
  visibility: t.Optional(VisibilitySchema),
})

export const UpdateStatusPageBody = t.Object({
  slug: t.Optional(slug),
  name: t.Optional(name),
  custom_domain: t.Optional(customDomain),
  visibility: t.Optional(VisibilitySchema),
})

/** What create and update take (create checks that slug and name are there). */
export type StatusPageInput = Static<typeof UpdateStatusPageBody>

const StatusPageJson = t.Object({
  id: t.Integer(),
  slug: t.String(),
  name: t.String(),
  custom_domain: t.Nullable(t.String()),
  visibility: VisibilitySchema,
  blocked: t.Boolean({ description: 'Set by an instance admin; a blocked page is hidden from visitors' }),
  url: t.String({ description: 'Where visitors see the page' }),
  created_at: t.String({ description: 'RFC 3339' }),
  updated_at: t.String({ description: 'RFC 3339' }),
})

/** The named models of the OpenAPI document this module defines. */
export const statusPageModels = namedModels({ StatusPage: StatusPageJson })
export const StatusPageRef = modelRef(statusPageModels, 'StatusPage')

export function statusPageJson(page: StatusPage, config: Pick<Config, 'scheme' | 'statusDomain'>): Static<typeof StatusPageJson> {
  return {
    id: page.id,
    slug: page.slug,
    name: page.name,
    custom_domain: page.customDomain,
    visibility: page.visibility,
    blocked: page.blocked,
    url: statusPageUrl(page, config),
    created_at: toIso(page.createdAt),
    updated_at: toIso(page.updatedAt),
  }
}
