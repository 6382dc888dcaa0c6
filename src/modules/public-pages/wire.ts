/**
 * Builds the public-pages feature for `createApp`: its services, the status-host app, the
 * management routes and the host dispatcher in front of everything.
 */
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import type { Services } from '../../services.ts'
import type { StatusService } from '../status-api/service.ts'
import { createHostDispatch } from './dispatch.ts'
import type { PageEventsSource } from './events.ts'
import { pageEventsSource } from './events-source.ts'
import { createHostRouter, requestHost } from '../../http/host-router.ts'
import { publicPagesApp, publicPagesRoutes, type PageViewHook } from './index.ts'
import { PrivateEmbeds } from './private-embeds.ts'
import { PublicPagesRepo } from './repo.ts'
import type { PublicCache } from '../../lib/http-cache.ts'
import { PublicPagesService } from './service.ts'
import { PageSettingsService } from './settings.ts'

export interface PublicPagesDeps {
  db: Db
  config: Config
  services: Services
  cache: PublicCache | undefined
  /** The status JSON and badges: private pages' embeds with `auth_token` are built from it. */
  status: StatusService
  /** Incidents and maintenance shown on pages; by default those of the incidents and maintenances modules. */
  events?: PageEventsSource
  onPageView?: PageViewHook
  logError: (error: unknown) => void
}

export function createPublicPages(deps: PublicPagesDeps) {
  const { services, config } = deps
  const repo = new PublicPagesRepo(deps.db)
  const service = new PublicPagesService(repo, deps.events ?? pageEventsSource(services), deps.cache, services.clock, services.changes, config)
  const settings = new PageSettingsService(repo, services.pages, services.pageAccess, services.clock, services.changes)
  const app = publicPagesApp({ service, access: services.pageAccess, config, onPageView: deps.onPageView, logError: deps.logError })
  const routes = publicPagesRoutes({ accounts: services.accounts, settings, service })
  const router = createHostRouter(config)
  const privateEmbeds = new PrivateEmbeds(repo, services.pageAccess, deps.status, services.clock)
  return {
    service,
    settings,
    app,
    routes,
    /** Whether a request is for the service host (not a status page or an unknown host). */
    isForServiceHost: (request: Request) => router.route(requestHost(request)).kind === 'service',
    /** Whether a request asks for a private page's embed with `auth_token` (never a public cache hit). */
    asksPrivateEmbed: (request: Request) => request.url.includes('auth_token='),
    /** The single entry: status hosts go to the public-pages app, the rest to `serviceHandle`. */
    dispatch: (serviceHandle: (request: Request) => Response | Promise<Response>) =>
      createHostDispatch({
        router,
        service,
        // Embeds of private pages with `auth_token` first; everything else as before (synchronously).
        serviceHandle: (request) => {
          const privately = privateEmbeds.answer(request)
          if (!privately) return serviceHandle(request)
          return privately.then(
            (response) => response ?? serviceHandle(request),
            (error: unknown) => {
              deps.logError(error)
              return serviceHandle(request)
            },
          )
        },
        publicHandle: app.handle,
        logError: deps.logError,
      }),
  }
}
