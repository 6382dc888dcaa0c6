/**
 * The entry of the status site, for requests the front door (src/http/front.ts) routed to a status
 * host: a page's slug host, a custom domain, or an unknown host (its 404 page). Requests for a page
 * are rewritten onto an internal origin with a normal-length host before Elysia sees them (its
 * router misreads URLs with very short hosts such as `http://a.io/`), and the page they are for
 * travels beside them.
 */
import { corsPreflight, withAnyOrigin } from '../../http/cors.ts'
import { withHeader } from '../../http/response.ts'
import type { RequestContext } from '../../http/context.ts'
import type { HostRoute } from '../../http/host-router.ts'
import { servePrepared } from '../../lib/http-cache.ts'
import { setPublicContext } from './context.ts'
import type { StatusSiteService } from './service.ts'

export const INTERNAL_ORIGIN = 'http://status-page.lantern.internal'

/** Status-host paths whose answers any site may read: the Statuspage v2 JSON and the feeds. */
const isCorsOpenPath = (path: string): boolean => path.startsWith('/api/v2/') || path === '/history.rss' || path === '/history.atom' || path === '/maintenance.ics'

type Handle = (request: Request) => Response | Promise<Response>

/** A host that is not the service host: a page's slug host, a custom domain, or unknown. */
export type StatusHostRoute = Exclude<HostRoute, { kind: 'service' }>

export type StatusSiteEntry = (request: Request, route: StatusHostRoute, context: RequestContext) => Promise<Response>

export interface StatusSiteEntryDeps {
  service: StatusSiteService
  /** The status site's Elysia app. */
  publicHandle: Handle
  logError: (error: unknown) => void
}

export function createStatusSiteEntry(deps: StatusSiteEntryDeps): StatusSiteEntry {
  const { service } = deps
  const notFound = async () => {
    const prepared = await service.notFoundPage()
    return new Response(prepared.body, { status: 404, headers: prepared.headers })
  }
  return async (request, route, context) => {
    try {
      const site = route.kind === 'unknown' ? undefined : await service.resolve(route)
      if (!site) {
        // The 404 page links the shared stylesheet: it is served here too, so the page is styled.
        if (context.path === '/_lantern/page.css' && (request.method === 'GET' || request.method === 'HEAD')) {
          return servePrepared(await service.pageCss, request.headers.get('if-none-match'))
        }
        return withHeader(await notFound(), 'x-robots-tag', 'noindex')
      }
      // The JSON API and the feeds are read from any site (Statuspage widgets): preflights are
      // answered here, and every answer of theirs, errors included, is opened.
      const corsOpen = isCorsOpenPath(context.path)
      if (corsOpen && request.method === 'OPTIONS') return corsPreflight(request)
      const url = request.url
      const authority = url.indexOf('//') + 2
      const pathStart = url.indexOf('/', authority)
      const internal = new Request(INTERNAL_ORIGIN + (pathStart === -1 ? '/' : url.slice(pathStart)), request)
      setPublicContext(internal, { site, original: request, origin: url.slice(0, pathStart === -1 ? url.length : pathStart), client: context.client })
      const answer = await deps.publicHandle(internal)
      const response = corsOpen ? withAnyOrigin(answer) : answer
      return site.visibility === 'private' || site.blocked ? withHeader(response, 'x-robots-tag', 'noindex') : response
    } catch (error) {
      deps.logError(error)
      return new Response('internal error', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } })
    }
  }
}
