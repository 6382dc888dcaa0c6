/**
 * The email-authentication test zone, served by an in-process dns2 server on 127.0.0.1: SPF with
 * 10 and 11 nested includes, +all, two SPF records, DMARC p=none, an external rua with and without
 * its authorisation record, DKIM keys of 2048 bits (split into 255-byte strings) and 1024 and 512
 * bits, and names that answer SERVFAIL a set number of times before they answer.
 */
import { generateKeyPairSync } from 'node:crypto'
import DNS from 'dns2'
import type { DnsAnswer } from '../monitors/fixtures.ts'

/** A DKIM TXT record for a fresh RSA key, cut into 255-byte character-strings as DNS carries it. */
export function dkimRecord(bits: number): string[] {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits })
  const text = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`
  const pieces: string[] = []
  for (let i = 0; i < text.length; i += 255) pieces.push(text.slice(i, i + 255))
  return pieces
}

const txt = (...records: Array<string | string[]>): DnsAnswer[] => records.map((r) => ({ type: 'TXT' as const, data: Array.isArray(r) ? r : [r] }))

function includeChain(domain: string, depth: number): Record<string, DnsAnswer[]> {
  const zone: Record<string, DnsAnswer[]> = { [domain]: txt(`v=spf1 include:i1.${domain} -all`) }
  for (let i = 1; i <= depth; i++) zone[`i${i}.${domain}`] = txt(i < depth ? `v=spf1 include:i${i + 1}.${domain} -all` : 'v=spf1 ip4:192.0.2.200 -all')
  return zone
}

export function emailAuthZone(keys: { k2048: string[]; k1024: string[]; k512: string[] }): Record<string, DnsAnswer[]> {
  return {
    // Everything right: one record ending -all, DKIM 2048 (split), DMARC reject with internal rua.
    'good.test': [...txt('v=spf1 ip4:192.0.2.0/24 mx -all'), { type: 'MX', exchange: 'mx.good.test', priority: 10 }, { type: 'A', address: '192.0.2.25' }],
    'mx.good.test': [{ type: 'A', address: '192.0.2.25' }],
    '_dmarc.good.test': txt('v=DMARC1; p=reject; rua=mailto:dmarc@good.test'),
    's2048._domainkey.good.test': txt(keys.k2048),
    's1024._domainkey.good.test': txt(keys.k1024),
    's512._domainkey.good.test': txt(keys.k512),
    'revoked._domainkey.good.test': txt('v=DKIM1; k=rsa; p='),
    '_domainkey.good.test': [],
    // 11 nested includes: one more DNS lookup than RFC 7208 allows; 10 is exactly the limit.
    ...includeChain('deep.test', 11),
    ...includeChain('ten.test', 10),
    '_dmarc.deep.test': txt('v=DMARC1; p=reject; rua=mailto:d@deep.test'),
    '_dmarc.ten.test': txt('v=DMARC1; p=reject; rua=mailto:d@ten.test'),
    'plusall.test': txt('v=spf1 +all'),
    'neutral.test': txt('v=spf1 ip4:192.0.2.1'),
    'two.test': txt('v=spf1 -all', 'v=spf1 ip4:192.0.2.1 -all', 'google-site-verification=abc'),
    'syntax.test': txt('v=spf1 ip4:not-an-address -all'),
    // DMARC p=none; reports to an external host with and without its authorisation record.
    'none.test': txt('v=spf1 -all'),
    '_dmarc.none.test': txt('v=DMARC1; p=none; rua=mailto:agg@none.test'),
    'ext.test': txt('v=spf1 -all'),
    '_dmarc.ext.test': txt('v=DMARC1; p=quarantine; rua=mailto:agg@reports.example; ruf=mailto:f@ext.test'),
    'ext.test._report._dmarc.reports.example': txt('v=DMARC1'),
    'noauth.test': txt('v=spf1 -all'),
    '_dmarc.noauth.test': txt('v=DMARC1; p=reject; rua=mailto:agg@reports.example'),
    // Inherits the organizational domain's policy (sp=quarantine).
    'sub.org.test': txt('v=spf1 -all'),
    '_dmarc.org.test': txt('v=DMARC1; p=reject; sp=quarantine; rua=mailto:d@org.test'),
    // Sends no mail: SPF -all, DMARC reject, no DKIM needed.
    'parked.test': txt('v=spf1 -all'),
    '_dmarc.parked.test': txt('v=DMARC1; p=reject; rua=mailto:d@parked.test'),
    'flaky.test': txt('v=spf1 -all'),
    '_dmarc.flaky.test': txt('v=DMARC1; p=reject; rua=mailto:d@flaky.test'),
    'broken.test': txt('v=spf1 -all'),
  }
}

export interface ZoneServer {
  /** "127.0.0.1:port" */
  address: string
  readonly queries: number
  /** Answers SERVFAIL to the next `times` queries of `name`. */
  servfail(name: string, times: number): void
  close(): Promise<void>
}

/** Like the monitors' test server, plus SERVFAIL on demand (unknown names: NXDOMAIN). */
export async function startZoneServer(zone: Record<string, DnsAnswer[]>): Promise<ZoneServer> {
  const { Packet } = DNS
  const failures = new Map<string, number>()
  const state = { queries: 0 }
  const server = DNS.createServer({
    udp: true,
    handle: (request, send) => {
      state.queries++
      const response = Packet.createResponseFromRequest(request)
      const [question] = request.questions
      const name = question!.name.toLowerCase()
      const left = failures.get(name) ?? 0
      if (left > 0) {
        failures.set(name, left - 1)
        response.header.rcode = Packet.RCODE.SERVFAIL
        return send(response)
      }
      const answers = zone[name]
      if (!answers) response.header.rcode = Packet.RCODE.NXDOMAIN
      for (const answer of answers ?? []) {
        const type = Packet.TYPE[answer.type]
        if (type !== question!.type) continue
        response.answers.push({ name: question!.name, class: Packet.CLASS.IN, ttl: 60, ...answer, type } as never)
      }
      send(response)
    },
  })
  const listening = await server.listen({ udp: { port: 0, address: '127.0.0.1' } })
  const port = (listening.udp as { port: number }).port
  return {
    address: `127.0.0.1:${port}`,
    get queries() {
      return state.queries
    },
    servfail: (name, times) => failures.set(name.toLowerCase(), times),
    close: () => server.close(),
  }
}
