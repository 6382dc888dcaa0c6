/**
 * The health score on the monitor screens in real Chromium: the list's Health column gives the
 * score alone; the detail's "Health score" gives it with each part, its window and its figures,
 * from seeded raw results; a monitor with no checks and a paused one say why they have none.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { checkA11y, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const HOUR = 3_600_000

let app: WebApp
beforeAll(async () => {
  app = await startWebApp({ now: NOW })
})
afterAll(() => app.close())

const createMonitor = async (name: string) => {
  const response = await app.server.ctx.request('/user/api/v1/monitors', { method: 'POST', key: app.owner.key, json: { name, type: 'http', target: 'https://example.com/', interval_seconds: 300 } })
  return ((await response.json()) as { data: { id: number } }).data.id
}

describe('health score on the monitor screens', () => {
  test('the list shows the score, the detail its parts with their windows; empty and paused monitors say why there is none', async () => {
    const scored = await createMonitor('Scored site')
    const fresh = await createMonitor('Fresh site')
    const paused = await createMonitor('Paused site')
    // 20 checks over the day, 2 failed (uptime 54 of 60); the last hour: 4 ok at the baseline.
    const rows = Array.from({ length: 20 }, (_, i) => ({ monitor_id: scored, at: NOW - 22 * HOUR + i * HOUR, outcome: i < 2 ? 'fail' : 'ok', response_ms: i < 2 ? null : 80 }))
    for (let i = 0; i < 4; i++) rows.push({ monitor_id: scored, at: NOW - 50 * 60_000 + i * 10 * 60_000, outcome: 'ok', response_ms: 80 })
    await app.server.ctx.database.db.insertInto('monitor_results').values(rows.map((r) => ({ ...r, status_code: null, attempts: 1, message: '' }))).execute()
    await app.server.ctx.request(`/user/api/v1/monitors/${paused}/pause`, { method: 'POST', key: app.owner.key })

    const page = app.page
    await page.goto(`${app.base}/user/monitors`)
    // 22 of 24 up → 55; latency and errors full: 95.
    expect(await page.locator(`#m-${scored} td[data-label="Health"]`).innerText()).toBe('95 / 100')
    expect(await page.locator(`#m-${fresh} td[data-label="Health"]`).innerText()).toBe('not scored yet')
    expect(await page.locator(`#m-${paused} td[data-label="Health"]`).innerText()).toBe('not scored while paused')
    expect(await page.getByRole('columnheader', { name: 'Health' }).isVisible()).toBe(true)
    await checkA11y(page)

    await page.goto(`${app.base}/user/monitors/${scored}`)
    expect((await page.locator('dd.health').innerText()).split('\n').slice(0, 4)).toEqual([
      '95 / 100',
      'Uptime 55 of 60: 22 of 24 results did not fail over the last 24 hours',
      'Latency 20 of 20: p95 80 ms over the last hour against 80 ms over 24 hours',
      'Errors 20 of 20: 4 of 4 results did not fail over the last hour',
    ])
    expect(await page.locator('dd.health').innerText()).toContain('Scored again after each new result; last at 23 Nov 2026, 12:00 UTC.')
    expect(await page.getByText('Health score', { exact: true }).isVisible()).toBe(true)
    await checkA11y(page)
  })
})
