/** DNSBL monitors against a DNS server on 127.0.0.1 answering listings, NXDOMAIN and error codes. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createAddressGuard } from '../../../src/lib/address-guard.ts'
import { classifyDnsblAnswer, mapLimited } from '../../../src/modules/monitors/kinds/dnsbl.ts'
import { DEFAULT_DNSBL_ZONES, dnsblQueryName } from '../../../src/modules/monitors/kinds/dnsbl-zones.ts'
import { runCheck } from '../../../src/modules/monitors/kinds/index.ts'
import { runMonitor } from '../../../src/modules/monitors/run/index.ts'
import type { DnsblReport, DnsblSpec } from '../../../src/modules/monitors/kinds/spec.ts'
import { validateSpec } from '../../../src/modules/monitors/kinds/index.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { startDnsServer, type DnsAnswer, type TestDnsServer } from './fixtures.ts'
import { startSilentResolver } from './tool-fixtures.ts'

const LISTED = '192.0.2.99'
const CLEAN = '192.0.2.10'
const a = (address: string): DnsAnswer[] => [{ type: 'A', address }]
let dns: TestDnsServer
let slow: { address: string; close(): Promise<void> }

beforeAll(async () => {
  dns = await startDnsServer({
    // 192.0.2.99 is listed on one zone, refused (public resolver) on another, clean (NXDOMAIN) elsewhere.
    '99.2.0.192.listed.test': a('127.0.0.2'),
    '99.2.0.192.errors.test': a('127.255.255.254'),
    '99.2.0.192.rewrites.test': a('198.51.100.7'),
    '10.2.0.192.errors.test': a('127.255.255.255'),
    // A domain: two MX hosts and its own A.
    'mail.example.test': [{ type: 'MX', exchange: 'mx1.example.test', priority: 10 }, { type: 'MX', exchange: 'mx2.example.test', priority: 20 }],
    'mx1.example.test': a(LISTED),
    'mx2.example.test': a(CLEAN),
    'example.test': a(CLEAN),
  })
  slow = await startSilentResolver()
})
afterAll(async () => {
  await dns.close()
  await slow.close()
})

const spec = (target: string, zones: string[], extra: Partial<DnsblSpec> = {}): DnsblSpec => ({ type: 'dnsbl', target, zones, timeoutMs: 5_000, ...extra })
const deps = (server: { address: string } = dns) => ({ guard: createAddressGuard({ resolve: async () => [], allowPrivate: false }), clock: new ManualClock(), dnsServers: [server.address] })
const reportOf = (result: { report?: unknown }) => result.report as DnsblReport

describe('DNSBL monitor', () => {
  test('an IP listed on a zone (127.0.0.2) fails, naming the zone and code; NXDOMAIN is clear', async () => {
    const result = await runCheck(spec(LISTED, ['listed.test', 'clean.test']), deps())
    expect(result).toMatchObject({ outcome: 'fail', message: `${LISTED} is listed on listed.test (127.0.0.2)` })
    expect(reportOf(result).results).toEqual([
      { address: LISTED, zone: 'listed.test', status: 'listed', codes: ['127.0.0.2'], error: null },
      { address: LISTED, zone: 'clean.test', status: 'clear', codes: [], error: null },
    ])
  })

  test('127.255.255.254 is a zone error, never a listing: no false "listed"', async () => {
    const result = await runCheck(spec(LISTED, ['errors.test', 'clean.test']), deps())
    expect(result.outcome).toBe('degraded')
    expect(reportOf(result).verdict).toBe('warning')
    expect(reportOf(result).results[0]).toEqual({
      address: LISTED, zone: 'errors.test', status: 'error', codes: [],
      error: 'the zone answered 127.255.255.254, an error code (query through a public or open resolver), not a listing',
    })
    expect(reportOf(result).results.some((r) => r.status === 'listed')).toBe(false)
    // 127.255.255.255 (rate limit) and answers outside 127/8 (NXDOMAIN rewriting) alike.
    expect(reportOf(await runCheck(spec(CLEAN, ['errors.test']), deps())).results[0]!.status).toBe('error')
    expect(reportOf(await runCheck(spec(LISTED, ['rewrites.test']), deps())).results[0]).toMatchObject({ status: 'error', error: expect.stringContaining('outside 127.0.0.0/8') })
  })

  test('a clean IP on every zone passes', async () => {
    const result = await runCheck(spec(CLEAN, ['listed.test', 'clean.test']), deps())
    expect(result).toMatchObject({ outcome: 'ok', message: `${CLEAN}: not listed on any of 2 zones (1 address)`, details: { listed: 0, errors: 0 } })
  })

  test("a domain: its MX hosts' and its own addresses are each looked up", async () => {
    const result = await runCheck(spec('mail.example.test', ['listed.test']), deps())
    expect(reportOf(result).addresses).toEqual([{ address: LISTED, source: 'MX mx1.example.test' }, { address: CLEAN, source: 'MX mx2.example.test' }])
    expect(result).toMatchObject({ outcome: 'fail', message: `${LISTED} is listed on listed.test (127.0.0.2)` })
    const own = await runCheck(spec('example.test', ['listed.test']), deps())
    expect(reportOf(own).addresses).toEqual([{ address: CLEAN, source: 'A example.test' }])
    expect(await runCheck(spec('nothing.test', ['listed.test']), deps())).toMatchObject({ outcome: 'fail', message: 'nothing.test has no MX or A addresses to look up' })
  })

  test('a zone that does not answer in time is a zone error after the per-query timeout, not a listing', async () => {
    const started = performance.now()
    const result = await runCheck(spec(LISTED, ['listed.test'], { timeoutMs: 400 }), deps(slow))
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(result.outcome).not.toBe('ok')
    expect(reportOf(result)?.results.some((r) => r.status === 'listed') ?? false).toBe(false)
  })

  test('queries go to the instance resolver only', async () => {
    const before = dns.queries
    await runCheck(spec(LISTED, ['listed.test', 'clean.test', 'errors.test']), deps())
    expect(dns.queries - before).toBe(3)
    expect(await runCheck(spec(LISTED, ['listed.test']), { ...deps(), dnsServers: [] })).toMatchObject({ outcome: 'misconfigured', message: expect.stringMatching(/^no DNS resolver configured\. Fix: /) })
  })
})

describe('retries', () => {
  test('a listing is a verdict, not a transient failure: one attempt, no pause', async () => {
    const sleeps: number[] = []
    const result = await runMonitor(spec(LISTED, ['listed.test']), deps(), { retries: 2, retryDelayMs: 2_000 }, async (ms) => void sleeps.push(ms))
    expect(result).toMatchObject({ outcome: 'fail', attempts: 1 })
    expect(sleeps).toEqual([])
  })
})

describe('DNSBL parts', () => {
  test('query names: reversed octets, reversed IPv6 nibbles (RFC 5782)', () => {
    expect(dnsblQueryName('192.0.2.99', 'zen.example')).toBe('99.2.0.192.zen.example')
    expect(dnsblQueryName('2001:db8::1', 'bl.example')).toBe(`1.0.0.0.${'0.'.repeat(20)}8.b.d.0.1.0.0.2.bl.example`)
  })

  test('answer classification', () => {
    expect(classifyDnsblAnswer(3, [])).toEqual({ status: 'clear', codes: [], error: null })
    expect(classifyDnsblAnswer(0, [])).toEqual({ status: 'clear', codes: [], error: null })
    expect(classifyDnsblAnswer(0, ['127.0.0.4', '127.0.0.2'])).toEqual({ status: 'listed', codes: ['127.0.0.2', '127.0.0.4'], error: null })
    for (const code of ['127.255.255.252', '127.255.255.254', '127.255.255.255']) expect(classifyDnsblAnswer(0, ['127.0.0.2', code]).status).toBe('error')
    expect(classifyDnsblAnswer(2, [])).toMatchObject({ status: 'error', error: 'the zone answered SERVFAIL' })
  })

  test('bounded concurrency', async () => {
    let running = 0
    let peak = 0
    await mapLimited(Array.from({ length: 30 }, (_, i) => i), 10, async () => {
      peak = Math.max(peak, ++running)
      await Bun.sleep(1)
      running--
    })
    expect(peak).toBe(10)
  })

  test('the default zones are documented and need no key; validation refuses dead zones and bad targets', () => {
    expect(DEFAULT_DNSBL_ZONES.length).toBeGreaterThanOrEqual(8)
    expect(DEFAULT_DNSBL_ZONES.every((z) => z.why.length > 10 && !/spamhaus|barracuda|abusix/.test(z.zone))).toBe(true)
    const guard = createAddressGuard({ resolve: async () => [], allowPrivate: false })
    expect(validateSpec(spec('192.0.2.1', ['dnsbl.sorbs.net']), guard)).toEqual([{ field: 'zones', message: 'dnsbl.sorbs.net is decommissioned; it would report nothing or everything' }])
    expect(validateSpec(spec('1.2.3', []), guard)).toEqual([{ field: 'target', message: 'must be an IP address or a domain name' }])
    expect(validateSpec(spec('localhost', []), guard)).toEqual([{ field: 'target', message: 'must be an IP address or a domain name' }])
    expect(validateSpec(spec('2001:db8::1', ['a.example']), guard)).toEqual([])
  })
})
