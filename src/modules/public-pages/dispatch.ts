/**
 * The single entry of the HTTP application: the host router decides, per request, whether the
 * service app or the public-pages app answers. Status-host requests are rewritten onto an internal
 * origin with a normal-length host before Elysia sees them (its router misreads URLs with very
 * short hosts such as `http://a.io/`), and the page they are for travels beside them.
 */
import { corsPreflight, withAnyOrigin } from '../../http/cors.ts'
import { requestPath } from '../../http/fast-lane.ts'
import { servePrepared } from '../../lib/http-cache.ts'
import { clientKey, setPublicContext } from './context.ts'
import { requestHost, type HostRoute, type HostRouter } from '../../http/host-router.ts'
import type { PublicPagesService } from './service.ts'

export const INTERNAL_ORIGIN = 'http://status-page.lantern.internal'

/** Status-host paths whose answers any site may read: the Statuspage v2 JSON and the feeds. */
const isCorsOpenPath = (path: string): boolean => path.startsWith('/api/v2/') || path === '/history.rss' || path === '/history.atom'

type Handle = (request: Request) => Response | Promise<Response>

export interface HostDispatchDeps {
  router: HostRouter
  service: PublicPagesService
  serviceHandle: Handle
  publicHandle: Handle
  logError: (error: unknown) => void
}

function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value)
    return response
  } catch {
    // Immutable headers (e.g. Response.redirect): copy once.
    const copy = new Response(response.body, response)
    copy.headers.set(name, value)
    return copy
  }
}

export function createHostDispatch(deps: HostDispatchDeps): Handle {
  const { router, service } = deps
  const notFound = async () => {
    const prepared = await service.notFoundPage()
    return new Response(prepared.body, { status: 404, headers: prepared.headers })
  }
  const statusHost = async (request: Request, route: Exclude<HostRoute, { kind: 'service' }>): Promise<Response> => {
    try {
      const site = route.kind === 'unknown' ? undefined : await service.resolve(route)
      if (!site) {
        // The 404 page links the shared stylesheet: it is served here too, so the page is styled.
        if (requestPath(request.url) === '/_lantern/page.css' && (request.method === 'GET' || request.method === 'HEAD')) {
          return servePrepared(await service.pageCss, request.headers.get('if-none-match'))
        }
        return withHeader(await notFound(), 'x-robots-tag', 'noindex')
      }
      // The JSON API and the feeds are read from any site (Statuspage widgets): preflights are
      // answered here, and every answer of theirs, errors included, is opened.
      const corsOpen = isCorsOpenPath(requestPath(request.url))
      if (corsOpen && request.method === 'OPTIONS') return corsPreflight(request)
      const url = request.url
      const authority = url.indexOf('//') + 2
      const pathStart = url.indexOf('/', authority)
      const internal = new Request(INTERNAL_ORIGIN + (pathStart === -1 ? '/' : url.slice(pathStart)), request)
      setPublicContext(internal, { site, original: request, origin: url.slice(0, pathStart === -1 ? url.length : pathStart), client: clientKey(request) })
      const answer = await deps.publicHandle(internal)
      const response = corsOpen ? withAnyOrigin(answer) : answer
      return site.visibility === 'private' || site.blocked ? withHeader(response, 'x-robots-tag', 'noindex') : response
    } catch (error) {
      deps.logError(error)
      return new Response('internal error', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } })
    }
  }
  // Synchronous for the service host, so its fast lane keeps answering without a promise.
  return (request) => {
    const route = router.route(requestHost(request))
    return route.kind === 'service' ? deps.serviceHandle(request) : statusHost(request, route)
  }
}
