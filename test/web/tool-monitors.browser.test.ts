/**
 * SSL and DNSBL monitors in real Chromium: made through the type chooser and form, run by the real
 * scheduler and engine against a local TLS server (throwaway PKI) and a local DNS server, and their
 * reports read on the detail screen as text; a free owner sees the paid-plan note instead of the
 * chain; axe light+dark and 320/1280 layouts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { DAY_MS } from '../../src/lib/time.ts'
import { runMonitor } from '../../src/modules/monitors/run/index.ts'
import { checkA11y, checkLayouts, type WebApp, startWebApp } from '../helpers/webapp.ts'
import { startDnsServer, testDeps, type TestDnsServer } from '../modules/monitors/fixtures.ts'
import { schedulerFor } from '../modules/monitors/scheduling.ts'
import { makeChainPki, startTlsServer, type ChainPki, type Listening } from '../modules/monitors/tool-fixtures.ts'

const HOST = 'screen-ssl.test'
let app: WebApp
let pki: ChainPki
let tls: Listening
let dns: TestDnsServer

beforeAll(async () => {
  pki = makeChainPki(HOST)
  tls = await startTlsServer(pki.valid.cert + pki.intermediate, pki.valid.key)
  dns = await startDnsServer({ '99.2.0.192.bl.test': [{ type: 'A', address: '127.0.0.2' }], '99.2.0.192.err.test': [{ type: 'A', address: '127.255.255.254' }] })
  app = await startWebApp({ now: pki.valid.notAfter - 20.5 * DAY_MS })
  app.page.setDefaultTimeout(15_000)
})
afterAll(async () => {
  await app.close()
  await Promise.all([tls.close(), dns.close()])
})

/** The real scheduler and engine, with a resolver that knows HOST, the test root trusted and the local DNS server. */
function scheduler() {
  const ctx = app.server.ctx
  const deps = testDeps({ allowPrivate: ['127.0.0.1/32'], names: { [HOST]: ['127.0.0.1'] }, clock: ctx.clock, trustedCa: pki.root, dnsServers: [dns.address] })
  return schedulerFor(ctx, { run: (spec, policy, sleep) => runMonitor(spec, deps, policy, sleep) })
}

async function runDue(hours: number) {
  const s = scheduler()
  app.server.ctx.clock.advance(hours * 3_600_000)
  await s.tick()
  await s.settle()
}

async function create(page: Page, typeLabel: string, fill: (page: Page) => Promise<void>): Promise<number> {
  await page.goto(`${app.base}/user/monitors/new`)
  await page.getByRole('link', { name: typeLabel, exact: true }).click()
  await page.waitForURL(/\/user\/monitors\/new\?type=/)
  await fill(page)
  await page.getByRole('button', { name: 'Create monitor' }).click()
  await page.waitForURL(/\/user\/monitors\/\d+$/, { timeout: 10_000 }).catch(async (error) => {
    throw new Error(`not created: ${(await page.locator('main').innerText()).slice(0, 600)}`, { cause: error })
  })
  return Number(/\/user\/monitors\/(\d+)/.exec(page.url())![1])
}

describe('tool monitors in the browser', () => {
  test('an SSL monitor shows its certificate report with the chain (paid plan)', async () => {
    const page = app.page
    const id = await create(page, 'SSL certificate health', async (p) => {
      await checkA11y(p)
      await p.getByLabel('Name', { exact: true }).fill('Shop certificate')
      await p.getByLabel('Target', { exact: true }).fill(`${HOST}:${tls.port}`)
    })
    expect(await page.getByText('No report yet: the first check has not finished.').isVisible()).toBe(true)
    await runDue(6)
    await page.goto(`${app.base}/user/monitors/${id}`)
    const section = page.getByRole('region', { name: 'Certificate: Pass' })
    const text = await section.innerText()
    expect(text).toContain('(20 days left)')
    expect(text).toContain(`${HOST} (covers the host: yes)`)
    expect(text).toContain('EC 256 bits (prime256v1)')
    expect(text).toContain('complete: 3 certificates up to the root "Lantern Test Root"')
    expect(text).toContain('unavailable: Bun')
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'ssl-monitor-detail', ['Certificate: Pass', 'Recent results'])
  })

  test('a DNSBL monitor shows each zone: listed, and a zone error that is not a listing', async () => {
    const page = app.page
    const id = await create(page, 'DNS blocklists (DNSBL)', async (p) => {
      await p.getByLabel('Name', { exact: true }).fill('Mail IP')
      await p.getByLabel('Target', { exact: true }).fill('192.0.2.99')
      await p.getByLabel('Zones', { exact: true }).fill('bl.test\nerr.test\nclean.test')
      // A listing is a failed run: no retries, whose pauses only the test's timer would end.
      await p.getByText('Timing and confirmation').click()
      await p.getByLabel('Retries inside a run').fill('0')
    })
    await runDue(1)
    await page.goto(`${app.base}/user/monitors/${id}`)
    const table = await page.getByRole('table', { name: 'Each address in each zone' }).innerText()
    expect(table).toMatch(/bl\.test\s+Listed\s+127\.0\.0\.2/)
    expect(table).toMatch(/err\.test\s+Zone error \(no verdict\)/)
    expect(table).toMatch(/clean\.test\s+Not listed/)
    expect(await page.getByRole('heading', { name: 'Blocklists: Fail' }).isVisible()).toBe(true)
    await checkA11y(page)
  })

  test('a free owner sees the paid-plan note instead of the chain', async () => {
    const owner = await app.createOwner('free')
    const { context, page } = await app.loginAs(owner)
    try {
      const id = await create(page, 'SSL certificate health', async (p) => {
        await p.getByLabel('Name', { exact: true }).fill('Free certificate')
        await p.getByLabel('Target', { exact: true }).fill(`${HOST}:${tls.port}`)
      })
      await runDue(6)
      await page.goto(`${app.base}/user/monitors/${id}`)
      const text = await page.getByRole('region', { name: /^Certificate: / }).innerText()
      expect(text).toContain('Chain and OCSP stapling checks come with paid plans.')
      expect(text).not.toContain('Lantern Test Root')
    } finally {
      await context.close()
    }
  })
})
