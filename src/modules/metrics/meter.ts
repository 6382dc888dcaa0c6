/**
 * Counts and times every request of an app: wraps its single entry (`handle`) and its cache-hit
 * entry (`answerFromCache`, called by the server before the edge). A request takes exactly one of
 * the two, so each is counted once. Route labels are patterns from the apps' own route tables.
 */
import { requestPath } from '../../http/fast-lane.ts'
import type { AppMetrics } from './registry.ts'
import { RouteMatcher } from './route-matcher.ts'

/** Paths remembered with their route: hot badges repeat, and a lookup costs less than a match. */
const REMEMBERED_PATHS = 1024

type Handle = (request: Request) => Response | Promise<Response>
type CacheAnswer = (request: Request) => Response | undefined

export interface MeterDeps {
  metrics: AppMetrics
  /** Route patterns of the service host's app. */
  serviceRoutes: Iterable<string>
  /** Route patterns of the status-page hosts' app; their labels start with `status:`. */
  statusRoutes: Iterable<string>
  isForServiceHost(request: Request): boolean
}

export function createRequestMeter(deps: MeterDeps) {
  const { metrics } = deps
  const service = new RouteMatcher(deps.serviceRoutes)
  const status = new RouteMatcher(deps.statusRoutes)
  const remembered = new Map<string, string>()
  const serviceRoute = (request: Request): string => {
    const path = requestPath(request.url)
    let route = remembered.get(path)
    if (route === undefined) {
      route = service.match(path) ?? 'other'
      if (remembered.size >= REMEMBERED_PATHS) remembered.clear() // bounded, whatever paths come
      remembered.set(path, route)
    }
    return route
  }
  const routeOf = (request: Request): string => {
    if (deps.isForServiceHost(request)) return serviceRoute(request)
    const pattern = status.match(requestPath(request.url))
    return pattern === undefined ? 'other' : `status:${pattern}`
  }

  return {
    /** Every request through the app: counted by route, method and status, and timed. */
    handle(handle: Handle): Handle {
      return (request) => {
        const startedAt = performance.now()
        const done = (response: Response): Response => {
          const route = routeOf(request)
          metrics.countRequest(route, request.method, response.status)
          metrics.observeDuration(route, (performance.now() - startedAt) / 1000)
          return response
        }
        const failed = (error: unknown): never => {
          const route = routeOf(request)
          metrics.countRequest(route, request.method, 500)
          metrics.observeDuration(route, (performance.now() - startedAt) / 1000)
          throw error
        }
        let result: Response | Promise<Response>
        try {
          result = handle(request)
        } catch (error) {
          return failed(error)
        }
        // Synchronous answers stay synchronous (the fast lane inside the app).
        return result instanceof Promise ? result.then(done, failed) : done(result)
      }
    },
    /** Cache hits before the edge (service host only): counted, not timed; a miss is counted later by `handle`. */
    answerFromCache(answer: CacheAnswer): CacheAnswer {
      return (request) => {
        const hit = answer(request)
        if (hit !== undefined) metrics.countRequest(serviceRoute(request), request.method, hit.status)
        return hit
      }
    },
  }
}
