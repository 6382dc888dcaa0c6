/**
 * Which site a request is for, from its Host alone (pure, no I/O):
 *
 * - `service`: the service host (BASE_URL's host), or an IP address literal (health checks and
 *   local tools talk to the process by address);
 * - `status`: `<slug>.<STATUS_DOMAIN>`, one DNS label in front of the status domain;
 * - `custom`: any other well-formed host name: it may be the custom domain of a page (the caller
 *   looks it up);
 * - `unknown`: anything else (malformed, nested labels under the status domain, the status domain
 *   itself): answered with a plain 404 page.
 *
 * Ports never matter (a proxy may or may not keep them), letters are compared in lower case, a
 * trailing dot (the fully qualified form) is ignored and IDN hosts are compared in punycode.
 */
import { isDnsName, isIpLiteral, normalizeHost } from '../lib/host.ts'
import { slugForLookup } from '../modules/status-pages/slug.ts'

export type HostRoute =
  | { kind: 'service' }
  | { kind: 'status'; slug: string; host: string }
  | { kind: 'custom'; host: string }
  | { kind: 'unknown' }

export interface HostRouterConfig {
  /** BASE_URL, e.g. `https://lantern.example.com`. */
  baseUrl: string
  /** STATUS_DOMAIN, a host with an optional port, e.g. `status.example.com`. */
  statusDomain: string
}

export interface HostRouter {
  route(hostHeader: string | null | undefined): HostRoute
}

export function createHostRouter(config: HostRouterConfig): HostRouter {
  const serviceHost = normalizeHost(new URL(config.baseUrl).host)
  const statusDomain = normalizeHost(config.statusDomain)
  if (!serviceHost || !statusDomain) throw new Error('BASE_URL and STATUS_DOMAIN must be host names')
  const statusSuffix = `.${statusDomain}`
  // The route is a pure function of the Host header, and a server sees few distinct ones: keep the
  // answers (bounded; forgotten wholesale when full, so made-up hosts cannot grow it).
  const known = new Map<string, HostRoute>()
  const route = (hostHeader: string | null | undefined): HostRoute => {
    if (!hostHeader) return decide(hostHeader)
    let answer = known.get(hostHeader)
    if (answer === undefined) {
      answer = decide(hostHeader)
      if (known.size >= 1000) known.clear()
      known.set(hostHeader, answer)
    }
    return answer
  }
  function decide(hostHeader: string | null | undefined): HostRoute {
    const host = normalizeHost(hostHeader)
    // No Host at all (HTTP/1.0 tools): the service answers, as it does for bare addresses.
    if (host === undefined) return hostHeader ? { kind: 'unknown' } : { kind: 'service' }
    if (host === serviceHost || isIpLiteral(host)) return { kind: 'service' }
    if (host.endsWith(statusSuffix)) {
      const label = host.slice(0, -statusSuffix.length)
      const slug = label.includes('.') ? undefined : slugForLookup(label)
      return slug ? { kind: 'status', slug, host } : { kind: 'unknown' }
    }
    if (host === statusDomain) return { kind: 'unknown' }
    return isDnsName(host) ? { kind: 'custom', host } : { kind: 'unknown' }
  }
  return { route }
}

/**
 * The host of a request as the server saw it: Bun builds `request.url` from the Host header, and
 * requests made in tests carry the host in their URL.
 */
export function requestHost(request: Request): string {
  return urlHost(request.url)
}

/** The authority of an absolute URL string, without building a URL object. */
export function urlHost(url: string): string {
  const start = url.indexOf('//') + 2
  let end = url.indexOf('/', start)
  if (end === -1) end = url.length
  return url.slice(start, end)
}
