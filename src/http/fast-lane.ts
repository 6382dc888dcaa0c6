/**
 * The fast lane for hot public reads. A feature registers, for an exact path, a function that
 * answers only from its cache and returns undefined otherwise; anything it does not answer (a miss,
 * an error, another method) goes through the Elysia route, which validates, loads and fills the
 * cache. Both produce the same prepared bytes, so the contract lives in one place, while a cache hit
 * skips the router (about a third of a warm request's cost, measured in test/bench). A handler hands
 * back the prepared answer itself: the front door builds the Response (ETag compare, headers built
 * once per answer), so a hit does no more than a lookup.
 *
 * A path may also register a miss reader: it loads what the cache did not hold (a Promise) for a
 * request its route would answer the same way, so a cold read skips the router too. It is asked
 * only inside the edge (rate limits apply, as to the route); what it leaves (undefined: a refused
 * query, say) and any error it meets go to the Elysia route.
 */
import type { PreparedResponse } from '../lib/http-cache.ts'

/** `url` is `request.url`, read once by the caller (Bun builds the string on every read). */
export type FastLaneHandler = (request: Request, url: string) => PreparedResponse | undefined
export type FastLaneMissHandler = (request: Request) => Response | Promise<Response> | undefined

/** The path of an absolute request URL, without building a URL object. */
export function requestPath(url: string): string {
  const schemeEnd = url.indexOf('://')
  const authorityStart = schemeEnd === -1 ? 0 : schemeEnd + 3
  let end = url.indexOf('?', authorityStart)
  if (end === -1) end = url.length
  const pathStart = url.indexOf('/', authorityStart)
  return pathStart === -1 || pathStart > end ? '/' : url.slice(pathStart, end)
}

export type FastLanePathHandler = (request: Request, path: string, url: string) => PreparedResponse | undefined

export class FastLane {
  private readonly handlers = new Map<string, FastLaneHandler>()
  private readonly missHandlers = new Map<string, FastLaneMissHandler>()
  private readonly prefixes: Array<[string, FastLanePathHandler]> = []

  /** `handler` answers from the cache only; `miss`, when given, loads what it did not hold. */
  register(path: string, handler: FastLaneHandler, miss?: FastLaneMissHandler): void {
    this.handlers.set(path, handler)
    if (miss) this.missHandlers.set(path, miss)
  }

  /** For paths that carry a parameter (`/badge/<slug>.svg`): the handler gets the path too. */
  registerPrefix(prefix: string, handler: FastLanePathHandler): void {
    this.prefixes.push([prefix, handler])
  }

  /** The prepared answer when a registered handler has one ready; otherwise undefined. `url` and `path` when the caller has them already. */
  answer(request: Request, url = request.url, path = requestPath(url)): PreparedResponse | undefined {
    if (request.method !== 'GET') return undefined
    const exact = this.handlers.get(path)
    if (exact) return exact(request, url)
    for (const [prefix, handler] of this.prefixes) if (path.startsWith(prefix)) return handler(request, path, url)
    return undefined
  }

  /** A GET on a path with a miss reader: its answer (usually a Promise), or undefined for the route to answer. */
  miss(request: Request, path = requestPath(request.url)): Response | Promise<Response> | undefined {
    if (request.method !== 'GET') return undefined
    return this.missHandlers.get(path)?.(request)
  }
}
