/**
 * Host names in canonical form (lower case, punycode per WHATWG, no port, no trailing dot), shared
 * by host routing (Host headers) and custom-domain validation.
 */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/

/** The URL parser's host name of `input` without a trailing dot (may be empty), or undefined when it does not parse. */
export function parseHostname(input: string): string | undefined {
  let hostname: string
  try {
    hostname = new URL(`http://${input}/`).hostname
  } catch {
    return undefined
  }
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname
}

/**
 * The host name of a Host header value in canonical form, or undefined when it is not a host at
 * all. IPv6 literals keep their brackets.
 */
export function normalizeHost(raw: string | null | undefined): string | undefined {
  if (raw === null || raw === undefined) return undefined
  const input = raw.trim()
  if (input.length === 0 || input.length > 300) return undefined
  // Anything that would make the URL parser read a path, credentials or another scheme.
  if (/[\s/\\?#@]/.test(input)) return undefined
  return parseHostname(input) || undefined
}

/** An IPv4 address or a bracketed IPv6 literal (as `normalizeHost` gives them). */
export const isIpLiteral = (host: string): boolean => host.startsWith('[') || IPV4.test(host)

/** A canonical host of at least two DNS labels, at most 253 characters. */
export function isDnsName(host: string): boolean {
  const labels = host.split('.')
  return labels.length >= 2 && host.length <= 253 && labels.every((label) => LABEL.test(label))
}

/**
 * RFC 3986 `host [":" port]` as a Host header may carry it: an IP literal in brackets or a
 * reg-name, and at most five port digits. A comma is refused although the grammar has it: no host
 * name holds one, and it is how a server joins two Host headers into one value.
 */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+;=%]+)(?::(\d{0,5}))?$/

export type HostHeaderVerdict = 'ok' | 'absent' | 'several' | 'malformed'

/**
 * What the Host header of a request from the wire says: `absent` (missing or empty, as HTTP/1.0
 * clients and authority-less targets send it), `several` (two headers joined by the server),
 * `malformed` (not a host the URL parser takes, or a port over 65535), or `ok`.
 */
export function judgeHostHeader(raw: string | null): HostHeaderVerdict {
  if (raw === null || raw.trim() === '') return 'absent'
  if (raw.includes(',')) return 'several'
  const match = HOST_HEADER.exec(raw)
  if (!match) return 'malformed'
  if (match[1] && Number(match[1]) > 65535) return 'malformed'
  return parseHostname(raw) ? 'ok' : 'malformed'
}
