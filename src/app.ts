/**
 * createApp(deps) builds the whole HTTP application. It never listens and never reads the
 * environment: `main.ts` does that, and tests call `app.handle(request)` directly.
 */
import { swagger } from '@elysiajs/swagger'
import { Elysia, ValidationError } from 'elysia'
import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import type { ChangeFeed } from './lib/change-feed.ts'
import type { Clock } from './lib/clock.ts'
import { errorResponse, HttpError } from './lib/errors.ts'
import { FastLane } from './lib/fast-lane.ts'
import { TtlCache } from './lib/ttl-cache.ts'
import { componentsRoutes } from './modules/components/index.ts'
import { contentRoutes } from './modules/content/index.ts'
import { createContentService } from './modules/content/sources.ts'
import { embedRoutes } from './modules/embed/index.ts'
import { EmbedRepo } from './modules/embed/repo.ts'
import { EmbedService, type PublicCache } from './modules/embed/service.ts'
import { healthRoutes } from './modules/health/index.ts'
import { operationsRoutes } from './modules/operations/index.ts'
import { OperationsRepo } from './modules/operations/repo.ts'
import { statusPagesRoutes } from './modules/status-pages/index.ts'
import { createServices } from './services.ts'

export interface AppDeps {
  db: Db
  config: Config
  clock?: Clock
  changes?: ChangeFeed
  /** Off only for measuring the uncached path. */
  publicCache?: boolean
  /** Where unexpected errors are reported (defaults to stderr). */
  logError?: (error: unknown) => void
}

export const APP_VERSION = '0.1.0'

/**
 * Turns Elysia's validation error into the one line API users need: `field is required`, the
 * schema's own `error` text, or `field: what is wrong`. Array items read `history[3].at` when the
 * schema has a `title`.
 */
export function validationMessage(error: Readonly<ValidationError>): string {
  const root = (error.validator as { schema?: { title?: string } } | undefined)?.schema
  const first = error.all[0] as { path?: string; value?: unknown; schema?: { error?: unknown }; message?: string } | undefined
  if (!first) return 'invalid request'
  const segments = (first.path ?? '').split('/').filter(Boolean)
  const field = segments.reduce((name, segment) => (/^\d+$/.test(segment) ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment), root?.title ?? '')
  if (!field) return typeof first.schema?.error === 'string' ? first.schema.error : `request ${error.type} is not valid`
  if (first.value === undefined) return `${field} is required`
  if (typeof first.schema?.error === 'string') return first.schema.error
  return `${field}: ${first.message ?? 'invalid value'}`
}

export function createApp(deps: AppDeps) {
  const services = createServices(deps)
  const logError = deps.logError ?? ((error: unknown) => console.error('[lantern] unexpected error:', error))
  const cache: PublicCache | undefined =
    deps.publicCache === false ? undefined : new TtlCache({ maxEntries: 10_000, defaultTtlMs: 60_000, clock: services.clock })
  if (cache) {
    services.changes.subscribe((change) => (change.kind === 'page' ? cache.invalidatePage(change.pageId) : cache.clear()))
  }
  const embed = new EmbedService(new EmbedRepo(deps.db), cache, deps.config)
  const fastLane = new FastLane()

  const app = new Elysia()
    .onError(({ code, error }) => {
      if (error instanceof HttpError) return errorResponse(error.status, error.message)
      switch (code) {
        case 'VALIDATION':
          return errorResponse(400, validationMessage(error))
        case 'PARSE':
          return errorResponse(400, 'request body is not valid JSON')
        case 'NOT_FOUND':
          return errorResponse(404, 'not found')
        default:
          logError(error)
          return errorResponse(500, 'internal error')
      }
    })
    .use(
      swagger({
        path: '/swagger',
        documentation: {
          info: {
            title: 'Lantern API',
            version: APP_VERSION,
            description:
              'Status pages, embeds and the management API of a Lantern instance. Management routes take an API key (`Authorization: Bearer lnt_…` or `X-API-Key: lnt_…`) created with `lantern key create`. Errors are `{"error": "…"}` with the status code.',
          },
          tags: [
            { name: 'Embeds', description: 'Public snippets, badges, widget and status JSON' },
            { name: 'Status pages', description: 'Manage your status pages' },
            { name: 'Components', description: 'Components of a page and their status history' },
            { name: 'Operations', description: 'Health and operations' },
            { name: 'Site', description: 'Docs, blog, changelog, robots.txt and sitemap of the service host' },
          ],
          components: {
            securitySchemes: {
              bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: lnt_…' },
              apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
            },
          },
        },
      }),
    )
    .use(healthRoutes(deps.db))
    .use(embedRoutes(embed, fastLane))
    .use(statusPagesRoutes({ accounts: services.accounts, pages: services.pages, config: deps.config }))
    .use(componentsRoutes({ accounts: services.accounts, components: services.components }))
    .use(contentRoutes(createContentService(deps.config.baseUrl)))
    .use(operationsRoutes(new OperationsRepo(deps.db)))

  const routed = app.handle
  /** The single entry for every request: cache hits on the fast lane, everything else through Elysia. */
  const handle = (request: Request): Response | Promise<Response> => fastLane.answer(request) ?? routed(request)
  return Object.assign(app, { handle, services, publicCache: cache })
}

export type App = ReturnType<typeof createApp>
