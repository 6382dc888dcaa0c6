/**
 * Counts and times every request the front door hands to an app (`handle`), and counts the cache
 * hits it answers itself (`countHit`). A request takes exactly one of the two, so each is counted
 * once. Route labels are patterns from the apps' own route tables; the host route and the path come
 * from the request's context (worked out once by the front door).
 */
import type { RequestContext } from '../../http/context.ts'
import type { AppMetrics } from './registry.ts'
import { RouteMatcher } from './route-matcher.ts'

/** Paths remembered with their route: hot badges repeat, and a lookup costs less than a match. */
const REMEMBERED_PATHS = 1024

type Handle = (request: Request, context: RequestContext) => Response | Promise<Response>

export interface MeterDeps {
  metrics: AppMetrics
  /** Route patterns of the service host's app. */
  serviceRoutes: Iterable<string>
  /** Route patterns of the status-page hosts' app; their labels start with `status:`. */
  statusRoutes: Iterable<string>
}

export type RequestMeter = ReturnType<typeof createRequestMeter>

export function createRequestMeter(deps: MeterDeps) {
  const { metrics } = deps
  const service = new RouteMatcher(deps.serviceRoutes)
  const status = new RouteMatcher(deps.statusRoutes)
  const remembered = new Map<string, string>()
  const serviceRoute = (path: string): string => {
    let route = remembered.get(path)
    if (route === undefined) {
      route = service.match(path) ?? 'other'
      if (remembered.size >= REMEMBERED_PATHS) remembered.clear() // bounded, whatever paths come
      remembered.set(path, route)
    }
    return route
  }
  const routeOf = (context: RequestContext): string => {
    if (context.route.kind === 'service') return serviceRoute(context.path)
    const pattern = status.match(context.path)
    return pattern === undefined ? 'other' : `status:${pattern}`
  }

  return {
    /** Every request through an app: counted by route, method and status, and timed. */
    handle(handle: Handle): Handle {
      return (request, context) => {
        const startedAt = performance.now()
        const done = (response: Response): Response => {
          const route = routeOf(context)
          metrics.countRequest(route, request.method, response.status)
          metrics.observeDuration(route, (performance.now() - startedAt) / 1000)
          return response
        }
        const failed = (error: unknown): never => {
          const route = routeOf(context)
          metrics.countRequest(route, request.method, 500)
          metrics.observeDuration(route, (performance.now() - startedAt) / 1000)
          throw error
        }
        let result: Response | Promise<Response>
        try {
          result = handle(request, context)
        } catch (error) {
          return failed(error)
        }
        // Synchronous answers stay synchronous (the fast lane inside the app).
        return result instanceof Promise ? result.then(done, failed) : done(result)
      }
    },
    /** A cache hit answered before the edge (either host's fast lane): counted, not timed. */
    countHit(request: Request, context: RequestContext, hit: Response): void {
      metrics.countRequest(routeOf(context), request.method, hit.status)
    },
  }
}
