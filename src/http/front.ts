/**
 * The front door: the single entry for every request, from the socket (`fetch`) or in process
 * (`handle`, tests and tools). One pass, in this order:
 *
 * 1. the edge's Host check (a malformed or doubled Host is a 400 before anything reads the URL);
 * 2. host routing, once (the request's context keeps the answer for everyone after);
 * 3. a pre-encoded cache hit, answered here before rate limits (they protect the work behind the
 *    cache, which a hit does not reach): on the service host from its fast lane, asked once
 *    (requests with `auth_token` never take it: private embeds are never cached); on a status
 *    host from the status site's fast lane (public pages only; it calls the page-view hook as the
 *    route does). With the request log on, every request takes the full path so that each one is
 *    logged;
 * 4. the edge (rate limits, security headers, request log, worker id) around the right site:
 *    service host → private embeds, CORS-open paths, the fast lane (unless already asked), its
 *    miss readers (a cold hot read loads without the router; errors fall back to it), the
 *    service app; status host or custom domain → the status site; unknown host → its 404 page.
 *
 * Every error answer is `no-store`; with METRICS_TOKEN each request is counted once.
 */
import type { OperationsConfig } from '../config.ts'
import { createContext, type RequestContext } from './context.ts'
import { corsPreflight, withAnyOrigin } from './cors.ts'
import { PreparedAnswers, servePrepared, type PreparedResponse } from '../lib/http-cache.ts'
import { createEdge, type CachedAnswer } from './edge/edge.ts'
import { HSTS } from './edge/security-headers.ts'
import { noStoreOnError } from './errors.ts'
import type { FastLane } from './fast-lane.ts'
import type { HostRoute, HostRouter } from './host-router.ts'

type Handle = (request: Request) => Response | Promise<Response>
type SiteHandle = (request: Request, context: RequestContext) => Response | Promise<Response>

export interface FrontDeps {
  router: HostRouter
  fastLane: FastLane
  /** The service host's Elysia app. */
  serviceApp: Handle
  /** Service-host paths whose answers any site may read (their preflights are answered here). */
  isCorsOpenPath(path: string): boolean
  /** Embeds of private pages asked with `auth_token`: an answer, or undefined at once when not one. */
  privateEmbed(request: Request, context: RequestContext): Promise<Response | undefined> | undefined
  /** A status host's warm public read from the cache (prepared), or undefined (the full path answers). */
  statusSiteHit?: ((request: Request, route: Exclude<HostRoute, { kind: 'service' }>, context: RequestContext) => PreparedResponse | undefined) | undefined
  /** Status hosts, custom domains and unknown hosts. */
  statusSite(request: Request, route: Exclude<HostRoute, { kind: 'service' }>, context: RequestContext): Promise<Response>
  /** Counts requests (`/metrics`); absent when metrics are off. */
  meter?: { handle(handle: SiteHandle): SiteHandle; countHit(request: Request, context: RequestContext, hit: Response): void } | undefined
  operations: OperationsConfig
  serviceOrigin: string
  workerId?: number | undefined
  log?: (line: string) => void
  logError(error: unknown): void
  /** The 413 of a body past its path's limit (the web app's page for its forms); by default the JSON error. */
  tooLarge?: (request: Request, limitBytes: number) => Response
}

export interface Front {
  /** The server's entry: `peer` is the connection's address, or a function that reads it. */
  fetch(request: Request, peer: string | undefined | (() => string | undefined)): Response | Promise<Response>
  /** The same front door without a socket (tests, tools): never rate limited. */
  handle(request: Request): Response | Promise<Response>
  /** A pre-encoded cache hit for any host, or undefined (what the front door answers first). */
  answerFromCache(request: Request): Response | undefined
}

/** Without a socket there is no peer, so no proxy is ever trusted. */
const NO_PROXIES = new Set<string>()

export function createFront(deps: FrontDeps): Front {
  const { fastLane, meter, statusSiteHit } = deps
  // What the edge adds to every answer, baked into each cached answer's headers once (a cache hit
  // skips the edge). The rest of the security headers are in the prepared answers already.
  const baked: Record<string, string> = {}
  if (deps.serviceOrigin.startsWith('https:')) baked['strict-transport-security'] = HSTS
  if (deps.workerId !== undefined) baked['x-lantern-worker'] = String(deps.workerId)
  const answers = new PreparedAnswers(baked)
  /** A warm hit: the prepared answer looked up, its ETag compared, a Response around bytes and headers built once. */
  const fromCache: CachedAnswer = (request, context) => {
    const route = context.route
    let prepared: PreparedResponse | undefined
    if (route.kind !== 'service') {
      prepared = statusSiteHit?.(request, route, context)
    } else {
      const url = context.url
      if (url.includes('auth_token=')) return undefined
      context.fastLaneAsked = true
      prepared = fastLane.answer(request, url, context.path)
    }
    if (prepared === undefined) return undefined
    const hit = answers.serve(prepared, request.headers.get('if-none-match'))
    meter?.countHit(request, context, hit)
    // Prepared errors are no-store already (prepareWithoutEtag); the check stays for any other.
    return prepared.status < 400 ? hit : noStoreOnError(hit)
  }

  const serviceApp = (request: Request, context: RequestContext): Response | Promise<Response> => {
    const prepared = context.fastLaneAsked ? undefined : fastLane.answer(request, context.url, context.path)
    if (prepared) return servePrepared(prepared, request.headers.get('if-none-match'))
    // A cold hot read loads without the router; an unexpected error is left to the route, which
    // answers it (500, logged) as it answers every other.
    const loaded = fastLane.miss(request, context.path)
    if (loaded === undefined) return deps.serviceApp(request)
    return loaded instanceof Promise ? loaded.catch(() => deps.serviceApp(request)) : loaded
  }

  /** The service host: embeds are read from any site, so their preflights are answered and every answer opened. */
  const serviceHost = (request: Request, context: RequestContext): Response | Promise<Response> => {
    if (!deps.isCorsOpenPath(context.path)) return serviceApp(request, context)
    if (request.method === 'OPTIONS') return corsPreflight(request)
    const answer = serviceApp(request, context)
    return answer instanceof Promise ? answer.then(withAnyOrigin) : withAnyOrigin(answer)
  }

  // Embeds of private pages with `auth_token` first; everything else synchronously, as before.
  const service = (request: Request, context: RequestContext): Response | Promise<Response> => {
    const privately = deps.privateEmbed(request, context)
    if (!privately) return serviceHost(request, context)
    return privately.then(
      (response) => response ?? serviceHost(request, context),
      (error: unknown) => {
        deps.logError(error)
        return serviceHost(request, context)
      },
    )
  }

  const site: SiteHandle = (request, context) => {
    const route = context.route
    const result = route.kind === 'service' ? service(request, context) : deps.statusSite(request, route, context)
    return result instanceof Promise ? result.then(noStoreOnError) : noStoreOnError(result)
  }

  const edge = createEdge(meter ? meter.handle(site) : site, {
    operations: deps.operations,
    serviceOrigin: deps.serviceOrigin,
    router: deps.router,
    workerId: deps.workerId,
    log: deps.log,
    tooLarge: deps.tooLarge,
  })
  const cached = deps.operations.requestLog ? undefined : fromCache

  return {
    fetch: (request, peer) => edge(request, peer, cached),
    handle: (request) => edge(request, undefined, cached),
    answerFromCache: (request) => fromCache(request, createContext(request, deps.router, undefined, NO_PROXIES)),
  }
}
