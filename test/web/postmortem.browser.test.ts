/**
 * The postmortem on the incident screen in real Chromium: not offered while open; on a resolved
 * incident written as a draft (not on the public page), published with "Notify subscribers" (the
 * public incident page shows it rendered, nothing from it runs, subscribers' mail is queued), then
 * edited; emptying a published one is refused with the reason and nothing changed; axe and layouts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { json } from '../helpers/context.ts'
import { checkA11y, checkLayouts, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const BODY = 'A **bad deploy** of `payments`: see [the timeline](https://example.com/t).\n\n- rolled back\n- <img src=x onerror="window.pwned=1">'

let app: WebApp
let slug: string
let incidentId: number

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => app.server.ctx.request(`/user/api/v1${path}`, { key: app.owner.key, ...init })

beforeAll(async () => {
  app = await startWebApp({ now: NOW })
  slug = `pm-${crypto.randomUUID().slice(0, 6)}`
  const pageId = (await app.server.ctx.createPage(app.owner.key, { name: 'Acme Cloud', slug })).id
  expect((await api(`/status-pages/${pageId}/subscribers`, { method: 'POST', json: { email: 'reader@example.com', consent: true } })).status).toBe(201)
  incidentId = (await json(await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'Payments failing', message: 'Looking.' } }))).data.id
})
afterAll(() => app.close())

describe('postmortem screens', () => {
  test('an open incident only says when it can be written', async () => {
    const { page } = app
    await page.goto(`${app.base}/user/incidents/${incidentId}`)
    await expect(page.locator('#postmortem-heading + p').innerText()).resolves.toContain('Once the incident is resolved')
    expect(await page.locator('textarea[name="body"]').count()).toBe(0)
  })

  test('draft, publish with notify, public page, edit; an emptied published one is refused', async () => {
    const { page } = app
    await page.goto(`${app.base}/user/incidents/${incidentId}`)
    await page.getByRole('button', { name: 'Resolve' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}`)
    await page.getByLabel('Postmortem text').fill(BODY)
    await page.getByRole('button', { name: 'Save draft' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}#postmortem-heading`)
    await expect(page.locator('#postmortem-status').innerText()).resolves.toContain('A draft')
    await expect(page.getByLabel('Postmortem text').inputValue()).resolves.toBe(BODY)

    const visitor = await app.browser.newContext()
    const publicPage = await visitor.newPage()
    await publicPage.goto(`${app.server.statusHost(slug)}/incidents/${incidentId}`)
    expect(await publicPage.locator('#postmortem').count()).toBe(0)

    await checkA11y(page)
    await checkLayouts(page, app.shots, 'postmortem-draft', ['Publish postmortem'])
    await page.locator('#postmortem-notify_subscribers').check()
    const outboxBefore = await app.server.ctx.database.db.selectFrom('subscriber_fanouts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    await page.getByRole('button', { name: 'Publish postmortem' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}#postmortem-heading`)
    await expect(page.locator('#postmortem-status').innerText()).resolves.toContain('Published')
    const fanouts = await app.server.ctx.database.db.selectFrom('subscriber_fanouts').select(['event_kind']).execute()
    expect(fanouts.length).toBe(Number(outboxBefore.n) + 1)
    expect(fanouts.at(-1)!.event_kind).toBe('incident.postmortem')

    await publicPage.goto(`${app.server.statusHost(slug)}/incidents/${incidentId}`)
    const shown = await publicPage.evaluate(() => {
      const section = document.querySelector('#postmortem')!
      return {
        strong: section.querySelector('strong')?.textContent,
        code: section.querySelector('code')?.textContent,
        link: section.querySelector('a')?.getAttribute('rel'),
        images: section.querySelectorAll('img').length,
        text: section.textContent,
        pwned: (window as unknown as { pwned?: number }).pwned ?? 0,
      }
    })
    expect(shown).toEqual({ strong: 'bad deploy', code: 'payments', link: 'nofollow noopener', images: 0, text: expect.stringContaining('<img src=x onerror="window.pwned=1">'), pwned: 0 })

    // Edited after publishing: the page shows the change at once.
    await page.getByLabel('Postmortem text').fill(`${BODY}\n\nFollow-up *done*.`)
    await page.getByRole('button', { name: 'Save postmortem' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}#postmortem-heading`)
    await publicPage.goto(`${app.server.statusHost(slug)}/incidents/${incidentId}`)
    await expect(publicPage.locator('#postmortem em').innerText()).resolves.toBe('done')

    // Emptied: refused with the reason, the text kept.
    await page.getByLabel('Postmortem text').fill('')
    await page.getByRole('button', { name: 'Save postmortem' }).click()
    await expect(page.locator('.field-error, .error-summary, [role="alert"]').first().innerText()).resolves.toMatch(/cannot be emptied/i)
    expect((await json(await api(`/incidents/${incidentId}`))).data.postmortem.body).toBe(`${BODY}\n\nFollow-up *done*.`)
    await visitor.close()
  })
})
