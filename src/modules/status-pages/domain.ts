/**
 * Custom domains: a bare host name. Lower-case, IDN converted to punycode (the URL parser does it
 * per WHATWG), no scheme, port, path or credentials, not an IP address.
 */
import { badRequest } from '../../lib/errors.ts'
import { isDnsName, isIpLiteral, parseHostname } from '../../lib/host.ts'

export function parseCustomDomain(raw: string): string {
  const input = raw.trim()
  if (input.length === 0) throw badRequest('custom_domain must not be empty (use null to remove it)')
  if (input.length > 253) throw badRequest('custom_domain must be at most 253 characters')
  if (/[\s/\\?#@]/.test(input) || input.includes('://')) {
    throw badRequest('custom_domain must be a bare host name, without scheme, path or credentials')
  }
  if (input.includes(':') || input.startsWith('[')) {
    throw badRequest('custom_domain must be a host name without port (IP addresses are not allowed)')
  }
  const host = parseHostname(input)
  if (host === undefined) throw badRequest('custom_domain is not a valid host name')
  if (isIpLiteral(host)) throw badRequest('custom_domain must be a host name, not an IP address')
  const labels = host.split('.')
  if (labels.length < 2) throw badRequest('custom_domain must have at least two labels, e.g. status.example.com')
  if (!isDnsName(host)) {
    throw badRequest('custom_domain is not a valid host name')
  }
  if (/^\d+$/.test(labels[labels.length - 1]!)) throw badRequest('custom_domain must end in a top-level domain')
  return host
}

/** True when `host` is `domain` itself or a subdomain of it (both without port). */
export function isWithinDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`)
}
