/**
 * What the status site's entry (site-entry.ts) knows about a request it hands to the status-site app: the page, the
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
