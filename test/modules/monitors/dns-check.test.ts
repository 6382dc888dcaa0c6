/** DNS checks against an in-process dns2 UDP server on 127.0.0.1. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { parseResolver } from '../../../src/modules/monitors/kinds/dns.ts'
import { runCheck } from '../../../src/modules/monitors/kinds/index.ts'
import type { DnsSpec } from '../../../src/modules/monitors/kinds/spec.ts'
import { startDnsServer, testDeps, type TestDnsServer } from './fixtures.ts'

// One TXT record in two character-strings (255 + 100 bytes), as long SPF and DKIM records come.
const LONG_TXT = ['v=spf1 ' + 'a'.repeat(248), 'b'.repeat(100)]
let server: TestDnsServer
let slow: TestDnsServer

beforeAll(async () => {
  const zone = {
    'example.test': [
      { type: 'A' as const, address: '192.0.2.10' },
      { type: 'A' as const, address: '192.0.2.11' },
      { type: 'AAAA' as const, address: '2001:db8::10' },
      { type: 'MX' as const, exchange: 'mail.example.test', priority: 10 },
      { type: 'TXT' as const, data: ['hello world'] },
      { type: 'TXT' as const, data: LONG_TXT },
    ],
    'www.example.test': [{ type: 'CNAME' as const, domain: 'example.test' }],
    'empty.example.test': [],
  }
  server = await startDnsServer(zone)
  slow = await startDnsServer(zone, { delayMs: 400 })
})
afterAll(async () => {
  await Promise.all([server.close(), slow.close()])
})

const dns = (extra: Partial<DnsSpec>): DnsSpec => ({ type: 'dns', name: 'example.test', recordType: 'A', timeoutMs: 1_000, resolver: server.address, ...extra })
const open = () => testDeps({ allowPrivate: true })

describe('DNS checks', () => {
  test('A: any answer is ok without expectations; the answers are listed', async () => {
    const result = await runCheck(dns({}), open())
    expect(result).toMatchObject({ outcome: 'ok', message: 'A example.test: 192.0.2.10, 192.0.2.11' })
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(0)
  })

  test('expected values must all be in the answer', async () => {
    expect((await runCheck(dns({ expected: ['192.0.2.11'] }), open())).outcome).toBe('ok')
    expect(await runCheck(dns({ expected: ['192.0.2.11', '192.0.2.99'] }), open())).toMatchObject({ outcome: 'fail', message: 'A example.test: expected 192.0.2.99, got 192.0.2.10, 192.0.2.11' })
  })

  test('AAAA compares canonical addresses', async () => {
    expect((await runCheck(dns({ recordType: 'AAAA', expected: ['2001:DB8:0::10'] }), open())).outcome).toBe('ok')
  })

  test('CNAME and MX compare names without case or trailing dot; MX with or without priority', async () => {
    expect((await runCheck(dns({ name: 'www.example.test', recordType: 'CNAME', expected: ['Example.Test.'] }), open())).outcome).toBe('ok')
    expect((await runCheck(dns({ recordType: 'MX', expected: ['mail.example.test'] }), open())).outcome).toBe('ok')
    expect((await runCheck(dns({ recordType: 'MX', expected: ['10 mail.example.test'] }), open())).outcome).toBe('ok')
    expect((await runCheck(dns({ recordType: 'MX', expected: ['20 mail.example.test'] }), open())).outcome).toBe('fail')
  })

  test('TXT: a record split into 255-byte pieces is one value again (the Bun node:dns pitfall)', async () => {
    expect((await runCheck(dns({ recordType: 'TXT', expected: [LONG_TXT.join(''), 'hello world'] }), open())).outcome).toBe('ok')
    expect((await runCheck(dns({ recordType: 'TXT', expected: [LONG_TXT[0]!] }), open())).outcome).toBe('fail')
  })

  test('NXDOMAIN and an empty answer fail', async () => {
    expect(await runCheck(dns({ name: 'missing.example.test' }), open())).toMatchObject({ outcome: 'fail', message: 'A missing.example.test: the name does not exist in DNS (NXDOMAIN)' })
    expect(await runCheck(dns({ name: 'empty.example.test' }), open())).toMatchObject({ outcome: 'fail', message: 'A empty.example.test: no A records' })
  })

  test('a slow resolver times out at the deadline; degraded past the threshold', async () => {
    const started = performance.now()
    expect(await runCheck(dns({ resolver: slow.address, timeoutMs: 150 }), open())).toMatchObject({ outcome: 'fail', message: 'A example.test: timed out after 150 ms' })
    expect(performance.now() - started).toBeLessThan(380)
    expect(await runCheck(dns({ resolver: slow.address, timeoutMs: 3_000, degradedAfterMs: 200 }), open())).toMatchObject({ outcome: 'degraded' })
  })

  test('a resolver named in the spec goes through the guard; the instance resolvers do not', async () => {
    expect(await runCheck(dns({}), testDeps({ allowPrivate: false }))).toMatchObject({ outcome: 'misconfigured', message: `resolver 127.0.0.1 is a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it). Fix: edit the monitor's settings.` })
    const instance = testDeps({ allowPrivate: false, dnsServers: [server.address] })
    expect((await runCheck(dns({ resolver: null }), instance)).outcome).toBe('ok')
    expect(await runCheck(dns({ resolver: null }), testDeps({ allowPrivate: false }))).toMatchObject({ outcome: 'misconfigured', message: expect.stringMatching(/^no DNS resolver configured\. Fix: give the instance a DNS resolver/) })
  })
})

describe('parseResolver', () => {
  const TABLE: Array<[string, { address: string; port: number } | undefined]> = [
    ['9.9.9.9', { address: '9.9.9.9', port: 53 }],
    ['127.0.0.1:5353', { address: '127.0.0.1', port: 5353 }],
    ['2620:fe::fe', { address: '2620:fe::fe', port: 53 }],
    ['[2620:fe::fe]:853', { address: '2620:fe::fe', port: 853 }],
    ['dns.example', undefined],
    ['2130706433', undefined],
    ['1.2.3.4:0', undefined],
    ['1.2.3.4:70000', undefined],
  ]
  for (const [input, expected] of TABLE) test(input, () => expect(parseResolver(input)).toEqual(expected))
})
