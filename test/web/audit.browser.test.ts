/**
 * The audit log screen in real Chromium: the owner opens it from the members screen and sees the
 * changes made through the API (who, action, object, page, address, client, changed fields) at
 * times in the chosen zone; filters by person, page, action and date narrow the table; "Older
 * entries" pages on; a change made on a screen is recorded too; "Download CSV" carries the same filters; a bad date is an error on the page;
 * markup in a label stays text; a viewer gets no link and a 403. Also a11y and layouts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { checkA11y, checkLayouts, startWebApp, type Owner, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 11, 7, 12, 0, 0)
const HOUR = 3_600_000

let app: WebApp
let pageId: number
let other: number

beforeAll(async () => {
  app = await startWebApp({ now: NOW - 5 * HOUR, plan: 'enterprise' })
  const { ctx } = app.server
  const api = (path: string, init: RequestInit & { json?: unknown }) => ctx.request(`/user/api/v1${path}`, { key: app.owner.key, headers: { 'user-agent': 'curl/8.5.0' }, ...init })
  const made = await api('/status-pages', { method: 'POST', json: { slug: 'audited-co', name: 'Audited Co' } })
  pageId = (await made.json()).data.id
  ctx.clock.set(NOW - 4 * HOUR)
  other = (await (await api('/status-pages', { method: 'POST', json: { slug: 'other-co', name: 'Other Co' } })).json()).data.id
  ctx.clock.set(NOW - 3 * HOUR)
  expect((await api(`/status-pages/${pageId}`, { method: 'PATCH', json: { name: 'Audited Co' } })).status).toBe(200)
  ctx.clock.set(NOW)
})
afterAll(async () => {
  await app.close()
})

const services = () => app.server.ctx.app.services
const rows = (page: WebApp['page']) => page.getByRole('table', { name: /Audit log of/ }).locator('tbody tr')

describe('the audit log screen', () => {
  test('the owner opens it from the members screen and reads who changed what, in the chosen zone', async () => {
    const { page, context } = app
    await context.addCookies([{ name: 'lantern_tz', value: 'Europe/Berlin', url: app.base }])
    await page.goto(`${app.base}/user/team`)
    await page.getByRole('link', { name: 'Audit log' }).click()
    await page.waitForURL(`${app.base}/user/team/audit`)
    expect(await page.locator('h1').textContent()).toMatch(/^Audit log of /)
    expect(await page.getByText('Entries are kept 365 days on this plan.').isVisible()).toBe(true)
    expect(await rows(page).count()).toBe(3)
    const newest = rows(page).first()
    expect(await newest.textContent()).toContain('status-pages.patch')
    expect(await newest.getByRole('cell', { name: 'name', exact: true }).isVisible()).toBe(true)
    expect(await newest.getByRole('cell', { name: 'Audited Co' }).isVisible()).toBe(true)
    expect(await newest.getByRole('cell', { name: `${app.owner.email} (API key test)`, exact: true }).isVisible()).toBe(true)
    // 09:00 UTC is 10:00 in Berlin in December.
    expect(await newest.locator('time').textContent()).toBe('7 Dec 2026, 10:00 GMT+1')
    expect(await newest.locator('time').getAttribute('datetime')).toBe(new Date(NOW - 3 * HOUR).toISOString())
    // The test's requests come without a peer address: "unknown"; the client is read from the User-Agent.
    expect(await newest.getByText('unknown').isVisible()).toBe(true)
    expect(await newest.getByText('curl').isVisible()).toBe(true)
    const csv = page.getByRole('link', { name: 'Download CSV' })
    expect(await csv.getAttribute('href')).toBe('/user/api/v1/team/audit.csv')
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'team-audit', ['Audit log of', 'Filter', 'Entries'])
  })

  test('filters narrow the table, and the CSV link carries them', async () => {
    const { page } = app
    await page.goto(`${app.base}/user/team/audit`)
    await page.getByLabel('Page', { exact: true }).selectOption({ label: 'Other Co' })
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.waitForURL(/page_id=/)
    // Creating a page names no page id in its route: filtered by the other page, nothing is left.
    expect(await page.getByText('No entries match these filters.').isVisible()).toBe(true)

    await page.goto(`${app.base}/user/team/audit`)
    await page.getByLabel('Page', { exact: true }).selectOption({ label: 'Audited Co' })
    await page.getByLabel('Person').selectOption({ label: app.owner.email })
    await page.getByLabel('Action').fill('status-pages.patch')
    await page.getByLabel('From').fill('2026-12-07')
    await page.getByLabel('To').fill('2026-12-07')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.waitForURL(/action=status-pages.patch/)
    expect(await rows(page).count()).toBe(1)
    const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')
    expect(href).toBe(`/user/api/v1/team/audit.csv?actor=${app.owner.user.userId}&page_id=${pageId}&action=status-pages.patch&from=2026-12-07&to=2026-12-07`)
    const download = await page.request.get(`${app.base}${href}`)
    expect(download.status()).toBe(200)
    expect(download.headers()['content-type']).toContain('text/csv')
    const lines = (await download.text()).trim().split('\r\n')
    expect(lines.length).toBe(2)
    expect(lines[1]).toContain(',status-pages.patch,')

    await page.goto(`${app.base}/user/team/audit?from=2026-12-08&to=2026-12-09`)
    expect(await page.getByText('No entries match these filters.').isVisible()).toBe(true)
    void other
  })

  test('a bad date is an error on the page, never a 500', async () => {
    const { page } = app
    const response = await page.goto(`${app.base}/user/team/audit?from=2026-02-30`)
    expect(response!.status()).toBe(400)
    expect(await page.getByText('from must be an RFC 3339 date-time or a date YYYY-MM-DD').first().isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'Download CSV' }).count()).toBe(0)
    const reversed = await page.goto(`${app.base}/user/team/audit?from=2026-12-08&to=2026-12-01`)
    expect(reversed!.status()).toBe(400)
    expect(await page.getByText('to must be after from').first().isVisible()).toBe(true)
  })

  test('"Older entries" pages on with the filters; markup in a label stays text', async () => {
    const { page } = app
    const acting = (await services().accounts.authenticateApiKey(app.owner.key))!
    const base = { owner: acting, address: '203.0.113.5', client: 'Firefox on Linux', params: {} }
    for (let i = 0; i < 55; i++) await services().audit.recordRequest({ ...base, method: 'POST', route: '/user/api/v1/monitors', body: { name: 'x' } })
    await app.server.ctx.database.db.updateTable('audit_log').set({ actor_label: '<img src=x onerror="window.pwned=1">' }).where('action', '=', 'monitors.post').where('team_id', '=', acting.id).execute()
    await page.goto(`${app.base}/user/team/audit?action=monitors.post`)
    expect(await rows(page).count()).toBe(50)
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()
    expect(await rows(page).first().getByText('<img src=x onerror="window.pwned=1">').isVisible()).toBe(true)
    await page.getByRole('link', { name: 'Older entries' }).click()
    await page.waitForURL(/cursor=/)
    expect(page.url()).toContain('action=monitors.post')
    expect(await rows(page).count()).toBe(5)
    expect(await page.getByRole('link', { name: 'Older entries' }).count()).toBe(0)
    await page.getByRole('link', { name: 'Newest entries' }).click()
    expect(await rows(page).count()).toBe(50)
  })

  test('a change made on a screen is recorded as the signed-in person, a refused one is not', async () => {
    const { page } = app
    await page.goto(`${app.base}/user/team`)
    await page.getByLabel('Email address').fill('new.colleague@example.com')
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await page.waitForURL(`${app.base}/user/team/invitations`)
    // The same address again is refused in the form (409): no second row.
    await page.goto(`${app.base}/user/team`)
    await page.getByLabel('Email address').fill('new.colleague@example.com')
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await page.waitForURL(`${app.base}/user/team/invitations`)
    await page.goto(`${app.base}/user/team/audit?action=team.invitations.post`)
    expect(await rows(page).count()).toBe(1)
    const row = rows(page).first()
    expect(await row.getByRole('cell', { name: `${app.owner.email} (Signed in)` }).isVisible()).toBe(true)
    expect(await row.getByRole('cell', { name: 'email, role', exact: true }).isVisible()).toBe(true)
    expect(await row.getByRole('cell', { name: '/user/team/invitations', exact: true }).isVisible()).toBe(true)
    expect(await row.textContent()).not.toContain('new.colleague@example.com')
  })

  test('a viewer sees no link to it and is refused', async () => {
    const viewer: Owner = await app.createOwner('free')
    const teamId = app.owner.user.id
    await app.server.ctx.database.db.insertInto('team_members').values({ team_id: teamId, user_id: viewer.user.userId, role: 'viewer', created_at: NOW }).execute()
    const { context, page } = await app.loginAs(viewer)
    const token = decodeURIComponent((await app.cookieOf(context)).split('=')[1]!)
    const session = (await services().accounts.authenticateSession(token))!
    await services().accounts.chooseTeam(session.sessionId!, teamId)
    await page.goto(`${app.base}/user/team`)
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0)
    const refused = await page.goto(`${app.base}/user/team/audit`)
    expect(refused!.status()).toBe(403)
    expect((await page.request.get(`${app.base}/user/api/v1/team/audit.csv`)).status()).toBe(403)
    await context.close()
  })
})
