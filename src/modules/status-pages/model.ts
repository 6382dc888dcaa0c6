import { t, type Static } from 'elysia'
import type { Config } from '../../config.ts'
import { toIso } from '../../lib/time.ts'
import { boundedText, modelRef, namedModels } from '../../http/schemas.ts'
import { MAX_PAGE_DESCRIPTION, MAX_PAGE_NAME, type StatusPage } from './types.ts'
import { statusPageUrl } from './urls.ts'

const VisibilitySchema = t.Union([t.Literal('public'), t.Literal('private')], {
  error: 'visibility must be "public" or "private"',
})

const slug = t.String({ maxLength: 200, error: 'slug must be a string of letters, digits and hyphens' })
const name = boundedText('name', MAX_PAGE_NAME)
const customDomain = t.Nullable(t.String({ maxLength: 1000 }), {
  error: 'custom_domain must be a host name or null',
})

const language = t.String({
  maxLength: 20,
  error: 'language must be one of en, de, fr, es, pt-BR, ja',
  description: 'The language visitors see when their browser asks for none of these (en, de, fr, es, pt-BR, ja). Visitors may pick another on the page.',
  examples: ['de'],
})
const timeZone = t.String({
  maxLength: 64,
  error: 'time_zone must be an IANA time zone such as Europe/Berlin or UTC',
  description: 'The IANA time zone every time on the public page is shown in, named beside it. Visitors may ask for their own with `?tz=`.',
  examples: ['Europe/Berlin'],
})

const description = t.String({
  maxLength: 4000,
  error: 'description must be a string',
  description: `Markdown shown under the page's name on the public page (at most ${MAX_PAGE_DESCRIPTION} characters; links, emphasis, lists and code; HTML stays text). An empty string removes it.`,
  examples: ['Live status of **Acme Cloud**. Questions? [Write to us](mailto:support@example.com).'],
})

export const CreateStatusPageBody = t.Object({
  slug,
  name,
  custom_domain: t.Optional(customDomain),
  visibility: t.Optional(VisibilitySchema),
  language: t.Optional(language),
  time_zone: t.Optional(timeZone),
  description: t.Optional(description),
  password: t.Optional(
    t.Nullable(t.String({ maxLength: 2000 }), {
      error: 'password must be a string',
      description: 'The gate password of a private page (at least 8 characters), set with the page. Without one a private page opens to nobody (see `warnings`).',
    }),
  ),
})

export const UpdateStatusPageBody = t.Object({
  slug: t.Optional(slug),
  name: t.Optional(name),
  custom_domain: t.Optional(customDomain),
  visibility: t.Optional(VisibilitySchema),
  language: t.Optional(language),
  time_zone: t.Optional(timeZone),
  description: t.Optional(description),
})

/** What create and update take (create checks that slug and name are there). */
export type StatusPageInput = Static<typeof UpdateStatusPageBody>

const DomainStateSchema = t.Union([t.Literal('pending'), t.Literal('verified'), t.Literal('failing')])

const StatusPageJson = t.Object({
  id: t.Integer(),
  slug: t.String(),
  name: t.String(),
  custom_domain: t.Nullable(t.String()),
  custom_domain_status: t.Nullable(
    t.Object(
      {
        state: DomainStateSchema,
        checked_at: t.Nullable(t.String({ description: 'RFC 3339: the last DNS check, null before the first' })),
        verified_at: t.Nullable(t.String({ description: 'RFC 3339: when the domain last reached this instance' })),
        reason: t.Nullable(t.String({ description: 'What the last check found' })),
      },
      {
        description:
          'null without a custom domain. `pending`: not yet seen resolving to this instance; `verified`: it does, and public links use it; `failing`: it did, but the last check found it elsewhere (links use the default address again). Checked every 15 minutes, or now with POST …/custom-domain/check.',
      },
    ),
  ),
  visibility: VisibilitySchema,
  language: t.String({ description: 'The default language of the public page (en, de, fr, es, pt-BR, ja)', examples: ['en'] }),
  time_zone: t.String({ description: 'The IANA time zone the public page shows its times in', examples: ['UTC'] }),
  description: t.String({ description: "Markdown shown under the page's name ('' for none)", examples: [''] }),
  blocked: t.Boolean({ description: 'Set by an instance admin; a blocked page is hidden from visitors' }),
  url: t.String({ description: 'Where visitors are sent: the custom domain once verified, else <slug>.<STATUS_DOMAIN>' }),
  warnings: t.Array(t.Object({ code: t.String(), message: t.String() }), {
    description: 'What keeps the page from working as set up, e.g. `private_without_password` (a private page nobody can open). Empty when all is well.',
  }),
  created_at: t.String({ description: 'RFC 3339' }),
  updated_at: t.String({ description: 'RFC 3339' }),
})

/** The named models of the OpenAPI document this module defines. */
export const statusPageModels = namedModels({ StatusPage: StatusPageJson })
export const StatusPageRef = modelRef(statusPageModels, 'StatusPage')

const isoOrNull = (ms: number | null) => (ms === null ? null : toIso(ms))

/** What keeps a page from working as set up: one entry per problem, with a stable code. */
export function pageWarnings(page: StatusPage): Array<{ code: string; message: string }> {
  if (page.visibility !== 'private' || page.passwordSet) return []
  return [
    {
      code: 'private_without_password',
      message: `This page is private and has no password: no visitor can open it. Set one with PUT /user/api/v1/status-pages/${page.id}/access, or make the page public.`,
    },
  ]
}

export function statusPageJson(page: StatusPage, config: Pick<Config, 'scheme' | 'statusDomain'>): Static<typeof StatusPageJson> {
  return {
    id: page.id,
    slug: page.slug,
    name: page.name,
    custom_domain: page.customDomain,
    custom_domain_status:
      page.customDomainState === null
        ? null
        : {
            state: page.customDomainState,
            checked_at: isoOrNull(page.domainCheck.checkedAt),
            verified_at: isoOrNull(page.domainCheck.verifiedAt),
            reason: page.domainCheck.reason,
          },
    visibility: page.visibility,
    language: page.language,
    time_zone: page.timeZone,
    description: page.description,
    blocked: page.blocked,
    url: statusPageUrl(page, config),
    warnings: pageWarnings(page),
    created_at: toIso(page.createdAt),
    updated_at: toIso(page.updatedAt),
  }
}
