/**
 * DNS in one place. Two ways to ask, each for its callers:
 *   queryDns (query.ts)             one question to a named server over UDP (dns2): the dns and dnsbl
 *                                   monitors, and createDnsResolve (resolve.ts), which answers in
 *                                   node:dns's shape for email authentication and the lookup tools
 *   systemResolve / systemDnsServers (system.ts)   the operating system's resolution, for the
 *                                   address guard, and its resolvers (the instance's DNS servers)
 *   nodeDnsResolver (domain-resolver.ts)           CNAME and A/AAAA for the custom-domain check
 * Tests point the first at DNS servers on 127.0.0.1 and inject the others (createAddressGuard's
 * `resolve`, the app's `dns` option).
 */
export { nodeDnsResolver, type DnsResolver } from './domain-resolver.ts'
export { dnsTypeCode, queryDns, rcodeName, type DnsPacket, type QueryOptions } from './query.ts'
export { createDnsResolve, DnsError, dnsCode, memoizeResolve, TRANSIENT_CODES, type DnsResolve, type DnsResolveOptions } from './resolve.ts'
export { firstResolver, parseResolver, type ResolverAddress } from './servers.ts'
export { systemDnsServers, systemResolve } from './system.ts'
