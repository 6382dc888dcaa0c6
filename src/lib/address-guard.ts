/**
 * The address guard for outbound monitor checks (SSRF defence).
 *
 * One rule: resolve a target's name ONCE, classify EVERY address it resolves to, refuse the lot if
 * any one is not allowed, and hand back one checked address that the caller connects to (so DNS
 * rebinding between the check and the connection is impossible). Callers re-run `check` on every
 * redirect hop.
 *
 * Classification (ipaddr.js's range table, kept up to date upstream, over hand-written prefixes):
 * - `unicast` (public) addresses are allowed;
 * - loopback, RFC 1918 private, link-local, IPv6 unique-local and carrier-grade NAT (100.64/10) are
 *   allowed only when the instance sets MONITOR_PRIVATE_TARGETS=1, or, narrower, only inside the
 *   networks it lists (MONITOR_PRIVATE_TARGETS=192.168.1.0/24,fd00::/8);
 * - every other range (unspecified 0.0.0.0 and ::, multicast, broadcast, reserved, benchmarking,
 *   documentation, discard, Teredo, site-local, IPv4-compatible ::a.b.c.d) is always refused;
 * - cloud metadata addresses are always refused, flag or not;
 * - IPv6 forms that carry an IPv4 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4
 *   2002::/16) are judged by the IPv4 address inside.
 * Host text is canonicalised by the WHATWG URL parser first, so `2130706433`, `0177.0.0.1`, `0x7f.1`
 * and `127.1` all mean 127.0.0.1 here exactly as they do to `fetch`.
 */
import ipaddr from 'ipaddr.js'
import { abortable } from './abortable.ts'
import { explainNetworkError } from './network-errors.ts'
import { withArticle } from './words.ts'

/** Returns every address `host` resolves to (A and AAAA), in the resolver's order. */
export type Resolve = (host: string) => Promise<string[]>

/** Always refused, even with MONITOR_PRIVATE_TARGETS=1: cloud instance metadata and host agents. */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OCI, DigitalOcean, OpenStack
  '169.254.170.2', // AWS ECS task metadata
  '168.63.129.16', // Azure wire server (a public address on purpose)
  '100.100.100.200', // Alibaba Cloud
  'fd00:ec2::254', // AWS over IPv6
  'fd20:ce::254', // GCP over IPv6
])
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata'])

/** Ranges that are someone's own network: allowed only with MONITOR_PRIVATE_TARGETS=1. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'linkLocal', 'uniqueLocal', 'carrierGradeNat'])

export type AddressVerdict = { allowed: true } | { allowed: false; why: string }

/** Which private addresses the instance allows: none, all, or those inside the listed networks. */
export type PrivateTargets = boolean | readonly string[]

/** Whether one IP address (any textual form ipaddr.js reads) may be the target of a check. */
export function classifyAddress(address: string, allowPrivate: PrivateTargets): AddressVerdict {
  const verdict = classify(address, allowPrivate)
  return verdict.allowed ? verdict : { allowed: false, why: verdict.why }
}

type Classified = { allowed: true } | { allowed: false; why: string; privateRange: boolean }

function classify(address: string, allowPrivate: PrivateTargets): Classified {
  const canonical = canonicalHost(address)
  if (canonical === undefined || !isIpLiteral(canonical)) return { allowed: false, why: 'not an IP address', privateRange: false }
  if (METADATA_ADDRESSES.has(canonical)) return { allowed: false, why: 'a cloud metadata address', privateRange: false }
  const ip = ipaddr.parse(canonical)
  if (ip.kind() === 'ipv6') {
    const inner = embeddedIpv4(ip as ipaddr.IPv6)
    if (inner === 'refuse') return { allowed: false, why: `an IPv6 address of the ${ip.range()} range`, privateRange: false }
    if (inner) {
      const verdict = classify(inner, allowPrivate)
      return verdict.allowed ? verdict : { ...verdict, why: `an IPv6 form of ${inner}, ${verdict.why}` }
    }
  }
  const range = ip.range()
  if (range === 'unicast') return { allowed: true }
  if (PRIVATE_RANGES.has(range)) {
    if (allowPrivate === true || (Array.isArray(allowPrivate) && allowPrivate.some((cidr) => inCidr(ip, cidr)))) return { allowed: true }
    const hint = Array.isArray(allowPrivate) ? 'outside the networks MONITOR_PRIVATE_TARGETS lists' : 'MONITOR_PRIVATE_TARGETS=1 allows it'
    return { allowed: false, why: `${withArticle(rangeName(range))} address (${hint})`, privateRange: true }
  }
  return { allowed: false, why: `${withArticle(rangeName(range))} address`, privateRange: false }
}

