/**
 * The Tools screens in real Chromium, through the browser only, against a local DNS zone: the nav
 * entry, a DKIM lookup with a split 2048-bit key and a 1024-bit one, the result and the recent
 * checks; form errors next to the field (markup stays text; a private SSL target refused by the
 * guard); an email-auth monitor made in the monitor screens; axe light+dark and 320/1280 layouts;
 * another owner's result → 404; a cross-origin POST → 403 and nothing kept.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp } from '../helpers/webapp.ts'
import { dkimRecord, emailAuthZone, startZoneServer, type ZoneServer } from '../modules/email-auth/zone.ts'
import { testDeps } from '../modules/monitors/fixtures.ts'
import { schedulerFor } from '../modules/monitors/scheduling.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'

let app: WebApp
let zone: ZoneServer

beforeAll(async () => {
  zone = await startZoneServer(emailAuthZone({ k2048: dkimRecord(2048), k1024: dkimRecord(1024), k512: dkimRecord(512) }))
  app = await startWebApp({ now: NOW, checkDeps: testDeps({ allowPrivate: false, dnsServers: [zone.address] }) })
})
afterAll(async () => {
  await app.close()
  await zone.close()
})

const services = () => app.server.ctx.app.services

describe('tools in the browser', () => {
  test('a DKIM lookup from the Tools nav: the result with each selector, then the recent checks', async () => {
    const page = app.page
    await page.goto(`${app.base}/user`)
    await page.getByRole('link', { name: 'Tools', exact: true }).click()
    await page.waitForURL(`${app.base}/user/tools`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'tools-index', ['Domain lookup tools', 'Recent checks', 'No lookups yet.'])

    await page.getByRole('link', { name: 'DKIM', exact: true }).click()
    await page.waitForURL(`${app.base}/user/tools/dkim`)
    await page.getByLabel('Target', { exact: true }).fill('good.test')
    await page.getByLabel('DKIM selectors').fill('s2048, s1024')
    await page.getByRole('button', { name: 'Look up' }).click()
    await page.waitForURL(/\/user\/tools\/checks\/\d+$/)
    expect(await page.getByRole('status').innerText()).toContain('Looked up.')
    expect(await page.getByRole('heading', { name: 'Selector s2048 Pass' }).isVisible()).toBe(true)
    expect(await page.getByRole('heading', { name: 'Selector s1024 Warning' }).isVisible()).toBe(true)
    expect(await page.getByText('rsa key, 2048 bits').isVisible()).toBe(true)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'tools-result', ['DKIM: s2048,s1024 @ good.test', 'Warning', 'RSA key of 1024 bits'])

    await page.getByRole('link', { name: 'SPF', exact: true }).click()
    await page.getByLabel('Target', { exact: true }).fill('deep.test')
    await page.getByRole('button', { name: 'Look up' }).click()
    await page.waitForURL(/\/user\/tools\/checks\/\d+$/)
    expect(await page.getByText('more than 10 DNS lookups').first().isVisible()).toBe(true)

    await page.goto(`${app.base}/user/tools`)
    const rows = page.getByRole('table', { name: 'Your recent lookups, newest first' }).getByRole('row')
    expect(await rows.count()).toBe(3)
    expect(await rows.nth(1).innerText()).toContain('deep.test')
    await checkLayouts(page, app.shots, 'tools-recent', ['deep.test', 's2048,s1024 @ good.test', 'Fail'])
  })

  test('errors stay next to the field: markup is text, a private SSL target is refused; nothing is kept', async () => {
    const page = app.page
    const before = (await services().lookupTools.recent(app.owner.user)).items.length
    await page.goto(`${app.base}/user/tools/spf`)
    await page.getByLabel('Target', { exact: true }).fill(MARKUP)
    await page.getByRole('button', { name: 'Look up' }).click()
    await page.waitForSelector('#f-target-error')
    expect(await page.locator('#f-target-error').innerText()).toContain('must be a domain name')
    expect(await page.getByLabel('Target', { exact: true }).inputValue()).toBe(MARKUP)
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()
    await checkA11y(page)

    await page.goto(`${app.base}/user/tools/ssl`)
    await page.getByLabel('Target', { exact: true }).fill('127.0.0.1:443')
    await page.getByRole('button', { name: 'Look up' }).click()
    await page.waitForSelector('#f-target-error')
    expect(await page.locator('#f-target-error').innerText()).toContain('Target cannot be checked: ')
    expect((await services().lookupTools.recent(app.owner.user)).items.length).toBe(before)
  })

  test('an email authentication monitor made in the monitor screens', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/monitors/new`)
    await page.getByRole('link', { name: 'Email authentication', exact: true }).click()
    await page.waitForURL(/type=email_auth/)
    await page.getByLabel('Name', { exact: true }).fill('Mail of good.test')
    await page.getByLabel('Target', { exact: true }).fill('good.test')
    await page.getByLabel('DKIM selectors').fill('s2048')
    await checkA11y(page)
    await page.getByRole('button', { name: 'Create monitor' }).click()
    await page.waitForURL(/\/user\/monitors\/\d+$/)
    const id = Number(/\/user\/monitors\/(\d+)$/.exec(page.url())![1])
    const monitor = await services().monitors.get(app.owner.user, id)
    expect(monitor.definition).toMatchObject({ type: 'email_auth', target: 'good.test', intervalSeconds: 21_600, options: { dkim_selectors: ['s2048'] } })

    // Its first run (the scheduler on the injected clock), then the report on the detail screen.
    app.server.ctx.clock.advance(21_600_000)
    const scheduler = schedulerFor(app.server.ctx)
    await scheduler.tick()
    await scheduler.settle()
    await page.reload()
    const report = page.getByRole('region', { name: 'Email authentication' })
    expect(await report.getByRole('heading', { name: 'DKIM selector s2048 Pass' }).isVisible()).toBe(true)
    expect(await report.getByRole('heading', { name: 'DMARC Pass' }).isVisible()).toBe(true)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'email-auth-monitor', ['Email authentication', 'SPF', 'DKIM selector s2048'])
  })

  test("another owner's result is 404; a cross-origin POST is 403 and keeps nothing", async () => {
    const mine = (await services().lookupTools.recent(app.owner.user)).items[0]!
    const other = await app.createOwner()
    const { context } = await app.loginAs(other)
    const cookie = await app.cookieOf(context)
    expect((await fetch(`${app.base}/user/tools/checks/${mine.id}`, { headers: { cookie } })).status).toBe(404)
    expect((await fetch(`${app.base}/user/tools/whois`, { headers: { cookie } })).status).toBe(404)
    await context.close()

    const own = await app.cookieOf(app.context)
    const before = (await services().lookupTools.recent(app.owner.user)).items.length
    for (const origin of [null, 'https://evil.example']) {
      expect((await postForm(app, '/user/tools/spf', { target: 'good.test' }, { cookie: own, origin })).status).toBe(403)
    }
    expect((await services().lookupTools.recent(app.owner.user)).items.length).toBe(before)
  })
})
