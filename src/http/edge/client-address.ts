/**
 * Who is asking: the peer address of the connection, or, when the peer is one of our trusted
 * proxies, the right-most address in X-Forwarded-For that is not a trusted proxy (entries further
 * left can be written by the client itself).
 */
import { ipValue, normalizeIp } from '../../lib/ip.ts'

/** Whether a (canonical) address is one of the trusted proxies. A Set of addresses is one too. */
export interface ProxyTrust {
  has(address: string): boolean
}

/** Matches the canonical TRUST_PROXY entries of the configuration: addresses and `network/prefix` ranges. */
export function trustedProxyMatcher(entries: readonly string[]): ProxyTrust {
  const exact = new Set<string>()
  const ranges: Array<{ bits: 32 | 128; network: bigint; hostBits: bigint }> = []
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/')
    if (prefix === undefined) {
      exact.add(address)
      continue
    }
    const { bits, value } = ipValue(address)
    ranges.push({ bits, network: value, hostBits: BigInt(bits - Number(prefix)) })
  }
  return {
    has(address) {
      if (exact.has(address)) return true
      if (ranges.length === 0) return false
      const ip = normalizeIp(address)
      if (ip === undefined) return false
      const { bits, value } = ipValue(ip)
      return ranges.some((range) => range.bits === bits && value >> range.hostBits === range.network >> range.hostBits)
    },
  }
}

export function clientAddress(peer: string | undefined, forwardedFor: string | null, trusted: ProxyTrust): string | undefined {
  const direct = peer === undefined ? undefined : (normalizeIp(peer) ?? peer)
  if (direct === undefined || !trusted.has(direct) || !forwardedFor) return direct
  const hops = forwardedFor.split(',').map((hop) => normalizeIp(hop))
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]
    if (hop === undefined) return direct // a malformed hop: believe nothing further left
    if (!trusted.has(hop)) return hop
  }
  return hops[0] ?? direct
}

export function isLoopback(address: string | undefined): boolean {
  return address !== undefined && (address === '::1' || /^127\./.test(address))
}
