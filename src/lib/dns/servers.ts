/** A DNS server named by address and port, as owners and resolv.conf write it. Pure. */
import { canonicalHost, isIpLiteral } from '../address-guard.ts'

export interface ResolverAddress {
  address: string
  port: number
}

/** Reads "ip", "ip:port" or "[v6]:port"; undefined when it is not an IP literal with a valid port. */
export function parseResolver(text: string): ResolverAddress | undefined {
  const raw = text.trim()
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(raw)
  const plain = /^([^:]+)(?::(\d{1,5}))?$/.exec(raw)
  const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : plain ? [plain[1]!, plain[2]] : raw.includes(':') ? [raw, undefined] : []
  if (host === undefined) return undefined
  // Only plain dotted quads and IPv6 text: "2130706433" is not a resolver anyone means.
  if (!host.includes(':') && !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) return undefined
  const address = canonicalHost(host)
  if (address === undefined || !isIpLiteral(address)) return undefined
  const portNumber = port === undefined ? 53 : Number(port)
  if (!Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535) return undefined
  return { address, port: portNumber }
}

/** The first of `servers` ("ip" or "ip:port" texts) that parses, e.g. the instance's own resolvers. */
export function firstResolver(servers: readonly string[] | undefined): ResolverAddress | undefined {
  return (servers ?? []).map(parseResolver).find((server) => server !== undefined)
}
