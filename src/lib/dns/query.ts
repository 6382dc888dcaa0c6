/**
 * One DNS question to one named server over UDP, through dns2's client (edge: UDP sockets). dns2
 * rather than `node:dns`: Bun's `node:dns` splits a long TXT record into one record per 255-byte
 * piece (oven-sh/bun#21370), and dns2 lets the caller name the server and its port.
 */
import type DNS from 'dns2'
import { abortable } from '../abortable.ts'
import type { ResolverAddress } from './servers.ts'

export type DnsPacket = DNS.Packet

let loaded: typeof DNS | undefined
/** dns2, loaded by the first DNS question (a DNS or email-authentication monitor, a lookup tool). */
const dns2 = (): typeof DNS => (loaded ??= require('dns2') as typeof DNS)

export interface QueryOptions {
  /** dns2's own deadline for the question (it closes its socket then). */
  timeoutMs: number
  /** Ends the wait early (the caller's deadline). */
  signal?: AbortSignal
  /** Ask again over TCP when the UDP answer is truncated (default true; IPv4 servers only). */
  tcpFallback?: boolean
}

/** The server's answer packet; throws on a timeout or a socket error, not on an error rcode. */
export function queryDns(server: ResolverAddress, name: string, type: string, options: QueryOptions): Promise<DnsPacket> {
  const query = dns2().UDPClient({
    dns: server.address,
    port: server.port,
    socketType: server.address.includes(':') ? 'udp6' : 'udp4',
    timeout: options.timeoutMs,
    // dns2's TCP fallback splits the server text on ":", which only works for IPv4.
    retryOverTCP: (options.tcpFallback ?? true) && !server.address.includes(':'),
  })
  return abortable(query(name, type as never), options.signal)
}

/** The record type's code in packets (undefined for a type dns2 does not know). */
export const dnsTypeCode = (type: string): number | undefined => (dns2().Packet.TYPE as Record<string, number>)[type]

/** The name of an error rcode ("NXDOMAIN", "SERVFAIL", …), or "rcode N". */
export const rcodeName = (rcode: number): string => Object.entries(dns2().Packet.RCODE).find(([, code]) => code === rcode)?.[0] ?? `rcode ${rcode}`
