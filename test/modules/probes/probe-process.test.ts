/**
 * A probe in a second "region" process feeding results (issue 17): a real listening server with
 * its scheduler (region local), and `bun src/cli.ts probe --region eu …` spawned with no database
 * at all. One HTTP target on 127.0.0.1 answers each region as the test says (it tells them apart by
 * their User-Agent). A monitor in ["local", "eu"] with k = 2:
 *   only eu failing → eu shown down, the monitor stays up;
 *   both failing → the monitor is down and so is its component;
 *   the eu probe killed → eu shown stale after the staleness window (3 intervals).
 * Outcomes are polled; the monitor's interval is short (2 s, written into its row: the API's floor is 30 s).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp, type App } from '../../../src/app.ts'
import { loadConfig } from '../../../src/config.ts'
import { systemClock } from '../../../src/lib/clock.ts'
import { MonitorScheduler } from '../../../src/modules/monitors/run/scheduler.ts'
import { freshTestDatabase, type TestDatabase } from '../../helpers/database.ts'
import { fastTestHasher } from '../../helpers/password.ts'
import { sharedClockEnv } from '../../helpers/shared-clock.ts'

const CLI = join(import.meta.dir, '../../../src/cli.ts')
const INTERVAL_S = 2

let dir: string
let database: TestDatabase
let app: App
let server: ReturnType<typeof Bun.serve>
let target: ReturnType<typeof Bun.serve>
let scheduler: MonitorScheduler
let base: string
let key: string
const failing = { local: false, eu: false }
const seen = { local: 0, eu: 0 }

async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: T | undefined
  for (;;) {
    last = await read()
    if (ok(last)) return last
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`)
    await Bun.sleep(50)
  }
}

const api = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers ?? {}) } })
  return (await response.json()) as any
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-probe-'))
  database = await freshTestDatabase(dir)
  let handle: (request: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 })
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', development: false, fetch: (request) => handle(request) })
  base = `http://127.0.0.1:${server.port}`
  const config = loadConfig({ BASE_URL: base, STATUS_DOMAIN: `status.${server.port}.test`, MONITOR_PRIVATE_TARGETS: '1', RATE_LIMIT: '0', ...database.env })
  app = createApp({ db: database.handle.db, config, clock: systemClock, passwords: fastTestHasher, logError: (error) => console.error(error) })
  handle = (request) => app.handle(request)
  // The target: fails for a region while the test says so (the server's runs and the probe's differ in User-Agent).
  target = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => {
      const region = (request.headers.get('user-agent') ?? '').includes('(probe eu') ? 'eu' : 'local'
      seen[region]++
      return new Response(failing[region] ? 'down' : 'OK', { status: failing[region] ? 503 : 200 })
    },
  })
})

afterAll(async () => {
  await scheduler?.stop({ abandon: true })
  target?.stop(true)
  await server?.stop(true)
  await app?.services.outboxWorker.stop(0)
  await database?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

describe('a probe in a second region process', () => {
  test('k = 2 of [local, eu]: eu alone down keeps it up; both down make it and its component down; a killed probe turns stale', async () => {
    const services = app.services
    const user = await services.accounts.createUser({ email: 'probe-e2e@example.com', password: 'correct horse battery', plan: 'enterprise' })
    key = (await services.accounts.createApiKey(user.id, 'e2e')).key
    const page = await api('/user/api/v1/status-pages', { method: 'POST', body: JSON.stringify({ slug: 'probe-e2e', name: 'Probe E2E' }) })
    const component = await api(`/user/api/v1/status-pages/${page.data.id}/components`, { method: 'POST', body: JSON.stringify({ name: 'Website' }) })
    const token = (await services.probes.createToken('eu')).token
    const created = await api('/user/api/v1/monitors', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Website from two places',
        type: 'http',
        target: `http://127.0.0.1:${target.port}/health`,
        component_id: component.data.id,
        regions: ['local', 'eu'],
        regions_required_down: 2,
        retries: 0,
        confirm_failures: 1,
        confirm_successes: 1,
        timeout_ms: 1000,
      }),
    })
    expect(created.data).toMatchObject({ regions: ['local', 'eu'], regions_required_down: 2 })
    const id = created.data.id as number
    // A short interval, below the API's floor: straight into the row, before anyone schedules it.
    await database.handle.db.updateTable('monitors').set({ interval_s: INTERVAL_S, next_run_at: Date.now() }).where('id', '=', id).execute()

    scheduler = new MonitorScheduler({ repo: services.monitorsRepo, recorder: services.monitorRecorder, clock: systemClock, checkDeps: services.checkDeps, onError: (error) => console.error(error) })
    scheduler.start()
    // The probe: the same CLI, no DATABASE_PATH or DATABASE_URL, only the server's URL and its token.
    const probe = Bun.spawn([process.execPath, CLI, 'probe', '--region', 'eu', '--server', base, '--pull-seconds', '1'], {
      env: { PATH: process.env.PATH ?? '', ...sharedClockEnv(), LANTERN_PROBE_TOKEN: token, MONITOR_PRIVATE_TARGETS: '1' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    try {
      const regions = () => api(`/user/api/v1/monitors/${id}/regions`)
      const byRegion = (answer: any) => Object.fromEntries(answer.data.map((r: any) => [r.region, r]))
      const monitorState = async () => (await api(`/user/api/v1/monitors/${id}`)).data.state
      const componentStatus = async () => (await api(`/user/api/v1/components/${component.data.id}`)).data.status

      // Both regions report up.
      await until('both regions up', regions, (r) => r.data.every((x: any) => x.state === 'up' && !x.stale) && r.meta.state === 'up')
      expect(seen.eu).toBeGreaterThan(0)
      expect(seen.local).toBeGreaterThan(0)

      // Only eu fails: eu is down, the monitor (k = 2) stays up, and so does the component.
      failing.eu = true
      const euDown = await until('eu down', regions, (r) => byRegion(r).eu.state === 'down')
      expect(byRegion(euDown).eu).toMatchObject({ state: 'down', stale: false, last_outcome: 'fail' })
      expect(byRegion(euDown).local.state).toBe('up')
      expect(euDown.meta.state).toBe('up')
      // A few more runs of both: still up.
      const euRuns = seen.eu
      await until('two more eu runs', async () => seen.eu, (n) => n >= euRuns + 2)
      expect(await monitorState()).toBe('up')
      expect(await componentStatus()).toBe('up')

      // Both fail: the monitor is down, and its component follows.
      failing.local = true
      await until('monitor down', monitorState, (s) => s === 'down')
      await until('component down', componentStatus, (s) => s === 'down')
      const results = await api(`/user/api/v1/monitors/${id}/results?limit=50`)
      expect(new Set(results.data.map((r: any) => r.region))).toEqual(new Set(['local', 'eu']))

      // Both recover.
      failing.local = false
      failing.eu = false
      await until('monitor up again', monitorState, (s) => s === 'up')
      await until('eu up again', regions, (r) => byRegion(r).eu.state === 'up')

      // The probe is killed: eu goes stale after 3 intervals; local alone keeps the monitor up.
      probe.kill('SIGKILL')
      await probe.exited
      const stale = await until('eu stale', regions, (r) => byRegion(r).eu.stale === true, 20_000)
      expect(byRegion(stale).eu.state).toBe('up')
      expect(byRegion(stale).local.stale).toBe(false)
      expect(await monitorState()).toBe('up')
      // One log line per state of the link, not one per push.
      const log = await new Response(probe.stdout).text()
      expect(log.match(/probe eu: connected/g)?.length).toBe(1)
    } finally {
      if (probe.exitCode === null) probe.kill('SIGKILL')
    }
  }, 90_000)

  test('SIGTERM: the probe stops cleanly (exit 0) after pushing what it holds', async () => {
    const token = (await app.services.probes.createToken('eu')).token
    const probe = Bun.spawn([process.execPath, CLI, 'probe', '--region', 'eu', '--server', base, '--pull-seconds', '1'], {
      env: { PATH: process.env.PATH ?? '', ...sharedClockEnv(), LANTERN_PROBE_TOKEN: token, MONITOR_PRIVATE_TARGETS: '1' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    let out = ''
    const reading = (async () => {
      const decoder = new TextDecoder()
      const reader = probe.stdout.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        out += decoder.decode(value, { stream: true })
      }
    })()
    try {
      await until('the probe connected', async () => out, (text) => text.includes('probe eu: connected'))
      probe.kill('SIGTERM')
      expect(await probe.exited).toBe(0)
      await reading
      expect(out).toMatch(/probe eu: stopped \(\d+ results delivered, 0 left unsent, 0 dropped\)/)
    } finally {
      if (probe.exitCode === null) probe.kill('SIGKILL')
    }
  }, 30_000)

  test('wrong input: one line on stderr, exit 1, and no database needed', async () => {
    const probe = Bun.spawn([process.execPath, CLI, 'probe', '--region', 'local', '--server', base], { env: { PATH: process.env.PATH ?? '' }, stdout: 'pipe', stderr: 'pipe' })
    expect(await probe.exited).toBe(1)
    expect(await new Response(probe.stderr).text()).toContain('--region must be a region name')
  })
})
