/** Email-authentication checks against a local dns2 zone (no network): every rule of the brief. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { emailAuthReport, runEmailAuthCheck } from '../../../src/modules/monitors/kinds/email-auth/check.ts'
import { createDnsResolve, type DnsResolve } from '../../../src/lib/dns/resolve.ts'
import { parseResolver } from '../../../src/modules/monitors/kinds/dns.ts'
import { testDeps } from '../monitors/fixtures.ts'
import { dkimRecord, emailAuthZone, startZoneServer, type ZoneServer } from './zone.ts'

let server: ZoneServer
let resolve: DnsResolve
const keys = { k2048: dkimRecord(2048), k1024: dkimRecord(1024), k512: dkimRecord(512) }

beforeAll(async () => {
  server = await startZoneServer(emailAuthZone(keys))
  resolve = createDnsResolve({ servers: [parseResolver(server.address)!], tryTimeoutMs: 500 })
})
afterAll(() => server.close())

const report = (domain: string, selectors: string[] = []) => emailAuthReport(domain, selectors, resolve, 2_000)

describe('SPF', () => {
  test('one record ending in -all with a mx term passes and counts its lookups', async () => {
    const { spf } = await report('good.test')
    expect(spf).toMatchObject({ status: 'pass', lookups: 1, records: ['v=spf1 ip4:192.0.2.0/24 mx -all'] })
  })

  test('11 nested includes fail with too many DNS lookups; exactly 10 pass', async () => {
    const deep = await report('deep.test')
    expect(deep.spf.status).toBe('fail')
    expect(deep.spf.reason).toContain('more than 10 DNS lookups')
    const ten = await report('ten.test')
    expect(ten.spf).toMatchObject({ status: 'pass', lookups: 10 })
  })

  test('+all fails, ?all (or no all) warns', async () => {
    expect((await report('plusall.test')).spf).toMatchObject({ status: 'fail' })
    expect((await report('plusall.test')).spf.reason).toContain('+all')
    const neutral = await report('neutral.test')
    expect(neutral.spf.status).toBe('warning')
    expect(neutral.spf.reason).toContain('?all')
  })

  test('two SPF records fail; other TXT records are not counted', async () => {
    const { spf } = await report('two.test')
    expect(spf.status).toBe('fail')
    expect(spf.reason).toContain('2 SPF records')
  })

  test('a syntax error fails with the reason; no record is missing', async () => {
    const syntax = await report('syntax.test')
    expect(syntax.spf.status).toBe('fail')
    expect(syntax.spf.reason).toStartWith('invalid:')
    expect((await report('nothing.test')).spf).toMatchObject({ status: 'missing' })
  })
})

describe('DKIM', () => {
  test('a 2048-bit key split into 255-byte strings is one valid key (the Bun TXT pitfall)', async () => {
    expect(keys.k2048.length).toBeGreaterThan(1)
    expect(keys.k2048[0]!.length).toBe(255)
    const { dkim } = await report('good.test', ['s2048'])
    expect(dkim).toMatchObject({ status: 'pass', selectors: [{ selector: 's2048', status: 'pass', bits: 2048, keyType: 'rsa' }] })
  })

  test('a 1024-bit key warns, a 512-bit key fails, a revoked or absent one says so', async () => {
    const { dkim } = await report('good.test', ['s1024', 's512', 'revoked', 'nope'])
    const by = Object.fromEntries(dkim.selectors.map((s) => [s.selector, s]))
    expect(by.s1024).toMatchObject({ status: 'warning', bits: 1024 })
    expect(by.s512).toMatchObject({ status: 'fail', bits: 512 })
    expect(by.revoked!.status).toBe('fail')
    expect(by.revoked!.reason).toContain('revoked')
    expect(by.nope!.status).toBe('missing')
    expect(dkim.status).toBe('fail')
  })

  test('without selectors: _domainkey present warns, absent is missing, unless the domain sends no mail', async () => {
    expect((await report('good.test')).dkim.status).toBe('warning')
    expect((await report('none.test')).dkim.status).toBe('missing')
    expect((await report('parked.test')).dkim).toMatchObject({ status: 'pass' })
  })
})

describe('DMARC', () => {
  test('p=reject with an internal rua passes', async () => {
    expect((await report('good.test')).dmarc).toMatchObject({ status: 'pass', policy: 'reject' })
  })

  test('p=none warns', async () => {
    const { dmarc } = await report('none.test')
    expect(dmarc).toMatchObject({ status: 'warning', policy: 'none' })
    expect(dmarc.reason).toContain('p=none')
  })

  test('an external rua with its authorisation record passes; without it, it is flagged', async () => {
    const ext = await report('ext.test')
    expect(ext.dmarc.status).toBe('pass')
    expect(ext.dmarc.reporting).toContainEqual({ uri: 'mailto:agg@reports.example', kind: 'rua', external: true, authorised: true })
    expect(ext.dmarc.reporting).toContainEqual({ uri: 'mailto:f@ext.test', kind: 'ruf', external: false, authorised: null })
    const noauth = await report('noauth.test')
    expect(noauth.dmarc.status).toBe('warning')
    expect(noauth.dmarc.reason).toContain('noauth.test._report._dmarc.reports.example')
  })

  test('a subdomain inherits the organizational policy (sp)', async () => {
    expect((await report('sub.org.test')).dmarc).toMatchObject({ status: 'pass', policy: 'quarantine', recordDomain: 'org.test' })
  })

  test('no record is missing', async () => {
    expect((await report('plusall.test')).dmarc.status).toBe('missing')
  })
})

describe('transient DNS failures', () => {
  test('SERVFAIL twice is retried and the answer counts', async () => {
    server.servfail('flaky.test', 2)
    server.servfail('_dmarc.flaky.test', 2)
    const result = await report('flaky.test')
    expect(result.spf.status).toBe('pass')
    expect(result.dmarc.status).toBe('pass')
  })

  test('SERVFAIL past the retries is reported as a DNS error, not as a verdict', async () => {
    server.servfail('broken.test', 3)
    const result = await report('broken.test')
    expect(result.spf.status).toBe('error')
  })
})

describe('as a monitor check', () => {
  const deps = () => ({ ...testDeps({ allowPrivate: true }), dnsServers: [server.address] })

  test('all pass is ok; a warning is degraded; a fail is fail, with each part in the message', async () => {
    const ok = await runEmailAuthCheck({ type: 'email_auth', domain: 'good.test', selectors: ['s2048'], timeoutMs: 2_000 }, deps())
    expect(ok).toMatchObject({ outcome: 'ok', message: 'SPF pass · DKIM pass · DMARC pass' })
    expect(ok.details?.summary).toBe('SPF pass, DKIM pass, DMARC pass')
    const degraded = await runEmailAuthCheck({ type: 'email_auth', domain: 'good.test', selectors: ['s1024'], timeoutMs: 2_000 }, deps())
    expect(degraded.outcome).toBe('degraded')
    expect(degraded.message).toContain('DKIM warning: s1024: RSA key of 1024 bits')
    const failed = await runEmailAuthCheck({ type: 'email_auth', domain: 'deep.test', timeoutMs: 2_000 }, deps())
    expect(failed.outcome).toBe('fail')
  })

  test('a resolver named by the owner goes through the guard', async () => {
    const guarded = { ...testDeps({ allowPrivate: false }), dnsServers: [server.address] }
    const refused = await runEmailAuthCheck({ type: 'email_auth', domain: 'good.test', timeoutMs: 2_000, resolver: server.address }, guarded)
    // The owner's setting is refused, not the domain: misconfigured, never a failure of the domain.
    expect(refused.outcome).toBe('misconfigured')
    expect(refused.message).toStartWith('resolver 127.0.0.1 is a loopback address')
    expect(refused.message).toContain("Fix: edit the monitor's settings.")
  })
})
