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
