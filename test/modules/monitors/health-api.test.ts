/** The health score in the monitor JSON over the real app: seeded raw results, the injected clock, the hourly cache, paused and empty monitors. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { HEALTH_RECOMPUTES_PER_READ } from '../../../src/modules/monitors/service.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

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
  test('computed from the raw results by the reference rules, with its parts; recomputed at most hourly', async () => {
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
    expect(first.health_parts).toEqual({ uptime: 53.4, latency: 20, errors: 18 })
    const listed = (await json(await ctx.request('/user/api/v1/monitors', { key }))).data.find((m: { id: number }) => m.id === id)
    expect(listed.health_score).toBe(91)

    // Ten more failures: within the hour the cached score stands.
    await seed(Array.from({ length: 10 }, () => ({ monitor_id: id, at: now - 60_000, outcome: 'fail', response_ms: null })))
    ctx.clock.advance(HOUR - 1)
    expect((await getMonitor(id)).health_score).toBe(91)

    // An hour later it is recomputed: 89 of 110 up → 48.5; the last hour holds nothing, so 20 + 20.
    ctx.clock.advance(1)
    const later = await getMonitor(id)
    expect(later.health_parts).toEqual({ uptime: 48.5, latency: 20, errors: 20 })
    expect(later.health_score).toBe(89)
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
    expect(monitor.health_parts).toEqual({ uptime: 60, latency: 14, errors: 20 })
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
