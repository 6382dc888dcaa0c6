/**
 * Monitors drive their component through the real app: a target that stops answering turns the
 * component down after confirmation, and the public status JSON and badge show it; a manual status
 * is an override the owner sets and clears; results feed the component's check store. Push monitors
 * over HTTP: up, down, and down by silence.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { STATUS_COLOURS } from '../../../src/modules/status-pipeline/colours.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { schedulerFor } from './scheduling.ts'

let ctx: TestContext
let key: string
let pageId: number
let componentId: number
let target: ReturnType<typeof Bun.serve>

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
const component = async () => (await json(await api(`/components/${componentId}`))).data
const overall = async () => (await json(await ctx.request('/api/embed/status?slug=watched'))).overall
const badgeText = async () => await (await ctx.request('/badge/watched.svg')).text()

beforeAll(async () => {
  ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
  ;({ key } = await ctx.createOwner('enterprise'))
  pageId = (await ctx.createPage(key, { slug: 'watched', name: 'Watched' })).id
  componentId = (await json(await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name: 'API' } }))).data.id
  target = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok') })
})
afterAll(async () => {
  target.stop(true)
  await ctx.close()
})

describe('HTTP monitor → component → public page', () => {
  test('a target that stops answering turns the component down after 2 failing runs; the status JSON and badge follow', async () => {
    const created = await api('/monitors', {
      method: 'POST',
      json: { name: 'API check', type: 'http', target: `http://127.0.0.1:${target.port}/health`, interval_seconds: 30, retries: 0, component_id: componentId },
    })
    expect(created.status).toBe(201)
    const monitorId = (await json(created)).data.id
    const scheduler = schedulerFor(ctx)
    const runOnce = async () => {
      ctx.clock.advance(30_000)
      await scheduler.tick()
      await scheduler.settle()
    }
    await runOnce()
    expect((await json(await api(`/monitors/${monitorId}`))).data.state).toBe('up')
    expect((await component()).status).toBe('up')
    expect(await overall()).toBe('operational')
    expect(await badgeText()).toContain('Operational')

    const port = target.port
    target.stop(true)
    await runOnce()
    // One failing run is not yet an outage (confirmation: 2).
    expect((await json(await api(`/monitors/${monitorId}`))).data.state).toBe('up')
    expect((await component()).status).toBe('up')
    await runOnce()
    expect((await json(await api(`/monitors/${monitorId}`))).data).toMatchObject({ state: 'down', last_outcome: 'fail' })
    expect((await component()).status).toBe('down')
    expect(await overall()).toBe('major_outage')
    const badge = await badgeText()
    expect(badge).toContain('Down')
    expect(badge).toContain(STATUS_COLOURS.major_outage.light) // red, as on the page
    // Recorded as a status change like a manual one.
    const history = (await json(await api(`/components/${componentId}/history`))).data
    expect(history[0].status).toBe('down')
    // Results fed the component's check store (sparklines, uptime bars, analytics).
    const [today] = await ctx.app.services.checks.dailyBuckets([componentId], ctx.clock.now(), 1)
    expect(today).toMatchObject({ checks: 3, okChecks: 1 })
    // One raw row per result, in the monitor's own log (not twice).
    expect(await ctx.app.services.checks.rawCount(componentId)).toBe(0)

    // A manual status is an override: runs leave it alone until the owner clears it.
    const overridden = (await json(await api(`/components/${componentId}`, { method: 'PATCH', json: { status: 'up' } }))).data
    expect(overridden).toMatchObject({ status: 'up', status_override: true })
    await runOnce()
    expect((await component()).status).toBe('up')
    // 60 s up, then 30 s down so far.
    const availability = (await json(await api(`/monitors/${monitorId}/availability?period=7d`))).data
    expect(availability).toMatchObject({ incidents: 1, downtime_seconds: 30, monitored_seconds: 90, mttr_seconds: null })
    expect(availability.uptime_percent).toBeCloseTo(66.6667, 3)
    const cleared = (await json(await api(`/components/${componentId}`, { method: 'PATCH', json: { status_override: false } }))).data
    expect(cleared).toMatchObject({ status: 'down', status_override: false })

    // The target answers again: up after 2 passing runs.
    target = Bun.serve({ port, hostname: '127.0.0.1', fetch: () => new Response('ok') })
    await runOnce()
    expect((await component()).status).toBe('down')
    await runOnce()
    expect((await component()).status).toBe('up')
    expect(await overall()).toBe('operational')
    await scheduler.stop()
    await api(`/monitors/${monitorId}`, { method: 'DELETE' })
  })
})

describe('push monitors over HTTP', () => {
  test('up, down, bad input, unknown token, and down by silence', async () => {
    const created = (await json(await api('/monitors', {
      method: 'POST',
      json: { name: 'Backup job', type: 'push', interval_seconds: 60, push_grace_seconds: 30, confirm_failures: 1, confirm_successes: 1, component_id: componentId },
    }))).data
    const pushUrl: string = created.push_url
    const scheduler = schedulerFor(ctx)
    await scheduler.tick()

    const up = await ctx.request(`${pushUrl}?status=up&msg=done&ping=120`)
    expect(up.status).toBe(200)
    expect(await json(up)).toEqual({ ok: true, state: 'up' })
    const down = await ctx.request(`${pushUrl}?status=down&msg=disk%20full`, { method: 'POST' })
    expect(await json(down)).toEqual({ ok: true, state: 'down' })
    expect((await component()).status).toBe('down')
    const results = (await json(await api(`/monitors/${created.id}/results`))).data
    expect(results.map((r: any) => [r.outcome, r.message])).toEqual([['fail', 'disk full'], ['ok', 'done']])
    expect(results[1].response_ms).toBe(120)

    expect((await ctx.request(`${pushUrl}?status=maybe`)).status).toBe(400)
    expect((await ctx.request(`${pushUrl}?ping=-1`)).status).toBe(400)
    expect((await ctx.request(`/api/push/${'x'.repeat(32)}`)).status).toBe(404)
    expect((await ctx.request(`${pushUrl}?status=up`)).status).toBe(200)
    expect((await component()).status).toBe('up')

    // Silence: nothing within interval + grace (90 s) → down at the deadline.
    ctx.clock.advance(89_000)
    await scheduler.tick()
    await scheduler.settle()
    expect((await json(await api(`/monitors/${created.id}`))).data.state).toBe('up')
    ctx.clock.advance(2_000)
    await scheduler.tick()
    await scheduler.settle()
    const silent = (await json(await api(`/monitors/${created.id}`))).data
    expect(silent.state).toBe('down')
    expect(silent.last_message).toMatch(/no push for 91 s/)
    expect((await component()).status).toBe('down')
    // A push brings it back; a paused monitor refuses pushes.
    expect(await json(await ctx.request(pushUrl))).toEqual({ ok: true, state: 'up' })
    await api(`/monitors/${created.id}/pause`, { method: 'POST' })
    expect((await ctx.request(pushUrl)).status).toBe(404)
    await scheduler.stop()
  })
})

describe('moving a monitor', () => {
  test('the component it joins takes its state at once', async () => {
    const other = (await json(await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name: 'Other' } }))).data.id
    const created = (await json(await api('/monitors', {
      method: 'POST',
      json: { name: 'Mover', type: 'push', interval_seconds: 60, confirm_failures: 1, confirm_successes: 1 },
    }))).data
    expect(await json(await ctx.request(`${created.push_url}?status=down`))).toEqual({ ok: true, state: 'down' })
    expect((await json(await api(`/components/${other}`))).data.status).toBe('up')
    const moved = (await json(await api(`/monitors/${created.id}`, { method: 'PATCH', json: { component_id: other } }))).data
    expect(moved).toMatchObject({ component_id: other, status_page_id: pageId, status_page_slug: 'watched' })
    expect((await json(await api(`/components/${other}`))).data.status).toBe('down')
  })
})
