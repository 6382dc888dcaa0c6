/**
 * Security headers added at the edge to every response that does not set its own.
 *
 * - all responses: `X-Content-Type-Options: nosniff`;
 * - HTML: a Content-Security-Policy (scripts and styles from this origin and the service origin,
 *   inline styles allowed, no inline scripts, no plugins, no <base>, forms only to us), a referrer
 *   policy, and framing: none on the service host (`frame-ancestors 'none'`, `X-Frame-Options:
 *   DENY`), anyone on status-page hosts (dashboards and intranets frame status pages);
 * - SVG (badges): a policy that forbids scripts when the file is opened on its own, with no
 *   frame-ancestors rule, so <img>, <object> and <iframe> embeds keep working anywhere;
 * - the widget script and JSON are not restricted: they are made to be used from other sites;
 * - with an https BASE_URL, every response (service host, status hosts, custom domains):
 *   `Strict-Transport-Security: max-age=31536000` (one year). No `includeSubDomains`: a custom
 *   domain's other hosts are its owner's, not ours, and each host we serve sends its own header.
 *   No `preload` either: that is a decision for whoever owns the domain. Browsers ignore the header
 *   on plain http responses, so sending it there is harmless.
 *
 * The API reference (`/swagger`) is served by Lantern itself under this same policy: no CDN.
 * A feature that needs another policy sets its own `Content-Security-Policy` header; it is kept.
 */
import { withHeader } from '../response.ts'

export interface SecurityContext {
  /** Origin of the service host, e.g. `https://status.example.com`. */
  serviceOrigin: string
  /** Whether the request is for the service host: the host router's answer when known. */
  onServiceHost?: boolean | undefined
}

/**
 * The policy of HTML pages. `extra` widens one page's images and frames (the branding preview frames
 * and shows the page's status host); every other page gets the bare policy.
 */
export function htmlPolicy(onServiceHost: boolean, serviceOrigin: string, extra: { imgSrc?: string; frameSrc?: string } = {}): string {
  const self = onServiceHost ? "'self'" : `'self' ${serviceOrigin}`
  return [
    "default-src 'self'",
    `script-src ${self}`,
    `style-src ${self} 'unsafe-inline'`,
    `img-src ${self} data:${extra.imgSrc ? ` ${extra.imgSrc}` : ''}`,
    `font-src ${self} data:`,
    `connect-src ${self}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    onServiceHost ? "frame-ancestors 'none'" : 'frame-ancestors *',
    ...(extra.frameSrc ? [`frame-src ${extra.frameSrc}`] : []),
  ].join('; ')
}

/** One year: long enough to cover a visitor's return visits, the common choice for HSTS. */
export const HSTS = 'max-age=31536000'

export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

/** Every answer says nosniff; the rest of the headers are then set on a response that takes them. */
const mutable = (response: Response): Response =>
  response.headers.has('x-content-type-options') ? response : withHeader(response, 'x-content-type-options', 'nosniff')

export function applySecurityHeaders(request: Request, response: Response, context: SecurityContext): Response {
  const out = mutable(response)
  const headers = out.headers
  if (context.serviceOrigin.startsWith('https:') && !headers.has('strict-transport-security')) headers.set('strict-transport-security', HSTS)
  const type = headers.get('content-type') ?? ''
  if (type.startsWith('text/html')) {
    let { onServiceHost } = context
    if (onServiceHost === undefined) {
      const url = new URL(request.url)
      onServiceHost = url.origin === context.serviceOrigin || url.host === new URL(context.serviceOrigin).host
    }
    if (!headers.has('content-security-policy')) headers.set('content-security-policy', htmlPolicy(onServiceHost, context.serviceOrigin))
    if (!headers.has('referrer-policy')) headers.set('referrer-policy', 'strict-origin-when-cross-origin')
    if (onServiceHost && !headers.has('x-frame-options')) headers.set('x-frame-options', 'DENY')
  } else if (type.startsWith('image/svg+xml') && !headers.has('content-security-policy')) {
    headers.set('content-security-policy', SVG_POLICY)
  }
  return out
}
