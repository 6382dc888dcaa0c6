/**
 * Uptime as visitors read it on each surface (the page's 90-day figure, the status JSON's `upd`,
 * the uptime badge): maintenance is left out and figures round down (status-pipeline/uptime.ts).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

const DAY = 86_400_000
const H = 3_600_000
let ctx: TestContext

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 10, 10, 12) })
})
afterAll(() => ctx.close())

test('page, status JSON and uptime badge show the figure without the maintenance window', async () => {
  const { key } = await ctx.createOwner('growth')
  const now = ctx.clock.now()
  ctx.clock.set(now - 10 * DAY)
  const page = await ctx.createPage(key, { slug: 'agree', name: 'Agree' })
  const component = (await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name: 'API' } }))).data
  ctx.clock.set(now)
  // Down for 3 hours two days ago; the first of those hours was announced maintenance.
  const downAt = now - 2 * DAY
  await ctx.request(`/user/api/v1/components/${component.id}/history`, {
    method: 'POST',
    key,
    json: [
      { status: 'down', at: new Date(downAt).toISOString() },
      { status: 'up', at: new Date(downAt + 3 * H).toISOString() },
    ],
  })
  const maintenance = await ctx.request('/user/api/v1/maintenances', {
    method: 'POST',
    key,
    json: { status_page_id: page.id, title: 'Upgrade', message: 'DB upgrade', start_at: new Date(downAt).toISOString(), end_at: new Date(downAt + H).toISOString(), component_ids: [component.id] },
  })
  expect(maintenance.status).toBe(201)

  // 10 days of data minus 1 h of maintenance, 2 h of it down.
  const expected = Math.floor(((10 * 24 - 1 - 2) / (10 * 24 - 1)) * 10_000) / 100
  const text = `${expected}%`

  const badge = await (await ctx.request('/badge/agree/uptime.svg?days=90')).text()
  expect(badge).toContain(`<title>uptime: ${text}</title>`)

  const statusJson = await json(await ctx.request('/api/embed/status?slug=agree&upd=3'))
  // Two days ago: 24 h of which 1 h maintenance and 2 h down.
  expect(statusJson.upd).toEqual([Math.floor((21 / 23) * 10_000) / 100, 100, 100])

  const html = await (await ctx.request('https://agree.status.test/')).text()
  expect(html).toContain(`${text} uptime over the last 90 days.`)
})
