/**
 * The probe's loop against the real app over a real socket, on a manual clock: it pulls its
 * monitors (and a 304 changes nothing), runs them on their grid, pushes results in batches; with
 * the server gone it keeps a bounded queue (oldest dropped, counted), backs off, logs one line per
 * state; back again it delivers what it kept; stop() pushes what is left.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { ManualTimer } from '../monitors/scheduling.ts'
import { ProbeRunner } from '../../../src/modules/probes/runner.ts'
import type { RunCheck } from '../../../src/modules/monitors/run/scheduler.ts'

const NOW = Date.UTC(2026, 10, 3, 8, 0, 0)
const INTERVAL_MS = 60_000

let ctx: TestContext
let server: ReturnType<typeof Bun.serve> | undefined
let port = 0
let requests = { pulls: 0, notModified: 0, pushes: 0 }

/** The app behind a socket that the test can take away and bring back on the same port. */
function listen(): void {
  server = Bun.serve({
    port,
    hostname: '127.0.0.1',
    fetch: async (request) => {
      const url = new URL(request.url)
      const response = await ctx.app.handle(new Request(`${ctx.config.baseUrl}${url.pathname}${url.search}`, request))
      if (url.pathname.endsWith('/monitors')) {
        requests.pulls++
        if (response.status === 304) requests.notModified++
      } else requests.pushes++
      return response
    },
  })
  port = server.port!
}

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  listen()
})
afterAll(async () => {
  await server?.stop(true)
  await ctx.close()
})

describe('the probe loop', () => {
  test('pull, run on the grid, push; unreachable: bounded queue, backoff, one log line; back: delivered; stop: the rest pushed', async () => {
    const { user } = await ctx.createOwner('enterprise')
    const token = (await ctx.app.services.probes.createToken('eu')).token
    const { monitor } = await ctx.app.services.monitors.create(user, { name: 'EU', type: 'http', target: 'https://example.com/eu', interval_seconds: 60, regions: ['eu'], confirm_failures: 1, retries: 0 })
    let runs = 0
    const run: RunCheck = async () => {
      runs++
      return { outcome: runs % 2 ? 'ok' : 'fail', responseTimeMs: runs % 2 ? 20 : null, message: `run ${runs}`, attempts: 1 }
    }
    const log: string[] = []
    const timer = new ManualTimer(ctx.clock)
    const runner = new ProbeRunner({ server: `http://127.0.0.1:${port}`, token, region: 'eu', clock: ctx.clock, checkDeps: ctx.app.services.checkDeps, timer, run, log: (line) => log.push(line), maxQueue: 3, pullEveryMs: 30_000 })
    runner.start()
    // A run, then a push a second later (pushes are at most one a second).
    const step = async (ms: number) => {
      ctx.clock.advance(ms - 1_000)
      await runner.tick()
      await runner.drain()
      ctx.clock.advance(1_000)
      await runner.tick()
    }

    await runner.tick()
    expect(runner.monitorCount).toBe(1)
    // Over two intervals: two runs, each pushed.
    await step(INTERVAL_MS)
    await step(INTERVAL_MS)
    expect(runs).toBe(2)
    expect(runner.queued).toBe(0)
    expect(runner.delivered).toBe(2)
    const regions = await ctx.app.services.monitors.regionStates(user, monitor.id)
    expect(regions).toMatchObject([{ region: 'eu', state: 'down', lastMessage: 'run 2', stale: false }])
    // Unchanged definitions: 304s.
    expect(requests.notModified).toBeGreaterThan(0)

    // The server goes away for five intervals: three results kept, the two oldest dropped.
    await server!.stop(true)
    for (let i = 0; i < 5; i++) await step(INTERVAL_MS)
    expect(runs).toBe(7)
    expect(runner.queued).toBe(3)
    expect(runner.dropped).toBe(2)
    expect(log.filter((line) => line.includes('unreachable'))).toHaveLength(1)

    // Back: the kept results arrive (the two dropped never do).
    listen()
    const deliveredBefore = runner.delivered
    await step(INTERVAL_MS)
    await step(INTERVAL_MS)
    expect(runner.queued).toBe(0)
    // The three kept, and the runs of these two intervals.
    expect(runner.delivered - deliveredBefore).toBe(5)
    const messages = (await ctx.app.services.monitors.results(user, monitor.id, 50, undefined)).map((r) => r.message)
    expect(messages).toContain('run 5')
    expect(messages).not.toContain('run 3')
    expect(messages).not.toContain('run 4')
    expect(log.filter((line) => line.includes('connected'))).toHaveLength(2)
    expect(log.some((line) => line.includes('2 dropped so far'))).toBe(true)

    // One more run, not yet pushed; stop() pushes it.
    ctx.clock.advance(INTERVAL_MS)
    await runner.tick()
    await runner.drain()
    expect(runner.queued).toBe(1)
    await runner.stop()
    expect(runner.queued).toBe(0)
    expect((await ctx.app.services.monitors.results(user, monitor.id, 50, undefined)).map((r) => r.message)).toContain(`run ${runs}`)
    expect(log.at(-1)).toContain('stopped')
  })
})
