/**
 * What the host dispatcher knows about a request it hands to the public-pages app: the page, the
 * original request and the client. Kept beside the rewritten request (a WeakMap), never in a
 * header a client could forge.
 */
import type { Site } from './service.ts'

export interface PublicRequestContext {
  site: Site
  /** The request as it arrived (real host and scheme). */
  original: Request
  /** `scheme://host[:port]` the visitor used. */
  origin: string
  /** Key of the client for rate limits. */
  client: string
}

const contexts = new WeakMap<Request, PublicRequestContext>()

export function setPublicContext(request: Request, context: PublicRequestContext): void {
  contexts.set(request, context)
}

export function publicContext(request: Request): PublicRequestContext | undefined {
  return contexts.get(request)
}

const peers = new WeakMap<Request, string>()

/** The server edge records the socket address of each request here (`main.ts`). */
export function rememberPeerAddress(request: Request, address: string | undefined): void {
  if (address) peers.set(request, address)
}

const PROXY_PEER = /^(?:127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|::1$|::ffff:127\.|f[cd][0-9a-f]{2}:)/i

/**
 * The client a request comes from. A peer on loopback or a private network is taken for a
 * reverse proxy (Caddy on the same machine or in the same Docker network), and the address it
 * appended to `X-Forwarded-For` (the last one) is used; anyone else is their own socket address.
 */
export function clientKey(request: Request): string {
  const peer = peers.get(request)
  if (peer === undefined || PROXY_PEER.test(peer)) {
    const forwarded = request.headers.get('x-forwarded-for')
    const last = forwarded?.split(',').pop()?.trim()
    if (last) return last.slice(0, 64)
  }
  return peer ?? 'unknown'
}
