/**
 * The edge around the app: what happens to every request before and after `app.handle` when the
 * server listens (main.ts). Rate limits for public APIs, security headers, the request log and the
 * worker id. Tests of features call `app.handle` directly and are not limited.
 */
import type { Clock } from '../../lib/clock.ts'
import { systemClock } from '../../lib/clock.ts'
import { errorResponse } from '../../lib/errors.ts'
import { requestPath } from '../fast-lane.ts'
import { judgeHostHeader } from '../../lib/host.ts'
import { clientAddress, isLoopback, trustedProxyMatcher } from './client-address.ts'
import type { OperationsConfig } from '../../config.ts'
import { isRateLimited, RateLimiter } from './rate-limit.ts'
import { requestLogLine } from './request-log.ts'
import { applySecurityHeaders, HSTS } from './security-headers.ts'
import { rememberClientAddress } from '../../lib/client-address.ts'

export type Handler = (request: Request) => Promise<Response> | Response

export interface EdgeOptions {
  operations: OperationsConfig
  serviceOrigin: string
  /** Whether a Host header names the service host (the host router decides in the server). */
  isServiceHost?: (host: string | null) => boolean
  clock?: Clock
  /** Set when this process is one of several workers (1-based). */
  workerId?: number | undefined
  /** Where request log lines go (stdout by default). */
  log?: (line: string) => void
  /** High-resolution time for durations, in ms. */
  now?: () => number
}

/**
 * Wraps a handler; call the result with the request and the connection's peer address, or a
 * function that reads it (only called when something needs the client: a rate-limited path, the
 * request log, or a feature reading `clientAddressOf`).
 */
export function createEdge(handle: Handler, options: EdgeOptions) {
  const { operations } = options
  const trusted = trustedProxyMatcher(operations.trustedProxies)
  const clock = options.clock ?? systemClock
  const limiter = operations.rateLimitPerMinute > 0 ? new RateLimiter(operations.rateLimitPerMinute, clock) : undefined
  const log = options.log ?? ((line: string) => console.log(line))
  const now = options.now ?? (() => performance.now())
  const worker = options.workerId === undefined ? undefined : String(options.workerId)
  const security = { serviceOrigin: options.serviceOrigin, isServiceHost: options.isServiceHost }
  // Cache hits skip applySecurityHeaders (they carry the rest already); HSTS depends on BASE_URL.
  const hsts = options.serviceOrigin.startsWith('https:')

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
  const admit = (request: Request): Request | Response => {
    const host = request.headers.get('host')
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
   * `cached` answers a pre-encoded cache hit without the rest of the edge (see main.ts).
   */
  return function edge(
    wire: Request,
    peer: string | undefined | (() => string | undefined),
    cached?: (request: Request) => Response | undefined,
  ): Response | Promise<Response> {
    const admitted = admit(wire)
    const hit = admitted instanceof Request ? cached?.(admitted) : undefined
    if (hit) {
      if (hsts) hit.headers.set('strict-transport-security', HSTS)
      return hit
    }
    const request = admitted instanceof Request ? admitted : wire
    const startedAt = operations.requestLog ? now() : 0
    // One answer to "who is this?" for rate limits, the private-page gate and page-view counting.
    let resolved = false
    let ip: string | undefined
    const client = (): string | undefined => {
      if (!resolved) {
        ip = clientAddress(typeof peer === 'function' ? peer() : peer, request.headers.get('x-forwarded-for'), trusted)
        resolved = true
      }
      return ip
    }
    rememberClientAddress(request, client)
    const finish = (response: Response): Response => {
      const out = applySecurityHeaders(request, response, security)
      if (worker) out.headers.set('x-lantern-worker', worker)
      if (operations.requestLog) {
        log(requestLogLine(request, out, { time: clock.now(), durationMs: now() - startedAt, ip: client(), worker: options.workerId }))
      }
      return out
    }
    if (admitted instanceof Response) return finish(admitted)
    if (limiter && isRateLimited(request.method, requestPath(request.url))) {
      const address = client()
      if (address !== undefined && !isLoopback(address)) {
        const refusal = limited(address)
        if (refusal) return finish(refusal)
      }
    }
    const result = handle(request)
    return result instanceof Promise ? result.then(finish) : finish(result)
  }
}
