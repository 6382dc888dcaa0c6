/**
 * Recording probe results through the MonitorRecorder: a monitor only probes run is never run by
 * the server's scheduler, whose turn instead judges its regions again, so a region that went
 * silent stops counting (k = 1 of [eu, us]: eu down then silent → the monitor comes back up from
 * us alone). Downstream (state changes, component status) sees only the aggregate.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { ManualTimer, schedulerFor } from '../monitors/scheduling.ts'

const NOW = Date.UTC(2026, 10, 4, 10, 0, 0)
const INTERVAL_MS = 60_000

let ctx: TestContext
let key: string
beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  ;({ key } = await ctx.createOwner('enterprise'))
})
afterAll(() => ctx.close())

describe('a monitor only probes run', () => {
  test("the server never runs it; its turn makes a silent region stale, and the aggregate follows", async () => {
    const eu = (await ctx.app.services.probes.createToken('eu')).token
    const us = (await ctx.app.services.probes.createToken('us')).token
    const page = await ctx.createPage(key, { slug: 'probes-only', name: 'Probes only' })
    const component = (await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name: 'API' } }))).data
    const monitor = (await json(await ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { name: 'Remote', type: 'http', target: 'https://example.com/api', regions: ['eu', 'us'], confirm_failures: 1, confirm_successes: 1, component_id: component.id } }))).data
    const push = (token: string, outcome: 'ok' | 'fail') =>
      ctx.request('/api/v1/probe/results', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ results: [{ monitor_id: monitor.id, scheduled_at: new Date(ctx.clock.now()).toISOString(), result: { outcome, response_ms: outcome === 'ok' ? 30 : null, message: outcome } }] }),
      })
    const get = async () => (await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}`, { key }))).data
    const componentStatus = async () => (await json(await ctx.request(`/user/api/v1/components/${component.id}`, { key }))).data.status

    const timer = new ManualTimer(ctx.clock)
    const scheduler = schedulerFor(ctx, {
      timer,
      run: async () => {
        throw new Error('the server must not run a monitor without the local region')
      },
    })

    // k = 1: eu down is enough.
    await push(eu, 'fail')
    await push(us, 'ok')
    expect((await get()).state).toBe('down')
    expect(await componentStatus()).toBe('down')

    // eu falls silent; us reports once more while eu still counts (2.5 intervals): still down.
    for (let i = 0; i < 2; i++) {
      timer.advance(INTERVAL_MS)
      await scheduler.tick()
      await scheduler.settle()
    }
    timer.advance(INTERVAL_MS / 2)
    await push(us, 'ok')
    expect((await get()).state).toBe('down')
    // Nothing but the server's turn after eu's third silent interval: eu is stale, us alone says up.
    timer.advance(INTERVAL_MS)
    await scheduler.tick()
    await scheduler.settle()
    const regions = await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}/regions`, { key }))
    expect(regions.data.map((r: { region: string; state: string; stale: boolean }) => [r.region, r.state, r.stale])).toEqual([['eu', 'down', true], ['us', 'up', false]])
    expect((await get()).state).toBe('up')
    expect(await componentStatus()).toBe('up')
    // Every raw result came from a probe; the server's turns wrote none, and it moved on along the grid.
    const results = (await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}/results`, { key }))).data
    expect(results.every((r: { region: string }) => r.region !== 'local')).toBe(true)
    expect(Date.parse((await get()).next_run_at)).toBeGreaterThan(ctx.clock.now())
    const changes = (await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}/state-changes`, { key }))).data.map((c: { state: string }) => c.state)
    expect(changes).toEqual(['pending', 'down', 'up'])
    await scheduler.stop()
  })
})

describe('a region whose run the configuration refused', () => {
  test('is no data, never down: the component keeps its status; every region refused makes the monitor misconfigured', async () => {
    const eu = (await ctx.app.services.probes.createToken('eu-mis')).token
    const us = (await ctx.app.services.probes.createToken('us-mis')).token
    const page = await ctx.createPage(key, { slug: 'probes-misconf', name: 'Probes misconfigured' })
    const component = (await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name: 'API' } }))).data
    const monitor = (await json(await ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { name: 'Remote', type: 'http', target: 'https://example.com/api', regions: ['eu-mis', 'us-mis'], confirm_failures: 1, confirm_successes: 1, component_id: component.id } }))).data
    const push = async (token: string, outcome: 'ok' | 'fail' | 'misconfigured') => {
      const response = await ctx.request('/api/v1/probe/results', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ results: [{ monitor_id: monitor.id, scheduled_at: new Date(ctx.clock.now()).toISOString(), result: { outcome, response_ms: outcome === 'ok' ? 30 : null, message: outcome === 'misconfigured' ? 'api.example resolves to 10.0.0.1, a private address. Fix: …' : outcome } }] }),
      })
      expect(response.status).toBeLessThan(300)
    }
    const get = async () => (await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}`, { key }))).data
    const componentStatus = async () => (await json(await ctx.request(`/user/api/v1/components/${component.id}`, { key }))).data.status

    await push(eu, 'misconfigured')
    await push(us, 'ok')
    expect((await get()).state).toBe('up')
    ctx.clock.advance(INTERVAL_MS)
    await push(us, 'misconfigured')
    expect((await get())).toMatchObject({ state: 'misconfigured', state_reason: 'api.example resolves to 10.0.0.1, a private address. Fix: …' })
    expect(await componentStatus()).toBe('up')
    const regions = await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}/regions`, { key }))
    expect(regions.data.map((r: { region: string; state: string }) => [r.region, r.state])).toEqual([['eu-mis', 'misconfigured'], ['us-mis', 'misconfigured']])
    // A real failure in one region again decides (k = 1).
    ctx.clock.advance(INTERVAL_MS)
    await push(eu, 'fail')
    expect((await get()).state).toBe('down')
    expect(await componentStatus()).toBe('down')
  })
})
