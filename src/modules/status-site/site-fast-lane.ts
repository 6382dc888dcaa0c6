/**
 * The status hosts' fast lane: a warm read of a public page answered from the public cache with its
 * prepared bytes (headers baked in at preparation), without the status site's Elysia app. Asked
 * by the front door after the Host check and the host route, before the edge. It answers only when
 * everything is already known and the answer is the route's own; anything else (a private or
 * blocked page, an unknown host, a miss, another method, an archive cursor) returns undefined and
 * takes the full path, which loads, checks access and fills the cache.
 */
import { attachContext, type RequestContext } from '../../http/context.ts'
import { withoutRevalidation, type PreparedResponse } from '../../lib/http-cache.ts'
import type { PageViewHook } from './index.ts'
import { readKey } from './keys.ts'
import type { StatusSiteService } from './service.ts'
import type { StatusHostRoute } from './site-entry.ts'

/** The prepared answer of a warm public read (the front door serves it), or undefined. */
export type StatusSiteFastLane = (request: Request, route: StatusHostRoute, context: RequestContext) => PreparedResponse | undefined

export interface StatusSiteFastLaneDeps {
  service: StatusSiteService
  /** The same hook the `/` route calls: a view served from here is a view too. */
  onPageView?: PageViewHook | undefined
  logError: (error: unknown) => void
}

export function createStatusSiteFastLane(deps: StatusSiteFastLaneDeps): StatusSiteFastLane {
  const { service } = deps
  return (request, route, context) => {
    if (request.method !== 'GET' || route.kind === 'unknown') return undefined
    const site = service.knownSite(route.host)
    // Private pages need the visitor's session or token: never from the shared cache. Blocked ones answer 503 on the full path.
    if (!site || site.visibility !== 'public' || site.blocked) return undefined
    const url = context.url
    const queryStart = url.indexOf('?')
    const path = context.path
    const key = readKey(path, queryStart === -1 ? '' : url.slice(queryStart + 1), site, request.headers.get('accept-language'))
    const prepared = key === undefined ? service.readyAsset(path, site) : service.cachedAnswer(key)
    if (prepared === undefined) return undefined
    if (path === '/' && prepared.status === 200 && deps.onPageView) {
      // The hook reads the client from the request's context, as on the full path.
      attachContext(context)
      try {
        deps.onPageView(site.pageId, request)
      } catch (error) {
        deps.logError(error)
      }
    }
    // robots.txt is served without revalidation, as its route does.
    return path === '/robots.txt' ? withoutRevalidation(prepared) : prepared
  }
}
