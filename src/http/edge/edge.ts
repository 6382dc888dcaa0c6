/**
 * The edge: what happens to every request around the app (src/http/front.ts puts it in front of
 * both sites): the Host check, cache hits, rate limits for public APIs, security headers, the
 * request log and the worker id. Requests handed in without a socket (tests, `app.handle`) have no
 * peer address and are never rate limited.
 */
import type { Clock } from '../../lib/clock.ts'
import { systemClock } from '../../lib/clock.ts'
import { errorResponse } from '../../lib/errors.ts'
import { judgeHostHeader } from '../../lib/host.ts'
import { attachContext, createContext, type PeerAddress, type RequestContext } from '../context.ts'
import type { HostRouter } from '../host-router.ts'
import { isLoopback, trustedProxyMatcher } from './client-address.ts'
import type { OperationsConfig } from '../../config.ts'
import { isRateLimited, RateLimiter } from './rate-limit.ts'
import { requestLogLine } from './request-log.ts'
import { applySecurityHeaders } from './security-headers.ts'
import { declaredTooLarge, lengthRequiredMessage, tooLargeMessage, undeclaredLength } from '../body-limit.ts'

export type Handler = (request: Request, context: RequestContext) => Promise<Response> | Response
/**
 * A pre-encoded cache hit, or undefined; called after the Host check, before rate limits. A hit
 * carries every header the edge would add (HSTS, worker id): it is returned as it is.
 */
export type CachedAnswer = (request: Request, context: RequestContext) => Response | undefined

export interface EdgeOptions {
  operations: OperationsConfig
  serviceOrigin: string
  /** The one host router of the program: the context routes each request with it, once. */
  router?: HostRouter
  clock?: Clock
  /** Set when this process is one of several workers (1-based). */
  workerId?: number | undefined
  /** Where request log lines go (stdout by default). */
  log?: (line: string) => void
  /** High-resolution time for durations, in ms. */
  now?: () => number
  /** The 413 of a body past its path's limit (http/body-limit.ts); by default the JSON error. */
  tooLarge?: (request: Request, limitBytes: number) => Response
}

/**
 * Wraps a handler; call the result with the request and the connection's peer address, or a
 * function that reads it (only called when something needs the client: a rate-limited path, the
 * request log, or a feature reading `clientKey`).
 */
export function createEdge(handle: Handler, options: EdgeOptions) {
  const { operations } = options
  const trusted = trustedProxyMatcher(operations.trustedProxies)
  const clock = options.clock ?? systemClock
  const limiter = operations.rateLimitPerMinute > 0 ? new RateLimiter(operations.rateLimitPerMinute, clock) : undefined
  const log = options.log ?? ((line: string) => console.log(line))
  const now = options.now ?? (() => performance.now())
  const worker = options.workerId === undefined ? undefined : String(options.workerId)
  const router = options.router

  const limited = (ip: string): Response | undefined => {
    const decision = limiter!.take(ip)
    if (decision.ok) return undefined
    return errorResponse(429, 'too many requests', {
      'retry-after': String(decision.retryAfterSeconds),
      'access-control-allow-origin': '*',
      'cache-control': 'no-store',
    })
  }

  // Host values already found well formed (bounded; forgotten wholesale when full).
  const goodHosts = new Set<string>()
  /**
   * The front door. Bun builds `request.url` from the Host header, so a malformed one gives a URL
   * that does not parse: refuse it here, once, before anything reads the URL. Without a Host
   * (HTTP/1.0) the URL is only a path: the request goes to the service host.
   */
  const admit = (request: Request, host: string | null): Request | Response => {
    if (host !== null && goodHosts.has(host)) return request
    switch (judgeHostHeader(host)) {
      case 'ok':
        if (goodHosts.size >= 1000) goodHosts.clear()
        goodHosts.add(host!)
        return request
      case 'absent':
        // Requests built in process (tests, tools) carry their host in an absolute URL.
        return request.url.startsWith('/') ? new Request(options.serviceOrigin + request.url, request) : request
      case 'several':
        return errorResponse(400, 'a request must have exactly one Host header', { 'cache-control': 'no-store' })
      case 'malformed':
        return errorResponse(400, 'the Host header is not a valid host', { 'cache-control': 'no-store' })
    }
  }

  /**
   * Synchronous when the app answers synchronously (the fast lane): no extra turn of the event loop.
   * `cached` answers a pre-encoded cache hit without the rest of the edge: rate limits protect the
   * work behind the cache, which a hit does not reach, and hits carry their headers already.
   */
  return function edge(wire: Request, peer: PeerAddress, cached?: CachedAnswer): Response | Promise<Response> {
    const host = wire.headers.get('host')
    const admitted = admit(wire, host)
    const request = admitted instanceof Request ? admitted : wire
    const context = createContext(request, router, peer, trusted, host)
    if (admitted instanceof Request && cached) {
      const hit = cached(request, context)
      if (hit) return hit
    }
    attachContext(context)
    const startedAt = operations.requestLog ? now() : 0
    const finish = (response: Response): Response => {
      const known = admitted instanceof Request
      const onServiceHost = router && known ? context.route.kind === 'service' : undefined
      const out = applySecurityHeaders(request, response, { serviceOrigin: options.serviceOrigin, onServiceHost })
      if (worker) out.headers.set('x-lantern-worker', worker)
      if (operations.requestLog) {
        log(requestLogLine(request, out, { time: clock.now(), durationMs: now() - startedAt, ip: context.socketClient, worker: options.workerId }))
      }
      return out
    }
    if (admitted instanceof Response) return finish(admitted)
    // A body declared larger than its path takes is refused before anything reads it (http/body-limit.ts).
    const limit = declaredTooLarge(request, context.path)
    if (limit !== undefined) {
      const refusal = options.tooLarge?.(request, limit) ?? errorResponse(413, tooLargeMessage(limit))
      refusal.headers.set('cache-control', 'no-store')
      return finish(refusal)
    }
    const undeclared = undeclaredLength(request, context.path)
    if (undeclared !== undefined) {
      const refusal = errorResponse(411, lengthRequiredMessage(undeclared))
      refusal.headers.set('cache-control', 'no-store')
      return finish(refusal)
    }
    if (limiter && isRateLimited(request.method, context.path)) {
      const address = context.socketClient
      if (address !== undefined && !isLoopback(address)) {
        const refusal = limited(address)
        if (refusal) return finish(refusal)
      }
    }
    const result = handle(request, context)
    return result instanceof Promise ? result.then(finish) : finish(result)
  }
}