/** ipaddr.js's range names as people read them ("a link-local address", "an unspecified address"). */
const RANGE_NAMES: Record<string, string> = {
  linkLocal: 'link-local',
  uniqueLocal: 'unique local',
  carrierGradeNat: 'carrier-grade NAT',
  ipv4Mapped: 'IPv4-mapped',
  deprecatedSiteLocal: 'site-local',
  deprecatedOrchid: 'ORCHID',
  orchid2: 'ORCHIDv2',
  rfc6052: 'NAT64 (RFC 6052)',
  rfc6145: 'IPv4-translated (RFC 6145)',
  as112: 'AS112',
  as112v6: 'AS112',
  amt: 'AMT',
  segmentRouting: 'segment-routing',
  droneRemoteIdProtocolEntityTags: 'drone remote ID',
}
const rangeName = (range: string): string => RANGE_NAMES[range] ?? range

function inCidr(ip: ipaddr.IPv4 | ipaddr.IPv6, cidr: string): boolean {
  const [network, bits] = ipaddr.parseCIDR(cidr)
  return network.kind() === ip.kind() && ip.match(network as never, bits)
}

/** The IPv4 address an IPv6 form carries, 'refuse' for forms we do not unwrap, else undefined. */
function embeddedIpv4(ip: ipaddr.IPv6): string | 'refuse' | undefined {
  const p = ip.parts
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  const range = ip.range()
  if (range === 'ipv4Mapped') return v4(p[6]!, p[7]!)
  if (range === '6to4') return v4(p[1]!, p[2]!)
  if (range === 'rfc6052') {
    // The well-known NAT64 prefix 64:ff9b::/96 holds the address in the last 32 bits; the
    // local-use 64:ff9b:1::/48 has operator-chosen layouts we cannot read safely.
    return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? v4(p[6]!, p[7]!) : 'refuse'
  }
  if (range === 'rfc6145' || range === 'teredo') return 'refuse'
  // IPv4-compatible ::a.b.c.d (deprecated, ipaddr.js calls it unicast): nothing legitimate lives there.
  if (range === 'unicast' && p.slice(0, 6).every((part) => part === 0)) return 'refuse'
  return undefined
}

/**
 * The host as `fetch` would read it: lower-case, IPv4 in dotted-quad form (decimal, octal, hex and
 * short forms expanded), IPv6 compressed and without brackets. Undefined when it is no valid host.
 */
