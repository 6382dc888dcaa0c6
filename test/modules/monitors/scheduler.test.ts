/**
 * The scheduler over real SQLite and real local targets, with an injected clock and timer: each due
 * monitor runs once, first runs are spread, the caps hold, deadlines are hard, and a stop and start
 * neither loses nor doubles a run.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CheckResult } from '../../../src/modules/monitors/kinds/index.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { gate, ManualTimer, schedulerFor } from './scheduling.ts'

let ctx: TestContext
let key: string
let hits = 0
let target: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
  ;({ key } = await ctx.createOwner('enterprise'))
  target = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => (hits++, new Response('ok')) })
})
afterAll(async () => {
  target.stop(true)
  await ctx.close()
})

async function createMonitor(body: Record<string, unknown>): Promise<any> {
  const response = await ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { interval_seconds: 60, retries: 0, ...body } })
  if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`)
  return (await json(response)).data
}
const resultsOf = async (id: number) => (await json(await ctx.request(`/user/api/v1/monitors/${id}/results`, { key }))).data as any[]
const removeAll = async () => {
  for (const m of (await json(await ctx.request('/user/api/v1/monitors', { key }))).data) await ctx.request(`/user/api/v1/monitors/${m.id}`, { method: 'DELETE', key })
}
const ok = (attempts = 1): CheckResult & { attempts: number } => ({ outcome: 'ok', responseTimeMs: 5, message: 'ok', attempts })

describe('running', () => {
  test('each due monitor runs once per interval, on real HTTP', async () => {
    await removeAll()
    hits = 0
    const monitors = await Promise.all([1, 2, 3].map((i) => createMonitor({ name: `m${i}`, type: 'http', target: `http://127.0.0.1:${target.port}/${i}` })))
    const scheduler = schedulerFor(ctx)
    await scheduler.tick()
    ctx.clock.advance(60_000)
    await scheduler.tick()
    await scheduler.settle()
    expect(hits).toBe(3)
    // Ticks without time passing start nothing again.
    await scheduler.tick()
    await scheduler.tick()
    await scheduler.settle()
    expect(hits).toBe(3)
    for (const m of monitors) {
      const results = await resultsOf(m.id)
      expect(results).toHaveLength(1)
      expect(results[0]).toMatchObject({ outcome: 'ok', status_code: 200, attempts: 1 })
      const got = (await json(await ctx.request(`/user/api/v1/monitors/${m.id}`, { key }))).data
      expect(got.state).toBe('up')
      // The next run stays on the monitor's grid, one interval after the one that ran.
      expect(Date.parse(got.next_run_at)).toBe(Date.parse(m.next_run_at) + 60_000)
    }
    ctx.clock.advance(60_000)
    await scheduler.tick()
    await scheduler.settle()
    expect(hits).toBe(6)
  })

  test('first runs are spread over the interval (by id), not all at once', async () => {
    await removeAll()
    const now = ctx.clock.now()
    const monitors = await Promise.all(Array.from({ length: 40 }, (_, i) => createMonitor({ name: `s${i}`, type: 'http', target: 'https://example.com/', interval_seconds: 300 })))
    const offsets = monitors.map((m) => Date.parse(m.next_run_at) - now)
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...offsets)).toBeLessThan(300_000)
    // 40 monitors over ten 30-second slices: no slice holds more than a fair share.
    const slices = new Array(10).fill(0)
    for (const offset of offsets) slices[Math.floor(offset / 30_000)]++
    expect(Math.max(...slices)).toBeLessThanOrEqual(12)
    expect(slices.filter((n) => n > 0).length).toBeGreaterThanOrEqual(7)
  })

  test('a paused monitor does not run; a deleted one leaves the schedule', async () => {
    await removeAll()
    const calls: string[] = []
    const scheduler = schedulerFor(ctx, { run: async (spec) => (calls.push(spec.type === 'http' ? spec.url : ''), ok()) })
    const paused = await createMonitor({ name: 'p', type: 'http', target: 'https://example.com/p' })
    const deleted = await createMonitor({ name: 'd', type: 'http', target: 'https://example.com/d' })
    await scheduler.tick()
    await ctx.request(`/user/api/v1/monitors/${paused.id}/pause`, { method: 'POST', key })
    await ctx.request(`/user/api/v1/monitors/${deleted.id}`, { method: 'DELETE', key })
    ctx.clock.advance(120_000)
    await scheduler.tick()
    await scheduler.settle()
    expect(calls).toEqual([])
  })
})

describe('caps and deadlines', () => {
  test('per-host cap 4 and a global cap hold; waiting runs start in later ticks', async () => {
    await removeAll()
    const open = gate()
    let active = 0
    let most = 0
    const run = async () => {
      active++
      most = Math.max(most, active)
      await open.promise
      active--
      return ok()
    }
    const scheduler = schedulerFor(ctx, { run, perHostCap: 4, globalCap: 6 })
    const sameHost = await Promise.all(Array.from({ length: 10 }, (_, i) => createMonitor({ name: `h${i}`, type: 'http', target: `https://one.example.com/${i}` })))
    const others = await Promise.all(Array.from({ length: 5 }, (_, i) => createMonitor({ name: `o${i}`, type: 'http', target: `https://host${i}.example.com/` })))
    ctx.clock.advance(60_000)
    await scheduler.tick()
    expect(scheduler.active).toBe(6)
    expect(most).toBe(6)
    await scheduler.tick()
    expect(scheduler.active).toBe(6)
    open.open()
    await scheduler.settle()
    for (let i = 0; i < 5; i++) await scheduler.tick().then(() => scheduler.settle())
    const counts = await Promise.all([...sameHost, ...others].map(async (m) => (await resultsOf(m.id)).length))
    expect(counts).toEqual(new Array(15).fill(1))
    expect(most).toBeLessThanOrEqual(6)
  })

  test('a run waiting for its host starts as soon as a slot frees, without waiting for the next tick', async () => {
    await removeAll()
    const timer = new ManualTimer(ctx.clock)
    const gates = [gate(), gate()]
    let calls = 0
    const scheduler = schedulerFor(ctx, { timer, perHostCap: 1, run: async () => (await gates[calls++]!.promise, ok()) })
    const monitors = await Promise.all([1, 2].map((i) => createMonitor({ name: `w${i}`, type: 'http', target: `https://busy.example.com/${i}` })))
    ctx.clock.advance(60_000)
    scheduler.start()
    timer.advance(250) // the first tick
    while (calls < 1) await Bun.sleep(1)
    expect(scheduler.active).toBe(1)
    gates[0]!.open()
    // No timer moves: the finished run hands its slot on.
    while (calls < 2) await Bun.sleep(1)
    gates[1]!.open()
    await scheduler.stop()
    for (const m of monitors) expect(await resultsOf(m.id)).toHaveLength(1)
  })

  test('finished runs waiting for their write do not hold a slot of the global cap', async () => {
    await removeAll()
    const gates = [gate(), gate()]
    let calls = 0
    const scheduler = schedulerFor(ctx, { globalCap: 2, flushEveryMs: 600_000, run: async () => (await (gates[calls++] ?? { promise: Promise.resolve() }).promise, ok()) })
    await Promise.all([1, 2, 3, 4].map((i) => createMonitor({ name: `g${i}`, type: 'http', target: `https://g${i}.example.com/` })))
    ctx.clock.advance(60_000)
    await scheduler.tick() // starts 2; the write of this tick finds nothing finished yet
    expect(calls).toBe(2)
    for (const g of gates) g.open()
    await Bun.sleep(0)
    expect(scheduler.active).toBe(0)
    await scheduler.tick() // no write due for 10 minutes, yet both slots are free
    expect(calls).toBe(4)
    await scheduler.settle()
  })

  test("a run in its retry pause gives its host's slot to another run, and tries again before any new run", async () => {
    await removeAll()
    const timer = new ManualTimer(ctx.clock)
    const log: string[] = []
    const secondAttempt = gate()
    const otherRun = gate()
    // The first monitor fails, pauses 2 s, then tries again; the other one waits on a gate.
    const run = async (spec: any, policy: { retryDelayMs: number }, sleep: (ms: number) => Promise<void>) => {
      const name = spec.url.endsWith('/1') ? 'first' : 'other'
      log.push(`${name} starts`)
      if (name === 'other') {
        await otherRun.promise
        log.push('other ends')
        return ok()
      }
      await sleep(policy.retryDelayMs)
      log.push('first tries again')
      secondAttempt.open()
      return ok(2)
    }
    const scheduler = schedulerFor(ctx, { timer, perHostCap: 1, run })
    const [first, other] = await Promise.all([1, 2].map((i) => createMonitor({ name: `r${i}`, type: 'http', target: `https://pause.example.com/${i}`, retries: 1 })))
    const db = ctx.app.services.monitorsRepo.db
    await db.updateTable('monitors').set({ next_run_at: ctx.clock.now() - 2_000 }).where('id', '=', first.id).execute()
    await db.updateTable('monitors').set({ next_run_at: ctx.clock.now() - 1_000 }).where('id', '=', other.id).execute()
    await scheduler.tick()
    // The first run is in its pause: the host's only slot went to the other monitor.
    expect(log).toEqual(['first starts', 'other starts'])
    expect(scheduler.active).toBe(1)
    timer.advance(2_000)
    await Bun.sleep(0)
    // Back from the pause while the host is full: it waits, and goes first once the slot frees.
    expect(log).toEqual(['first starts', 'other starts'])
    otherRun.open()
    await secondAttempt.promise
    expect(log).toEqual(['first starts', 'other starts', 'other ends', 'first tries again'])
    await scheduler.settle()
    expect((await resultsOf(first.id))[0]).toMatchObject({ outcome: 'ok', attempts: 2 })
    expect(await resultsOf(other.id)).toHaveLength(1)
  })

  test("overdue runs of a full host do not stand in front of other hosts' due runs", async () => {
    await removeAll()
    const open = gate()
    const started: string[] = []
    const run = async (spec: any) => {
      started.push(new URL(spec.url).hostname)
      await open.promise
      return ok()
    }
    // The scan looks at globalCap × 4 = 8 heap entries a turn: 30 overdue runs for one full host exceed it.
    const scheduler = schedulerFor(ctx, { run, perHostCap: 1, globalCap: 2 })
    const crowd = await Promise.all(Array.from({ length: 30 }, (_, i) => createMonitor({ name: `c${i}`, type: 'http', target: `https://crowd.example.com/${i}` })))
    const lone = await createMonitor({ name: 'lone', type: 'http', target: 'https://lone.example.com/' })
    const db = ctx.app.services.monitorsRepo.db
    for (const [i, m] of crowd.entries()) await db.updateTable('monitors').set({ next_run_at: ctx.clock.now() - 60_000 + i }).where('id', '=', m.id).execute()
    await db.updateTable('monitors').set({ next_run_at: ctx.clock.now() - 1_000 }).where('id', '=', lone.id).execute()
    // One turn: it learns the crowd's host is full, the crowd waits off the heap, the lone host's run starts.
    await scheduler.tick()
    expect(started).toEqual(['crowd.example.com', 'lone.example.com'])
    open.open()
    await scheduler.settle()
    for (let i = 0; i < 40 && started.length < 31; i++) await scheduler.tick().then(() => scheduler.settle())
    expect(started.filter((host) => host === 'crowd.example.com')).toHaveLength(30)
  })

  test('a run that never ends fails at its hard deadline (runBudgetMs + 1 s)', async () => {
    await removeAll()
    const timer = new ManualTimer(ctx.clock)
    const scheduler = schedulerFor(ctx, { timer, run: () => new Promise(() => {}) })
    const m = await createMonitor({ name: 'hang', type: 'http', target: 'https://hang.example.com/', timeout_ms: 5_000, retries: 1, retry_interval_seconds: 2 })
    ctx.clock.advance(60_000)
    await scheduler.tick()
    expect(scheduler.active).toBe(1)
    timer.advance(12_999) // 2 × 5 s + 2 s + 1 s = 13 s
    await Bun.sleep(0)
    await scheduler.tick()
    expect(await resultsOf(m.id)).toHaveLength(0)
    timer.advance(1)
    await scheduler.settle()
    const results = await resultsOf(m.id)
    expect(results).toHaveLength(1)
    expect(results[0].outcome).toBe('fail')
    expect(results[0].message).toContain('hard deadline of 13000 ms')
  })
})

describe('stop and start', () => {
  test('a run in flight at stop is not recorded, then runs once after the restart; a recorded one never runs again', async () => {
    await removeAll()
    const m = await createMonitor({ name: 'restart', type: 'http', target: 'https://restart.example.com/' })
    const open = gate()
    let calls = 0
    const first = schedulerFor(ctx, { run: async () => (calls++, await open.promise, ok()) })
    ctx.clock.advance(60_000)
    await first.tick()
    expect(calls).toBe(1)
    await first.stop({ abandon: true })
    open.open()
    await Bun.sleep(0)
    expect(await resultsOf(m.id)).toHaveLength(0)

    const second = schedulerFor(ctx, { run: async () => (calls++, ok()) })
    await second.tick()
    await second.settle()
    expect(calls).toBe(2)
    expect(await resultsOf(m.id)).toHaveLength(1)
    await second.stop()

    // A third process at the same instant finds the next run in the database: nothing to do.
    const third = schedulerFor(ctx, { run: async () => (calls++, ok()) })
    await third.tick()
    await third.settle()
    expect(calls).toBe(2)
    expect(await resultsOf(m.id)).toHaveLength(1)
    await third.stop()
  })

  test('stop lets a run in flight finish and records it once', async () => {
    await removeAll()
    const m = await createMonitor({ name: 'drain', type: 'http', target: 'https://drain.example.com/' })
    const open = gate()
    const scheduler = schedulerFor(ctx, { run: async () => (await open.promise, ok()) })
    ctx.clock.advance(60_000)
    await scheduler.tick()
    const stopped = scheduler.stop()
    open.open()
    await stopped
    expect(await resultsOf(m.id)).toHaveLength(1)
    // Two schedulers racing on the same due run: the second one's result is dropped, not doubled.
    const a = schedulerFor(ctx, { run: async () => ok() })
    const b = schedulerFor(ctx, { run: async () => ok() })
    ctx.clock.advance(60_000)
    await Promise.all([a.tick(), b.tick()])
    await a.settle()
    await b.settle()
    expect(await resultsOf(m.id)).toHaveLength(2)
  })
})

describe('retention', () => {
  test('raw results older than 24 h are pruned in small batches; newer ones stay', async () => {
    await removeAll()
    const m = await createMonitor({ name: 'old', type: 'http', target: 'https://old.example.com/' })
    const scheduler = schedulerFor(ctx, { run: async () => ok() })
    for (let i = 0; i < 3; i++) {
      ctx.clock.advance(60_000)
      await scheduler.tick()
      await scheduler.settle()
    }
    expect(await resultsOf(m.id)).toHaveLength(3)
    ctx.clock.advance(24 * 3_600_000 - 30_000) // the first two are now older than a day
    expect(await ctx.app.services.monitorRecorder.prune(1)).toBe(2)
    expect(await resultsOf(m.id)).toHaveLength(1)
  })
})
