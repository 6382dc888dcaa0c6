/**
 * Two schedulers on one database (issue 17: several app servers): every due run is claimed with a
 * lease before it starts, so across both each run happens exactly once, none is missed, and when
 * one scheduler stops dead (its leases held, nothing written) the other takes its monitors over
 * once the leases lapse. PostgreSQL only (LANTERN_TEST_POSTGRES; CI starts one): on SQLite one
 * process schedules (with WORKERS=N, worker 1), and two writers in one process would wait on each
 * other's file lock with the event loop blocked.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../../src/config.ts'
import { openConfiguredDatabase } from '../../../src/db/open.ts'
import type { DatabaseHandle } from '../../../src/db/client.ts'
import { MonitorScheduler, type RunCheck } from '../../../src/modules/monitors/run/scheduler.ts'
import { createServices } from '../../../src/services.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { testPostgresServer } from '../../helpers/database.ts'
import { ManualTimer } from './scheduling.ts'

const MONITORS = 2_000
const INTERVAL_MS = 60_000
const STEP_MS = 1_000
let ctx: TestContext
let second: DatabaseHandle

describe.skipIf(!testPostgresServer)('two schedulers on one PostgreSQL database', () => {
beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 10, 2, 9, 0, 0) })
  const { user } = await ctx.createOwner('enterprise')
  for (let i = 0; i < MONITORS; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, MONITORS - i) }, (_, k) =>
      ctx.app.services.monitors.create(user, { name: `m${i + k}`, type: 'http', target: `https://example.com/m/${i + k}`, interval_seconds: INTERVAL_MS / 1000 })))
  }
  console.log(`created ${MONITORS} monitors`)
  // The second "server": its own connection(s) to the same database, its own services.
  second = openConfiguredDatabase(ctx.config)
}, 120_000)
afterAll(async () => {
  await second?.close()
  await ctx?.close()
})

function schedulerOn(services: ReturnType<typeof createServices>, timer: ManualTimer, run: RunCheck) {
  return new MonitorScheduler({ repo: services.monitorsRepo, recorder: services.monitorRecorder, clock: ctx.clock, checkDeps: services.checkDeps, timer, run, globalCap: 2_000, perHostCap: 2_000, onError: (error) => { throw error } })
}

test('2,000 monitors on two schedulers for three intervals: every run once, none missed; a dead scheduler\'s monitors move to the other', async () => {
  const runs = new Map<string, number[]>()
  const ranBy = { a: 0, b: 0 }
  const counting = (who: 'a' | 'b'): RunCheck => async (spec) => {
    ranBy[who]++
    const url = 'url' in spec ? spec.url : ''
    const list = runs.get(url) ?? []
    list.push(ctx.clock.now())
    runs.set(url, list)
    return { outcome: 'ok', responseTimeMs: 5, message: 'ok', attempts: 1 }
  }
  const timer = new ManualTimer(ctx.clock)
  const a = schedulerOn(ctx.app.services, timer, counting('a'))
  const b = schedulerOn(createServices({ db: second.db, config: loadConfig({ ...process.env, BASE_URL: ctx.config.baseUrl }), clock: ctx.clock }), timer, counting('b'))

  const start = ctx.clock.now()
  // Three intervals in steps, both schedulers ticking at every step (in alternating order).
  const phaseStarted = performance.now()
  for (let step = 0; ctx.clock.now() - start < 3 * INTERVAL_MS; step++) {
    timer.advance(STEP_MS)
    const [first, then] = step % 2 === 0 ? [a, b] : [b, a]
    await Promise.all([first.tick(), then.tick()])
  }
  await Promise.all([a.settle(), b.settle()])
  console.log(`two schedulers: ${ranBy.a} + ${ranBy.b} runs in ${Math.round(performance.now() - phaseStarted)} ms`)
  expect(runs.size).toBe(MONITORS)
  for (const [url, times] of runs) {
    // First runs are spread over the first interval, then every interval: 3 runs, 60 s apart.
    if (times.length !== 3) throw new Error(`${url} ran ${times.length} times: ${times.map((t) => t - start).join(', ')}`)
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(INTERVAL_MS - STEP_MS)
  }
  // Both did real work.
  expect(ranBy.a).toBeGreaterThan(MONITORS / 10)
  expect(ranBy.b).toBeGreaterThan(MONITORS / 10)

  // A is killed: it claimed its share of the next due runs and never writes them (a kill -9 mid-run).
  const stuck = new Promise<never>(() => {})
  const killed = schedulerOn(ctx.app.services, timer, async () => stuck)
  const killedAt = ctx.clock.now()
  const before = ranBy.b
  for (let step = 0; ctx.clock.now() < killedAt + 2 * INTERVAL_MS; step++) {
    timer.advance(STEP_MS)
    // The dying one ticks first, once per due wave, until it is gone after its first interval.
    if (ctx.clock.now() < killedAt + INTERVAL_MS) await killed.tick()
    await b.tick()
  }
  await b.settle()
  // Within two intervals of the kill every monitor ran on B again, those A had claimed included.
  const stale = [...runs].filter(([, times]) => times.at(-1)! <= killedAt + STEP_MS)
  expect(stale.map(([url]) => url)).toEqual([])
  expect(ranBy.b - before).toBeGreaterThanOrEqual(MONITORS)
}, 240_000)
})