export function canonicalHost(host: string): string | undefined {
  const raw = host.trim()
  if (raw === '' || /[\s/?#@\\]/.test(raw)) return undefined
  const bracketed = raw.includes(':') && !raw.startsWith('[') ? `[${raw}]` : raw
  try {
    const hostname = new URL(`http://${bracketed}/`).hostname
    if (hostname === '') return undefined
    return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname
  } catch {
    return undefined
  }
}

/** True for a canonical IPv4 dotted quad or IPv6 address (as canonicalHost returns them). */
export function isIpLiteral(canonical: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(canonical) || (canonical.includes(':') && ipaddr.IPv6.isValid(canonical))
}

/**
 * Why the guard refused: `policy` (the address is one the instance does not reach: private without
 * MONITOR_PRIVATE_TARGETS, metadata, reserved), `invalid` (no valid host), `unresolved` (the name did
 * not resolve: the target's own DNS, not the configuration).
 */
export type RefusalKind = 'policy' | 'invalid' | 'unresolved'

/** A check refused by the guard; `message` is safe to show the monitor's owner. */
export class AddressRefused extends Error {
  override name = 'AddressRefused'
  constructor(
    message: string,
    readonly kind: RefusalKind = 'policy',
    /** The refused range was a private one, which MONITOR_PRIVATE_TARGETS can allow. */
    readonly privateRange = false,
  ) {
    super(message)
  }
}

export interface CheckedAddress {
  /** The canonical host name (or IP literal) as given. */
  host: string
  /** The address to connect to: every address the name resolved to was checked. */
  address: string
  family: 4 | 6
  /** Everything the name resolved to, all allowed. */
  addresses: string[]
}

export interface AddressGuard {
  readonly allowPrivate: PrivateTargets
  /**
   * Resolves `host` once and checks every address. Throws AddressRefused when the host is
   * invalid, resolves to nothing, or any address is refused. Connect to `address` only.
   */
  check(host: string, signal?: AbortSignal): Promise<CheckedAddress>
  /** Synchronous pre-check for forms (API validation): the refusal message for a literal or metadata name, else undefined. */
  refusesLiteral(host: string): string | undefined
}

export function createAddressGuard(options: { resolve: Resolve; allowPrivate: PrivateTargets }): AddressGuard {
  const { resolve, allowPrivate } = options

  /** Why a literal (or a metadata name) is refused, as the error check() throws; undefined when not refused here. */
  function literalRefusal(input: string): AddressRefused | undefined {
    const host = canonicalHost(input)
    if (host === undefined) return new AddressRefused(`"${clip(input)}" is not a valid host`, 'invalid')
    if (METADATA_NAMES.has(host.replace(/\.$/, ''))) return new AddressRefused(`${host} is a cloud metadata name`)
    if (!isIpLiteral(host)) return undefined
    const verdict = classify(host, allowPrivate)
    return verdict.allowed ? undefined : new AddressRefused(`${host} is ${verdict.why}`, 'policy', verdict.privateRange)
  }

  function refusesLiteral(input: string): string | undefined {
    return literalRefusal(input)?.message
  }

  async function check(input: string, signal?: AbortSignal): Promise<CheckedAddress> {
    const refusal = literalRefusal(input)
    if (refusal) throw refusal
    const host = canonicalHost(input)!
    let resolved: string[]
    if (isIpLiteral(host)) {
      resolved = [host]
    } else {
      try {
        resolved = await abortable(resolve(host), signal)
      } catch (error) {
        if (signal?.aborted) throw signal.reason
        throw new AddressRefused(`${host} did not resolve: ${explainNetworkError(error) ?? (error as { code?: string }).code ?? (error as Error).message}`, 'unresolved')
      }
    }
    const addresses = resolved.map((address) => canonicalHost(address) ?? address)
    if (addresses.length === 0) throw new AddressRefused(`${host} did not resolve to any address`, 'unresolved')
    for (const address of addresses) {
      const verdict = classify(address, allowPrivate)
      if (!verdict.allowed) throw new AddressRefused(`${host} resolves to ${address}, ${verdict.why}`, 'policy', verdict.privateRange)
    }
    // IPv4 first, as Node's `ipv4first`: a host with an unreachable AAAA still gets checked.
    const address = addresses.find((a) => !a.includes(':')) ?? addresses[0]!
    return { host, address, family: address.includes(':') ? 6 : 4, addresses }
  }

  return { allowPrivate, check, refusesLiteral }
}

/**
 * MONITOR_PRIVATE_TARGETS: unset, `0` or `false` refuses private targets; `1` or `true` allows them
 * all; a comma-separated list of networks (`192.168.1.0/24,10.0.0.5`) allows only those.
 */
export function readPrivateTargets(env: Record<string, string | undefined>): PrivateTargets {
  const raw = env.MONITOR_PRIVATE_TARGETS?.trim().toLowerCase() ?? ''
  if (raw === '' || raw === '0' || raw === 'false') return false
  if (raw === '1' || raw === 'true') return true
  const networks = raw.split(',').map((part) => part.trim())
  for (const network of networks) {
    const cidr = network.includes('/') ? network : `${network}/${network.includes(':') ? 128 : 32}`
    if (!ipaddr.IPv4.isValidCIDRFourPartDecimal(cidr) && !(cidr.includes(':') && ipaddr.IPv6.isValidCIDR(cidr))) throw new Error(`MONITOR_PRIVATE_TARGETS must be 1, 0 or a list of networks such as 192.168.1.0/24, got "${clip(network)}"`)
  }
  return networks.map((network) => (network.includes('/') ? network : `${network}/${network.includes(':') ? 128 : 32}`))
}

/** The address for a URL: IPv6 in brackets. */
export function urlHost(address: string): string {
  return address.includes(':') ? `[${address}]` : address
}

const clip = (text: string) => (text.length > 100 ? `${text.slice(0, 100)}…` : text)
