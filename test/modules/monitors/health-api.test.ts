/**
 * The health score in the monitor JSON over the real app: seeded raw results, the injected clock,
 * scoring again after new results (and at least every minute), paused and empty monitors; and an
 * outage driven through the real scheduler against a local target.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { HEALTH_MAX_AGE_MS, HEALTH_RECOMPUTES_PER_READ } from '../../../src/modules/monitors/service.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { schedulerFor } from './scheduling.ts'

let ctx: TestContext
let key: string

beforeAll(async () => {
  ctx = await createTestContext()
  ;({ key } = await ctx.createOwner('pro'))
})
afterAll(() => ctx.close())

const HOUR = 3_600_000
const createMonitor = async (name: string) =>
  (await json(await ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { name, type: 'http', target: 'https://example.com/', interval_seconds: 60 } }))).data as { id: number }
const getMonitor = async (id: number) => (await json(await ctx.request(`/user/api/v1/monitors/${id}`, { key }))).data
const seed = (rows: Array<{ monitor_id: number; at: number; outcome: string; response_ms: number | null }>) =>
  ctx.database.db
    .insertInto('monitor_results')
    .values(rows.map((r) => ({ ...r, status_code: null, attempts: 1, message: '' })))
    .execute()

describe('health_score in the monitor JSON', () => {
  test('computed from the raw results, with its parts and windows; scored again within a minute', async () => {
    const { id } = await createMonitor('Scored')
    const now = ctx.clock.now()
    const rows: Array<{ monitor_id: number; at: number; outcome: string; response_ms: number | null }> = []
    // 90 results between 23 h and 2 h ago, 10 of them failed; 10 in the last hour, 1 failed.
    for (let i = 0; i < 90; i++) rows.push({ monitor_id: id, at: now - 23 * HOUR + i * 10 * 60_000, outcome: i < 10 ? 'fail' : 'ok', response_ms: i < 10 ? null : 100 })
    for (let i = 0; i < 10; i++) rows.push({ monitor_id: id, at: now - 55 * 60_000 + i * 5 * 60_000, outcome: i === 0 ? 'fail' : 'ok', response_ms: i === 0 ? null : 100 })
    await seed(rows)

    // Uptime 89/100 → 53.4, latency at baseline → 20, errors 9/10 → 18: 91.4 → 91.
    const first = await getMonitor(id)
    expect(first.health_score).toBe(91)
    expect(first.health_parts).toEqual({ uptime: 53.4, latency: 20, errors: 18, recent_window_seconds: 3600, p95_recent_ms: 100, p95_baseline_ms: 100, computed_at: new Date(now).toISOString() })
    const listed = (await json(await ctx.request('/user/api/v1/monitors', { key }))).data.find((m: { id: number }) => m.id === id)
    expect(listed.health_score).toBe(91)

    // Ten more failures written behind the monitor's back (its last result did not move): the score stands for under a minute.
    await seed(Array.from({ length: 10 }, () => ({ monitor_id: id, at: now - 60_000, outcome: 'fail', response_ms: null })))
    ctx.clock.advance(HEALTH_MAX_AGE_MS - 1)
    expect((await getMonitor(id)).health_score).toBe(91)

    // A minute on it is scored again: 89 of 110 up → 48.5; the last hour 9 of 20 passed → 9; latency at baseline → 20.
    ctx.clock.advance(1)
    const later = await getMonitor(id)
    expect(later.health_parts).toMatchObject({ uptime: 48.5, latency: 20, errors: 9 })
    expect(later.health_score).toBe(78)
  })

  test('latency loses points when the last hour is slower than the baseline', async () => {
    const { id } = await createMonitor('Slow')
    const now = ctx.clock.now()
    const rows = Array.from({ length: 100 }, (_, i) => ({ monitor_id: id, at: now - 20 * HOUR + i * 60_000, outcome: 'ok', response_ms: 100 }))
    // The last hour at 130 ms: the 24 h p95 (the baseline) is 130 too unless older checks dominate it.
    for (let i = 0; i < 3; i++) rows.push({ monitor_id: id, at: now - 30 * 60_000 + i * 60_000, outcome: 'ok', response_ms: 130 })
    await seed(rows)
    const monitor = await getMonitor(id)
    // Baseline p95 over 103 results is 100 (the 98th value); the last hour's p95 is 130: 20 − 6 = 14.
    expect(monitor.health_parts).toMatchObject({ uptime: 60, latency: 14, errors: 20, p95_recent_ms: 130, p95_baseline_ms: 100 })
    expect(monitor.health_score).toBe(94)
  })

  test('no checks at all: null', async () => {
    const { id } = await createMonitor('Fresh')
    const monitor = await getMonitor(id)
    expect(monitor.health_score).toBeNull()
    expect(monitor.health_parts).toBeNull()
  })

  test('paused: null, whatever its results', async () => {
    const { id } = await createMonitor('Paused')
    await seed([{ monitor_id: id, at: ctx.clock.now() - 60_000, outcome: 'ok', response_ms: 50 }])
    expect((await getMonitor(id)).health_score).toBe(100)
    const paused = (await json(await ctx.request(`/user/api/v1/monitors/${id}/pause`, { method: 'POST', key }))).data
    expect(paused.health_score).toBeNull()
    expect((await getMonitor(id)).health_score).toBeNull()
  })

  test('a list recomputes a bounded number of stale scores per request; the rest follow on the next ones', async () => {
    const { user } = await ctx.createOwner('enterprise')
    const ids: number[] = []
    for (let i = 0; i < HEALTH_RECOMPUTES_PER_READ + 5; i++) {
      ids.push((await ctx.app.services.monitors.create(user, { name: `bulk ${i}`, type: 'http', target: 'https://example.com/', interval_seconds: 60 })).monitor.id)
    }
    await seed(ids.map((id) => ({ monitor_id: id, at: ctx.clock.now() - 60_000, outcome: 'ok', response_ms: 40 })))
    const scored = async () => (await ctx.app.services.monitors.list(user)).filter((m) => m.health !== null).length
    expect(await scored()).toBe(HEALTH_RECOMPUTES_PER_READ)
    expect(await scored()).toBe(HEALTH_RECOMPUTES_PER_READ + 5)
  })
})

describe('the score follows what happens (real scheduler, local target, injected clock)', () => {
  let live: TestContext
  let liveKey: string
  let answer = 200
  let target: ReturnType<typeof Bun.serve>
  beforeAll(async () => {
    live = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
    ;({ key: liveKey } = await live.createOwner('pro'))
    target = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('x', { status: answer }) })
  })
  afterAll(async () => {
    target.stop(true)
    await live.close()
  })

  const score = async (id: number) => (await json(await live.request(`/user/api/v1/monitors/${id}`, { key: liveKey }))).data
  const monitorOn = async (url: string) =>
    (await json(await live.request('/user/api/v1/monitors', { method: 'POST', key: liveKey, json: { name: url, type: 'http', target: url, interval_seconds: 60, retries: 0 } }))).data.id as number

  test('a 4-minute outage lowers the score at once; ten minutes later it has climbed again, and it is not the same figure', async () => {
    const id = await monitorOn(`http://127.0.0.1:${target.port}/`)
    const scheduler = schedulerFor(live)
    const run = async (times: number) => {
      for (let i = 0; i < times; i++) {
        live.clock.advance(60_000)
        await scheduler.tick()
        await scheduler.settle()
      }
    }
    await run(60)
    const before = await score(id)
    expect(before.health_score).toBe(100)
    answer = 500
    await run(4)
    const during = await score(id)
    answer = 200
    await run(10)
    const after = await score(id)
    await scheduler.stop()
    // 4 of the last 60 runs failed: the error part loses 20 × 4/60; uptime loses 60 × 4/64.
    expect(during.health_parts).toMatchObject({ errors: 18.7, recent_window_seconds: 3600 })
    expect(during.health_score).toBeLessThan(100)
    expect(after.health_score).toBeGreaterThanOrEqual(during.health_score)
    expect(after.health_parts.computed_at).not.toBe(during.health_parts.computed_at)
    expect(after.health_parts.uptime).not.toBe(during.health_parts.uptime)
    expect(after.health_score).toBeLessThan(100)
  })

  test('a target that never answers gets no latency points', async () => {
    const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
    const port = closed.port
    await closed.stop(true)
    const id = await monitorOn(`http://127.0.0.1:${port}/`)
    const scheduler = schedulerFor(live)
    for (let i = 0; i < 3; i++) {
      live.clock.advance(60_000)
      await scheduler.tick()
      await scheduler.settle()
    }
    await scheduler.stop()
    const monitor = await score(id)
    expect(monitor.state).toBe('down')
    expect(monitor.health_parts).toMatchObject({ uptime: 0, latency: 0, errors: 0, p95_recent_ms: null })
    expect(monitor.health_score).toBe(0)
  })
})
