/**
 * Whether a browser request was sent by a page of this site: the one check against cross-site
 * request forgery, used by every cookie-authenticated write and every form that signs someone in.
 *
 * The whole origin counts (scheme, host and port). With an https BASE_URL, a page served over
 * plain http on the same host name (which anyone on the network path can forge) is another site.
 * The expected origin uses the public scheme from BASE_URL, not the request's URL: behind a TLS
 * proxy the app itself sees plain http.
 */

/** `same`: sent by one of the expected origins; `cross`: by anything else; `unknown`: the browser said nothing. */
export type Provenance = 'same' | 'cross' | 'unknown'

/**
 * Reads, in order: Origin; then (when Origin is absent or `null`) Referer; then the Fetch Metadata
 * header `Sec-Fetch-Site`, which no page script can set. Browsers send `Origin: null` on form posts
 * from pages with `Referrer-Policy: no-referrer`; Sec-Fetch-Site still tells those apart. A request
 * with none of the three (old clients, scripts) is `unknown`; `Origin: null` alone is `cross`.
 */
export function requestProvenance(request: Request, expectedOrigins: readonly string[]): Provenance {
  const origin = request.headers.get('origin')
  if (origin !== null && origin !== 'null') return isOneOf(origin, expectedOrigins) ? 'same' : 'cross'
  const referer = request.headers.get('referer')
  if (referer) return isOneOf(referer, expectedOrigins) ? 'same' : 'cross'
  const site = request.headers.get('sec-fetch-site')
  if (site) return site === 'same-origin' ? 'same' : 'cross'
  return origin === null ? 'unknown' : 'cross'
}

/** The origin visitors use for `host` (a Host header value, port kept): `scheme://host`, normalized. */
export function publicOrigin(scheme: 'http' | 'https' | 'http:' | 'https:', host: string): string | undefined {
  return originOf(`${scheme.replace(/:$/, '')}://${host}`)
}

function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin
    return origin === 'null' ? undefined : origin
  } catch {
    return undefined
  }
}

function isOneOf(claimed: string, expectedOrigins: readonly string[]): boolean {
  const origin = originOf(claimed)
  return origin !== undefined && expectedOrigins.some((expected) => originOf(expected) === origin)
}
