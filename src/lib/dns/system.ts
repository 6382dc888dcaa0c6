/** The system's name resolution for the address guard, and its DNS servers (edge: node:dns). */
import { getServers } from 'node:dns'
import { lookup } from 'node:dns/promises'

/** Every A and AAAA address of `host`, as the operating system resolves it. */
export async function systemResolve(host: string): Promise<string[]> {
  const found = await lookup(host, { all: true, verbatim: true })
  return found.map((entry) => entry.address)
}

/** The resolvers in /etc/resolv.conf (or the platform's equivalent), as "ip" or "[v6]:port" text. */
export function systemDnsServers(): string[] {
  return getServers()
}
