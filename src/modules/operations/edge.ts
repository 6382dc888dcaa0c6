/**
 * The edge around the app: what happens to every request before and after `app.handle` when the
 * server listens (main.ts). Rate limits for public APIs, security headers, the request log and the
 * worker id. Tests of features call `app.handle` directly and are not limited.
 */
import type { Clock } from '../../lib/clock.ts'
import { systemClock } from '../../lib/clock.ts'
import { errorResponse } from '../../lib/errors.ts'
import { clientAddress, isLoopback } from './client-ip.ts'
import type { OperationsConfig } from './config.ts'
import { isRateLimited, RateLimiter } from './rate-limit.ts'
import { requestLogLine } from './request-log.ts'
import { applySecurityHeaders } from './security-headers.ts'

export type Handler = (request: Request) => Promise<Response> | Response

export interface EdgeOptions {
  operations: OperationsConfig
  serviceOrigin: string
  clock?: Clock
  /** Set when this process is one of several workers (1-based). */
  workerId?: number | undefined
  /** Where request log lines go (stdout by default). */
  log?: (line: string) => void
  /** High-resolution time for durations, in ms. */
  now?: () => number
}

/** Wraps a handler; call the result with the request and the connection's peer address. */
export function createEdge(handle: Handler, options: EdgeOptions) {
  const { operations } = options
  const trusted = new Set(operations.trustedProxies)
  const clock = options.clock ?? systemClock
  const limiter = operations.rateLimitPerMinute > 0 ? new RateLimiter(operations.rateLimitPerMinute, clock) : undefined
  const log = options.log ?? ((line: string) => console.log(line))
  const now = options.now ?? (() => performance.now())
  const worker = options.workerId === undefined ? undefined : String(options.workerId)
  const security = { serviceOrigin: options.serviceOrigin }

  async function respond(request: Request, ip: string | undefined): Promise<Response> {
    if (limiter && ip !== undefined && !isLoopback(ip)) {
      const pathname = pathOf(request.url)
      if (isRateLimited(request.method, pathname)) {
        const decision = limiter.take(ip)
        if (!decision.ok) {
          return errorResponse(429, 'too many requests', {
            'retry-after': String(decision.retryAfterSeconds),
            'access-control-allow-origin': '*',
            'cache-control': 'no-store',
          })
        }
      }
    }
    return handle(request)
  }

  return async function edge(request: Request, peer: string | undefined): Promise<Response> {
    const startedAt = operations.requestLog ? now() : 0
    const ip = clientAddress(peer, request.headers.get('x-forwarded-for'), trusted)
    const response = applySecurityHeaders(request, await respond(request, ip), security)
    if (worker) response.headers.set('x-lantern-worker', worker)
    if (operations.requestLog) {
      log(requestLogLine(request, response, { time: clock.now(), durationMs: now() - startedAt, ip, worker: options.workerId }))
    }
    return response
  }
}

/** The path of a URL without parsing all of it (hot path). */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start === -1) return '/'
  const end = url.indexOf('?', start)
  return end === -1 ? url.slice(start) : url.slice(start, end)
}
