/** A test context with metrics on, real checks of local targets (test CA trusted) and a scheduler to drive by hand. */
import { expect } from 'bun:test'
import { createAddressGuard } from '../../../src/lib/address-guard.ts'
import { systemClock } from '../../../src/lib/clock.ts'
import { MonitorScheduler } from '../../../src/modules/monitors/run/scheduler.ts'
import type { CheckDeps } from '../../../src/modules/monitors/kinds/spec.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { testCa } from '../../helpers/tls-ca.ts'
import { ManualTimer } from '../monitors/scheduling.ts'
import { parseExposition, type Sample } from './samples.ts'

export const METRICS_TOKEN = 'metrics-token-0123456789abcdefghijklmnopq'
const HOUR_MS = 3_600_000

/** Real checks of 127.0.0.1 targets, trusting the test CA. */
const checkDeps = (): CheckDeps => ({
  guard: createAddressGuard({ resolve: async () => ['127.0.0.1'], allowPrivate: true }),
  clock: systemClock,
  trustedCa: testCa().ca,
})

export interface MetricsSetup {
  ctx: TestContext
  key: string
  scheduler: MonitorScheduler
  scrape(app?: { handle(request: Request): Promise<Response> | Response }): Promise<{ text: string; samples: Sample[] }>
  createMonitor(body: Record<string, unknown>): Promise<{ id: number }>
  /** Moves time past every monitor's interval (SSL monitors' 6 hours too) and runs what came due, once. */
  runAll(): Promise<void>
}

export async function setUpMetrics(env: Record<string, string> = {}): Promise<MetricsSetup> {
  const ctx = await createTestContext({ env: { METRICS_TOKEN, MONITOR_PRIVATE_TARGETS: '1', ...env }, checkDeps: checkDeps() })
  const { key } = await ctx.createOwner('enterprise')
  const services = ctx.app.services
  const scheduler = new MonitorScheduler({
    repo: services.monitorsRepo,
    recorder: services.monitorRecorder,
    clock: ctx.clock,
    checkDeps: services.checkDeps,
    timer: new ManualTimer(ctx.clock),
    observer: services.metrics!.monitors.schedulerObserver,
    onError: (error) => {
      throw error
    },
  })
  return {
    ctx,
    key,
    scheduler,
    async scrape(app = ctx.app) {
      const response = await app.handle(new Request(`${ctx.config.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
      expect(response.status).toBe(200)
      const text = await response.text()
      return { text, samples: parseExposition(text) }
    },
    async createMonitor(body) {
      const response = await ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { retries: 0, ...body } })
      if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`)
      return (await json(response)).data
    },
    async runAll() {
      await scheduler.tick()
      ctx.clock.advance(7 * HOUR_MS)
      await scheduler.tick()
      await scheduler.settle()
    },
  }
}
