/**
 * What the front door knows about one request, worked out at most once and handed down: the host
 * route, the path, and who the client is (resolved only when something asks: reading the socket's
 * peer address has a real cost, and most requests never need it). Kept beside the request in a
 * WeakMap, never in a header a client could forge.
 */
import { clientAddress, type ProxyTrust } from './edge/client-address.ts'
import { requestPath } from './fast-lane.ts'
import { urlHost, type HostRoute, type HostRouter } from './host-router.ts'

/** The connection's peer address, or a function that reads it from the socket. */
export type PeerAddress = string | undefined | (() => string | undefined)

export class RequestContext {
  private hostRoute: HostRoute | undefined
  private href: string | undefined
  private pathname: string | undefined
  private peerResolved = false
  private peerClient: string | undefined
  /** Whether the fast lane was already asked (and had no answer): the full path does not ask again. */
  fastLaneAsked = false

  constructor(
    readonly request: Request,
    private readonly router: HostRouter | undefined,
    private readonly peer: PeerAddress | RequestContext,
    private readonly trusted: ProxyTrust,
    /** The Host header when the edge read it already (it names the same host as the URL Bun built from it). */
    private readonly host?: string | null,
  ) {
    this.fromSocket = peer instanceof RequestContext ? peer.fromSocket : peer !== undefined
  }

  /** False for requests handed to the app in process (tests, tools): there is no socket. */
  readonly fromSocket: boolean

  /** Which site the request is for (host routing happens here, once). Needs the router. */
  get route(): HostRoute {
    this.hostRoute ??= this.router!.route(this.host || urlHost(this.url))
    return this.hostRoute
  }

  /** `request.url`, read once: Bun builds a new string on every read. */
  get url(): string {
    this.href ??= this.request.url
    return this.href
  }

  get path(): string {
    this.pathname ??= requestPath(this.url)
    return this.pathname
  }

  /**
   * The client as the connection says (the peer, or what a trusted proxy forwarded); undefined
   * without a socket. Rate limits use this one: requests made in process are never limited.
   */
  get socketClient(): string | undefined {
    if (!this.peerResolved) {
      if (this.peer instanceof RequestContext) {
        this.peerClient = this.peer.socketClient
        this.peerResolved = true
        return this.peerClient
      }
      const peer = typeof this.peer === 'function' ? this.peer() : this.peer
      this.peerClient = clientAddress(peer, this.request.headers.get('x-forwarded-for'), this.trusted)
      this.peerResolved = true
    }
    return this.peerClient
  }

  /**
   * Key of the client for the features that limit or count clients (private-page gate, login
   * throttle, page views). Without a socket the last `X-Forwarded-For` hop stands in, so tests can
   * play several clients.
   */
  get client(): string {
    if (this.fromSocket) return this.socketClient ?? 'unknown'
    return forwardedClient(this.request)
  }
}

const contexts = new WeakMap<Request, RequestContext>()

/**
 * The context for a request at the front door. A request that already passed an outer edge (a test
 * wrapping `app.handle` in its own edge) keeps the client that edge resolved.
 */
export function createContext(request: Request, router: HostRouter | undefined, peer: PeerAddress, trusted: ProxyTrust, host?: string | null): RequestContext {
  const outer = peer === undefined ? contexts.get(request) : undefined
  return new RequestContext(request, router, outer ?? peer, trusted, host)
}

/** Hands the context down to the features that ask for it by request (`clientKey`); cache hits never need it. */
export function attachContext(context: RequestContext): void {
  contexts.set(context.request, context)
}

function forwardedClient(request: Request): string {
  const forwarded = request.headers.get('x-forwarded-for')?.split(',').pop()?.trim()
  return forwarded ? forwarded.slice(0, 64) : 'unknown'
}

/** The client a request comes from, as the front door resolved it (see RequestContext.client). */
export function clientKey(request: Request): string {
  return contexts.get(request)?.client ?? forwardedClient(request)
}
