/**
 * Regions on the monitor screens in real Chromium: the form sets where a monitor runs and k (an
 * unknown region is an error next to its field, and nothing is created); the detail shows each
 * region's state, last result time, latency and message, the k-of-n rule in words, and a region
 * that went silent as stale.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { checkA11y, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

let app: WebApp
let euToken: string
beforeAll(async () => {
  app = await startWebApp({ now: NOW })
  euToken = (await app.server.ctx.app.services.probes.createToken('eu-west')).token
})
afterAll(() => app.close())

const probePush = (monitorId: number, at: number, outcome: 'ok' | 'fail', message: string, responseMs: number | null) =>
  app.server.ctx.request('/api/v1/probe/results', {
    method: 'POST',
    headers: { authorization: `Bearer ${euToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ results: [{ monitor_id: monitorId, scheduled_at: new Date(at).toISOString(), result: { outcome, response_ms: responseMs, status_code: outcome === 'ok' ? 200 : 503, attempts: 1, message } }] }),
  })

describe('regions on the monitor screens', () => {
  test('the form sets regions and k; the detail shows each region, the rule in words, and stale regions', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/monitors/new?type=http`)
    await page.getByLabel('Name', { exact: true }).fill('Shop from two places')
    await page.getByLabel('Target', { exact: true }).fill('https://example.com/shop')
    await page.getByLabel('Interval (seconds)').fill('60')
    expect(await page.locator('fieldset.mon-regions').innerText()).toContain('Available: local, eu-west.')
    // A region nobody runs: the form comes back with the error at the field.
    await page.getByLabel('Regions', { exact: true }).fill('local, mars')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    expect(await page.locator('fieldset.mon-regions').innerText()).toContain('Unknown region "mars"')
    expect((await app.server.ctx.app.services.monitors.list(app.owner.user)).length).toBe(0)

    await page.getByLabel('Regions', { exact: true }).fill('local, eu-west')
    await page.getByLabel('Regions that must fail before down').fill('2')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    await page.waitForURL(/\/user\/monitors\/\d+$/)
    const id = Number(new URL(page.url()).pathname.split('/').pop())
    const monitor = await app.server.ctx.app.services.monitors.get(app.owner.user, id)
    expect(monitor.definition.regions).toEqual(['local', 'eu-west'])
    expect(monitor.definition.regionsRequiredDown).toBe(2)

    // The server's own run passes; the probe in eu-west reports a failure.
    const clock = app.server.ctx.clock
    clock.advance(30_000)
    await app.server.ctx.app.services.monitorRecorder.record([{ kind: 'run', monitorId: id, scheduledAt: monitor.nextRunAt!, result: { outcome: 'ok', responseTimeMs: 87, message: 'HTTP 200', attempts: 1 } }])
    expect((await probePush(id, clock.now() - 1000, 'fail', 'HTTP 503 Service Unavailable', 412)).status).toBe(200)

    await page.goto(`${app.base}/user/monitors/${id}`)
    const section = page.getByRole('region', { name: 'Regions' })
    expect(await section.locator('.region-rule').innerText()).toBe('Down only when all 2 of its regions are down. A region with no result for 3 intervals (3 min 0 s) is stale and counts as no data.')
    const row = (region: string) => section.getByRole('row', { name: new RegExp(`^${region}\\b`) })
    expect(await row('local').locator('td').allInnerTexts()).toEqual(['Up', '23 Nov 2026, 12:00 UTC', '87 ms', 'HTTP 200', 'fresh'])
    expect(await row('eu-west').locator('td').allInnerTexts()).toEqual(['Down', '23 Nov 2026, 12:00 UTC', '412 ms', 'HTTP 503 Service Unavailable', 'fresh'])
    // k = 2: one region down keeps the monitor up.
    expect(await page.getByRole('heading', { name: 'State: Up' }).isVisible()).toBe(true)
    // Each result says where it was taken.
    expect(await page.getByRole('columnheader', { name: 'Region' }).last().isVisible()).toBe(true)
    await checkA11y(page)

    // Four minutes on, only the server has run: eu-west is stale.
    clock.advance(4 * 60_000)
    const current = await app.server.ctx.app.services.monitors.get(app.owner.user, id)
    await app.server.ctx.app.services.monitorRecorder.record([{ kind: 'run', monitorId: id, scheduledAt: current.nextRunAt!, result: { outcome: 'ok', responseTimeMs: 90, message: 'HTTP 200', attempts: 1 } }])
    await page.goto(`${app.base}/user/monitors/${id}`)
    expect(await row('eu-west').locator('td').last().innerText()).toBe('stale: no data')
    expect(await row('local').locator('td').last().innerText()).toBe('fresh')
    await checkA11y(page)

    // The edit form shows what is set.
    await page.goto(`${app.base}/user/monitors/${id}/edit`)
    expect(await page.getByLabel('Regions', { exact: true }).inputValue()).toBe('local, eu-west')
    expect(await page.getByLabel('Regions that must fail before down').inputValue()).toBe('2')
  })

  test('a monitor only the server runs shows no regions section (as before)', async () => {
    const response = await app.server.ctx.request('/user/api/v1/monitors', { method: 'POST', key: app.owner.key, json: { name: 'Plain', type: 'http', target: 'https://example.com/' } })
    const id = ((await response.json()) as { data: { id: number } }).data.id
    await app.page.goto(`${app.base}/user/monitors/${id}`)
    expect(await app.page.getByRole('region', { name: 'Regions' }).count()).toBe(0)
  })
})
