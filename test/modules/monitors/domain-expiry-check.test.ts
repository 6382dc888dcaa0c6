/** Domain expiry over RDAP against a local RDAP server (Bun.serve), the bootstrap overridden, an injected clock. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DAY_MS } from '../../../src/lib/time.ts'
import { runCheck, validateSpec, type DomainExpirySpec } from '../../../src/modules/monitors/kinds/index.ts'
import { bootstrapLoader, parseBootstrap, rdapBaseFor, refreshBootstrap, SHIPPED_BOOTSTRAP } from '../../../src/modules/monitors/kinds/rdap/bootstrap.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { testDeps } from './fixtures.ts'

const NOW = Date.UTC(2026, 10, 28, 12)
/** The registrations the local registry knows: domain → expiry. */
const REGISTRATIONS: Record<string, string | null> = {
  'far.test': new Date(NOW + 200 * DAY_MS).toISOString(),
  'month.test': new Date(NOW + 29 * DAY_MS).toISOString(),
  'fortnight.test': new Date(NOW + 13 * DAY_MS + 3_600_000).toISOString(),
  'week.test': new Date(NOW + 6 * DAY_MS).toISOString(),
  'gone.test': new Date(NOW - DAY_MS).toISOString(),
  'noexpiry.test': null,
  'xn--bcher-kva.test': new Date(NOW + 100 * DAY_MS).toISOString(),
}
const requests: string[] = []
let registry: ReturnType<typeof Bun.serve>
let redirector: ReturnType<typeof Bun.serve>

beforeAll(() => {
  registry = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url)
      requests.push(`${request.headers.get('host')} ${url.pathname} ${request.headers.get('accept')}`)
      if (url.pathname === '/bootstrap.json') return Response.json({ description: 'test', publication: '2026-11-20T00:00:00Z', services: [[['test'], ['https://rdap.example/']]], version: '1.0' })
      if (url.pathname === '/broken.json') return new Response('<html>', { status: 200 })
      const match = /^\/rdap\/domain\/(.+)$/.exec(url.pathname)
      const domain = match ? decodeURIComponent(match[1]!) : ''
      if (!(domain in REGISTRATIONS)) return Response.json({ errorCode: 404, title: 'Not Found' }, { status: 404, headers: { 'content-type': 'application/rdap+json' } })
      const expiry = REGISTRATIONS[domain]
      const events = [{ eventAction: 'registration', eventDate: '2020-01-01T00:00:00Z' }, ...(expiry ? [{ eventAction: 'expiration', eventDate: expiry }] : [])]
      const entities = [{ objectClassName: 'entity', roles: ['registrar'], vcardArray: ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', 'Example Registrar, Inc.']]] }]
      return Response.json({ objectClassName: 'domain', ldhName: domain, events, entities }, { headers: { 'content-type': 'application/rdap+json' } })
    },
  })
  redirector = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => Response.redirect(`http://registry.test:${registry.port}/rdap${new URL(request.url).pathname}`, 302) })
})
afterAll(async () => {
  await registry.stop(true)
  await redirector.stop(true)
})

const names = { 'registry.test': ['127.0.0.1'], 'other-registry.test': ['127.0.0.1'] }
const bootstrap = () =>
  parseBootstrap({
    publication: '2026-11-20T00:00:00Z',
    services: [
      [['test'], [`http://registry.test:${registry.port}/rdap/`]],
      [['redirect'], [`http://other-registry.test:${redirector.port}/`]],
    ],
  })

function deps(options: { allowPrivate?: boolean | string[] } = {}) {
  const clock = new ManualClock(NOW)
  const base = testDeps({ allowPrivate: options.allowPrivate ?? ['127.0.0.1/32'], names, clock })
  return { ...base, clock, rdapBootstrap: async () => bootstrap() }
}
const spec = (domain: string): DomainExpirySpec => ({ type: 'domain_expiry', domain, timeoutMs: 2_000 })

