/**
 * A custom domain is linked only once the server has seen it resolve to this instance: saving one
 * keeps every public link (snippets, status JSON `page_url` the widget links to, the v2 JSON,
 * the page's canonical address and feeds) on `<slug>.<STATUS_DOMAIN>` while it is
 * pending; "Check DNS" (API) and the scheduled sweep move it to verified, and the sweep notices a
 * domain that stops resolving here (failing: links go back). The page answers on the domain in
 * every state. Real app, real SQLite, DNS answers from an in-memory zone, a fixed clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ChangeFeed } from '../../../src/lib/change-feed.ts'
import { DOMAIN_RECHECK_MS, DomainVerifier } from '../../../src/modules/status-pages/domain-verifier.ts'
import { StatusPagesRepo } from '../../../src/modules/status-pages/repo.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { testZone } from '../../helpers/dns-zone.ts'

const API = '/user/api/v1/status-pages'
const DOMAIN = 'status.acme.example'
const DEFAULT = 'https://acme.status.test'
const CUSTOM = `https://${DOMAIN}`

const dns = testZone()
let ctx: TestContext
let owner: { key: string; user: { email: string } }
let pageId: number

beforeAll(async () => {
  ctx = await createTestContext({ dns })
  owner = await ctx.createOwner('growth')
  pageId = (await ctx.createPage(owner.key, { slug: 'acme', name: 'Acme' })).id
  await ctx.request(`${API}/${pageId}/components`, { method: 'POST', key: owner.key, json: { name: 'API' } })
  // The instance: the service host and the status hosts at one address.
  dns.hosts.set('lantern.test', ['198.51.100.7'])
  dns.hosts.set('acme.status.test', ['198.51.100.7'])
})
afterAll(() => ctx.close())

const page = async () => (await json(await ctx.request(`${API}/${pageId}`, { key: owner.key }))).data
const checkNow = () => ctx.request(`${API}/${pageId}/custom-domain/check`, { method: 'POST', key: owner.key })
const sweep = () => ctx.app.services.domainVerifier.sweep()

/** Every public link of the page, each read twice first so it is cached. */
async function publicLinks() {
  const read = async () => ({
    api: (await page()).url,
    snippets: (await json(await ctx.request('/api/embed/markdown?slug=acme'))).status_page_url,
    // What the widget links to.
    statusJson: (await json(await ctx.request('/api/embed/status?slug=acme&inc=1&rtm=60&upd=7'))).page_url,
    v2: (await json(await ctx.request(`${DEFAULT}/api/v2/summary.json`))).page.url,
    canonical: /<link rel="canonical" href="([^"]+)">/.exec(await (await ctx.request(`${DEFAULT}/`)).text())?.[1],
    rss: /<link>([^<]+)<\/link>/.exec(await (await ctx.request(`${DEFAULT}/history.rss`)).text())?.[1]?.replace(/\/$/, ''),
  })
  await read()
  return read()
}
const everywhere = (url: string) => ({ api: url, snippets: url, statusJson: url, v2: url, canonical: url, rss: url })

