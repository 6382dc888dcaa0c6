/**
 * Who is asking: the peer address of the connection, or, when the peer is one of our trusted
 * proxies, the right-most address in X-Forwarded-For that is not a trusted proxy (entries further
 * left can be written by the client itself).
 */
import { normalizeIp } from './config.ts'

export function clientAddress(peer: string | undefined, forwardedFor: string | null, trusted: ReadonlySet<string>): string | undefined {
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