describe('domain expiry over RDAP', () => {
  test('far from expiry: ok, with the date, days left and registrar, asked through the guard for RDAP JSON', async () => {
    const d = deps()
    requests.length = 0
    const result = await runCheck(spec('Far.Test.'), d)
    expect(result).toMatchObject({ outcome: 'ok', statusCode: 200, message: `far.test expires in 200 days (${new Date(NOW + 200 * DAY_MS).toISOString().slice(0, 10)})` })
    expect(result.details).toMatchObject({ daysLeft: 200, registrar: 'Example Registrar, Inc.', rdapServer: `registry.test:${registry.port}` })
    expect(d.lookups).toEqual(['registry.test'])
    expect(requests).toEqual([`registry.test:${registry.port} /rdap/domain/far.test application/rdap+json, application/json`])
  })

  test('warns (degraded) under 30, 14 and 7 days, naming the threshold crossed', async () => {
    const d = deps()
    expect(await runCheck(spec('month.test'), d)).toMatchObject({ outcome: 'degraded', message: expect.stringContaining('expires in 29 days') })
    expect((await runCheck(spec('month.test'), d)).message).toContain('under 30 days')
    expect((await runCheck(spec('fortnight.test'), d)).message).toContain('expires in 13 days')
    expect((await runCheck(spec('fortnight.test'), d)).message).toContain('under 14 days')
    expect(await runCheck(spec('week.test'), d)).toMatchObject({ outcome: 'degraded', message: expect.stringContaining('under 7 days') })
  })

  test('the clock decides: the same registration is ok, then warned, then failed once expired', async () => {
    const d = deps()
    expect((await runCheck(spec('far.test'), d)).outcome).toBe('ok')
    d.clock.advance(171 * DAY_MS)
    expect(await runCheck(spec('far.test'), d)).toMatchObject({ outcome: 'degraded', message: expect.stringContaining('under 30 days') })
    d.clock.advance(30 * DAY_MS)
    expect(await runCheck(spec('far.test'), d)).toMatchObject({ outcome: 'fail', message: expect.stringMatching(/^far\.test expired on \d{4}-\d\d-\d\d$/) })
  })

  test('an expired registration fails; an unknown one fails with the registry’s 404', async () => {
    expect(await runCheck(spec('gone.test'), deps())).toMatchObject({ outcome: 'fail', message: expect.stringContaining('gone.test expired on') })
    expect(await runCheck(spec('nobody.test'), deps())).toMatchObject({ outcome: 'fail', statusCode: 404, message: expect.stringContaining('has no registration for nobody.test') })
  })

  test('an answer without an expiration event is misconfigured, not down', async () => {
    const result = await runCheck(spec('noexpiry.test'), deps())
    expect(result.outcome).toBe('misconfigured')
    expect(result.message).toContain('has no expiration date')
  })

  test('a TLD without an RDAP service is misconfigured, with the reason and the fix', async () => {
    const result = await runCheck(spec('example.nordap'), deps())
    expect(result.outcome).toBe('misconfigured')
    expect(result.message).toContain(".nordap has no RDAP service in IANA's bootstrap data (published 2026-11-20)")
    expect(result.message).toContain('lantern rdap-refresh')
  })

  test('internationalized names are asked in their ASCII form', async () => {
    expect(await runCheck(spec('bücher.test'), deps())).toMatchObject({ outcome: 'ok', message: expect.stringContaining('xn--bcher-kva.test expires in 100 days') })
  })

  test('redirects are followed, each hop through the guard', async () => {
    const d = deps()
    REGISTRATIONS['moved.redirect'] = new Date(NOW + 50 * DAY_MS).toISOString()
    expect(await runCheck(spec('moved.redirect'), d)).toMatchObject({ outcome: 'ok', message: expect.stringContaining('expires in 50 days') })
    expect(d.lookups).toEqual(['other-registry.test', 'registry.test'])
  })

  test('the RDAP server’s address goes through the guard: loopback refused without the setting', async () => {
    const result = await runCheck(spec('far.test'), deps({ allowPrivate: false }))
    expect(result.outcome).toBe('misconfigured')
    expect(result.message).toContain('loopback')
  })

  test('validation names the target', () => {
    const d = deps()
    expect(validateSpec(spec('not a domain'), d.guard)).toEqual([{ field: 'domain', message: 'must be a registered domain name, e.g. example.com' }])
    expect(validateSpec(spec('localhost'), d.guard).length).toBe(1)
    expect(validateSpec(spec('127.0.0.1'), d.guard).length).toBe(1)
    expect(validateSpec(spec('https://example.com/'), d.guard).length).toBe(1)
    expect(validateSpec(spec('example.co.uk'), d.guard)).toEqual([])
  })
})

describe('RDAP bootstrap data', () => {
  test('the shipped file names the common TLDs, and knows .de has no RDAP service in it', () => {
    expect(rdapBaseFor(SHIPPED_BOOTSTRAP, 'example.com')).toBe('https://rdap.verisign.com/com/v1/')
    expect(rdapBaseFor(SHIPPED_BOOTSTRAP, 'example.dev')).toBe('https://pubapi.registry.google/rdap/')
    expect(rdapBaseFor(SHIPPED_BOOTSTRAP, 'example.co.uk')).toBe('https://rdap.nominet.uk/uk/')
    for (const tld of ['net', 'org', 'io', 'app', 'fr', 'nl']) expect(rdapBaseFor(SHIPPED_BOOTSTRAP, `example.${tld}`)).toStartWith('https://')
    expect(rdapBaseFor(SHIPPED_BOOTSTRAP, 'example.de')).toBeNull()
    expect(SHIPPED_BOOTSTRAP.publication).toMatch(/^\d{4}-\d\d-\d\dT/)
  })

  test('a refresh stores the fetched file whole, and the loader prefers it; a bad file changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-rdap-'))
    try {
      const path = join(dir, 'sub', 'rdap-dns.json')
      const stored = await refreshBootstrap(path, { url: `http://127.0.0.1:${registry.port}/bootstrap.json` })
      expect(stored.publication).toBe('2026-11-20T00:00:00Z')
      expect(JSON.parse(readFileSync(path, 'utf8')).services).toEqual([[['test'], ['https://rdap.example/']]])
      const clock = new ManualClock(NOW)
      const load = bootstrapLoader(path, () => clock.now())
      expect(rdapBaseFor(await load(), 'x.test')).toBe('https://rdap.example/')
      await expect(refreshBootstrap(path, { url: `http://127.0.0.1:${registry.port}/broken.json` })).rejects.toThrow()
      expect(JSON.parse(readFileSync(path, 'utf8')).publication).toBe('2026-11-20T00:00:00Z')
      // No stored file: the shipped copy.
      expect(rdapBaseFor(await bootstrapLoader(join(dir, 'missing.json'), () => NOW)(), 'example.com')).toBe('https://rdap.verisign.com/com/v1/')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