describe('custom domain verification', () => {
  test('saved: pending, every public link keeps the default address; the domain itself already serves the page', async () => {
    expect(await publicLinks()).toEqual(everywhere(DEFAULT))
    const saved = await ctx.request(`${API}/${pageId}`, { method: 'PATCH', key: owner.key, json: { custom_domain: DOMAIN } })
    expect(saved.status).toBe(200)
    const body = (await json(saved)).data
    expect(body.url).toBe(DEFAULT)
    expect(body.custom_domain).toBe(DOMAIN)
    expect(body.custom_domain_status).toEqual({ state: 'pending', checked_at: null, verified_at: null, reason: null })
    expect(await publicLinks()).toEqual(everywhere(DEFAULT))

    // The page answers on the domain (a first visit, Caddy's TLS ask), pointing search engines at the default address.
    const onDomain = await ctx.request(`${CUSTOM}/`)
    expect(onDomain.status).toBe(200)
    expect(await onDomain.text()).toContain(`<link rel="canonical" href="${DEFAULT}">`)
    expect((await ctx.request(`/api/tls/ask?domain=${DOMAIN}`)).status).toBe(200)
  })

  test('"Check DNS" while nothing points here: still pending, the reason and the time recorded', async () => {
    const checked = await checkNow()
    expect(checked.status).toBe(200)
    expect((await json(checked)).data.custom_domain_status).toEqual({
      state: 'pending',
      checked_at: new Date(ctx.clock.now()).toISOString(),
      verified_at: null,
      reason: `${DOMAIN} does not resolve yet (no CNAME, A or AAAA record). DNS changes can take a while to spread.`,
    })
    dns.hosts.set(DOMAIN, ['203.0.113.9'])
    expect((await json(await checkNow())).data.custom_domain_status.reason).toBe(`${DOMAIN} points elsewhere: 203.0.113.9.`)
    expect(await publicLinks()).toEqual(everywhere(DEFAULT))
  })

  test('the scheduled sweep verifies the domain once it resolves here, and every cached link follows at once', async () => {
    // Not due yet: checked a moment ago.
    expect(await sweep()).toBe(0)
    dns.hosts.set(DOMAIN, ['198.51.100.7'])
    ctx.clock.advance(DOMAIN_RECHECK_MS)
    expect(await sweep()).toBe(1)
    const status = (await page()).custom_domain_status
    expect(status.state).toBe('verified')
    expect(status.verified_at).toBe(new Date(ctx.clock.now()).toISOString())
    expect(status.reason).toBe(`${DOMAIN} reaches this instance (address 198.51.100.7).`)
    expect(await publicLinks()).toEqual(everywhere(CUSTOM))
    // Checked again only when due.
    expect(await sweep()).toBe(0)
  })

  test('a failed lookup changes nothing; a domain that stops resolving here is failing and links go back, until it returns', async () => {
    dns.timeouts.add(DOMAIN)
    ctx.clock.advance(DOMAIN_RECHECK_MS)
    expect(await sweep()).toBe(1)
    let status = (await page()).custom_domain_status
    expect(status.state).toBe('verified')
    expect(status.reason).toBe(`The DNS lookup of ${DOMAIN} failed (ETIMEOUT); the domain keeps its last state until the next check.`)
    expect(await publicLinks()).toEqual(everywhere(CUSTOM))

    dns.timeouts.delete(DOMAIN)
    dns.hosts.set(DOMAIN, ['203.0.113.66'])
    ctx.clock.advance(DOMAIN_RECHECK_MS)
    expect(await sweep()).toBe(1)
    status = (await page()).custom_domain_status
    expect(status.state).toBe('failing')
    expect(status.reason).toBe(`${DOMAIN} points elsewhere: 203.0.113.66.`)
    expect(await publicLinks()).toEqual(everywhere(DEFAULT))

    dns.hosts.delete(DOMAIN)
    dns.cnames.set(DOMAIN, ['acme.status.test'])
    expect((await json(await checkNow())).data.custom_domain_status.state).toBe('verified')
    expect(await publicLinks()).toEqual(everywhere(CUSTOM))
  })

  test('a plan without custom domains links the default address (the domain is not served then); links return with the plan', async () => {
    await ctx.app.services.accounts.setPlan(owner.user.email, 'free')
    expect((await page()).url).toBe(DEFAULT)
    await ctx.app.services.accounts.setPlan(owner.user.email, 'growth')
    expect(await publicLinks()).toEqual(everywhere(CUSTOM))
  })

  test('another domain starts over as pending; removing it clears the state', async () => {
    const changed = await ctx.request(`${API}/${pageId}`, { method: 'PATCH', key: owner.key, json: { custom_domain: 'status.acme-two.example' } })
    expect((await json(changed)).data.custom_domain_status).toEqual({ state: 'pending', checked_at: null, verified_at: null, reason: null })
    expect(await publicLinks()).toEqual(everywhere(DEFAULT))
    // Saving the same domain again changes nothing.
    const same = await ctx.request(`${API}/${pageId}`, { method: 'PATCH', key: owner.key, json: { custom_domain: 'STATUS.acme-two.example' } })
    expect((await json(same)).data.custom_domain_status.state).toBe('pending')
    const cleared = await ctx.request(`${API}/${pageId}`, { method: 'PATCH', key: owner.key, json: { custom_domain: null } })
    expect((await json(cleared)).data).toMatchObject({ custom_domain: null, custom_domain_status: null, url: DEFAULT })
  })

  test('"Check DNS" errors: no domain 400, someone else\'s page 404, a server without DNS 503', async () => {
    expect(await json(await checkNow())).toEqual({ error: 'the page has no custom domain' })
    const other = await ctx.createOwner('growth')
    expect((await ctx.request(`${API}/${pageId}/custom-domain/check`, { method: 'POST', key: other.key })).status).toBe(404)
    expect((await ctx.request(`${API}/999999/custom-domain/check`, { method: 'POST', key: owner.key })).status).toBe(404)
    expect((await ctx.request(`${API}/${pageId}/custom-domain/check`, { method: 'POST' })).status).toBe(401)

    const blind = await createTestContext()
    try {
      const someone = await blind.createOwner('growth')
      const id = (await blind.createPage(someone.key, { slug: 'blind', name: 'Blind', custom_domain: 'status.blind.example' })).id
      const answer = await blind.request(`${API}/${id}/custom-domain/check`, { method: 'POST', key: someone.key })
      expect(answer.status).toBe(503)
      expect(await json(answer)).toEqual({ error: 'the DNS check is not available on this server' })
      expect(await blind.app.services.domainVerifier.sweep()).toBe(0)
    } finally {
      await blind.close()
    }
  })
})

test('two servers sweeping the same database check each due domain once', async () => {
  const zone = testZone()
  const shared = await createTestContext({ dns: zone })
  try {
    const someone = await shared.createOwner('growth')
    for (let i = 0; i < 6; i++) await shared.createPage(someone.key, { slug: `twin-${i}`, name: `Twin ${i}`, custom_domain: `status.twin-${i}.example` })
    // A second server: its own services on the same database, the same clock.
    const second = new DomainVerifier({ repo: new StatusPagesRepo(shared.database.db), pages: shared.app.services.pages, resolver: zone, clock: shared.clock, changes: new ChangeFeed(), config: shared.config })
    const [a, b] = await Promise.all([shared.app.services.domainVerifier.sweep(), second.sweep()])
    expect(a + b).toBe(6)
    const domainLookups = zone.asked.filter((name) => name.startsWith('status.twin-'))
    // One CNAME and one address lookup per domain: nobody checked a domain twice.
    expect(domainLookups.length).toBe(12)
    expect(new Set(domainLookups).size).toBe(6)
    expect(await Promise.all([shared.app.services.domainVerifier.sweep(), second.sweep()])).toEqual([0, 0])
  } finally {
    await shared.close()
  }
})
