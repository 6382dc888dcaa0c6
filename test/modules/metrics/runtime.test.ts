/**
 * Process and runtime figures: prom-client is never loaded without METRICS_TOKEN (a real server in
 * a process of its own says so), and with it the kept defaults carry real values while the ones left
 * out under Bun are absent.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { LEFT_OUT_DEFAULT_METRICS } from '../../../src/modules/metrics/runtime.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { METRICS_TOKEN } from './metrics-setup.ts'
import { familiesOf, parseExposition, valueOf } from './samples.ts'

async function serverProcess(env: Record<string, string>): Promise<{ loaded: boolean; status: number; residentMemory: string | null }> {
  const { METRICS_TOKEN: _, ...inherited } = process.env
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, 'fixtures', 'library-loaded.ts')], { env: { ...inherited, ...env }, stdout: 'pipe', stderr: 'inherit' })
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
  expect(code).toBe(0)
  return JSON.parse(out.trim().split('\n').at(-1)!)
}

describe('loading', () => {
  test('without METRICS_TOKEN the server never loads prom-client, and /metrics is 404', async () => {
    expect(await serverProcess({})).toEqual({ loaded: false, status: 404, residentMemory: null })
  })

  test('with METRICS_TOKEN it does, and the scrape carries the process figures', async () => {
    const result = await serverProcess({ METRICS_TOKEN })
    expect(result.loaded).toBe(true)
    expect(result.status).toBe(200)
    expect(Number(result.residentMemory)).toBeGreaterThan(1_000_000)
  })
})

describe('the figures', () => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext({ env: { METRICS_TOKEN } })
  })
  afterAll(() => ctx.close())

  test('kept defaults carry real values; those left out under Bun are absent', async () => {
    // Something to measure: a little CPU and a turn of the event loop.
    let spin = 0
    for (let i = 0; i < 1e6; i++) spin += i
    expect(spin).toBeGreaterThan(0)
    await ctx.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    const text = await (await ctx.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
    const samples = parseExposition(text)
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_virtual_memory_bytes', 'process_open_fds', 'process_max_fds', 'process_start_time_seconds', 'nodejs_heap_size_total_bytes', 'nodejs_heap_size_used_bytes']) {
      expect(valueOf(samples, name)).toBeGreaterThan(0)
    }
    expect(valueOf(samples, 'process_start_time_seconds')).toBeLessThanOrEqual(Date.now() / 1000)
    expect(familiesOf(text).has('nodejs_eventloop_lag_p99_seconds')).toBe(true)
    const families = familiesOf(text)
    expect(Object.keys(LEFT_OUT_DEFAULT_METRICS).filter((name) => families.has(name))).toEqual([])
    expect(valueOf(samples, 'lantern_build_info', { bun: Bun.version })).toBe(1)
  })
})
