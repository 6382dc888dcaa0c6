/**
 * Two app servers on one PostgreSQL database (issue 17): a write through one server empties the
 * other's cached answers through LISTEN/NOTIFY. Runs when LANTERN_TEST_POSTGRES names a server (CI
 * starts one); without it there is no PostgreSQL to run on and the file is skipped.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { startServer, type RunningServer } from '../../src/main.ts'
import { freshTestDatabase, testPostgresServer, type TestDatabase } from '../helpers/database.ts'
import { runCliProcess } from '../helpers/cli.ts'

const onPostgres = describe.skipIf(!testPostgresServer)

onPostgres('two app servers on one PostgreSQL database', () => {
  let dir: string
  let database: TestDatabase
  let a: RunningServer
  let b: RunningServer
  let key: string
  let componentId: number

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lantern-pg-servers-'))
    database = await freshTestDatabase(dir)
    const env = { ...database.env, PORT: '0', HOST: '127.0.0.1', BASE_URL: 'http://lantern.test', STATUS_DOMAIN: 'status.test' }
    a = await startServer(loadConfig(env), { monitors: false })
    b = await startServer(loadConfig(env), { monitors: false })
    const user = await a.app.services.accounts.createUser({ email: 'two@example.com', password: 'correct horse battery', plan: 'pro' })
    key = (await a.app.services.accounts.createApiKey(user.id, 'test')).key
    const page = await api(a, '/status-pages', 'POST', { slug: 'twin', name: 'Twin' })
    componentId = (await api(a, `/status-pages/${page.id}/components`, 'POST', { name: 'API' })).id
  })
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await database?.dispose()
    rmSync(dir, { recursive: true, force: true })
  })

  async function api(server: RunningServer, path: string, method: string, body: unknown) {
    const response = await fetch(`${server.url}user/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', host: 'lantern.test' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: any }).data
  }

  const badgeTitle = async (server: RunningServer) => {
    const svg = await (await fetch(`${server.url}badge/twin.svg`, { headers: { host: 'lantern.test' } })).text()
    return /<title>([^<]*)<\/title>/.exec(svg)?.[1] ?? ''
  }

  test('an edit through server A changes the badge cached on server B (p50 of 10 edits within 50 ms)', async () => {
    const statuses = ['down', 'up'] as const
    const delays: number[] = []
    expect(await badgeTitle(b)).toBe('Twin: Operational')
    for (let i = 0; i < 10; i++) {
      const status = statuses[i % 2]!
      expect(await badgeTitle(b)).toBe(status === 'down' ? 'Twin: Operational' : 'Twin: Down') // cached on B
      await api(a, `/components/${componentId}`, 'PATCH', { status })
      const written = performance.now()
      const wanted = status === 'down' ? 'Twin: Down' : 'Twin: Operational'
      while ((await badgeTitle(b)) !== wanted) {
        if (performance.now() - written > 2_000) throw new Error(`server B still shows the old badge after 2 s (edit ${i})`)
        await Bun.sleep(1)
      }
      delays.push(performance.now() - written)
    }
    delays.sort((x, y) => x - y)
    console.log(`cross-server invalidation: p50 ${delays[4]!.toFixed(1)} ms, max ${delays[9]!.toFixed(1)} ms`)
    expect(delays[4]!).toBeLessThanOrEqual(50)
  })

  /** What server B says about the page on each public surface (one status vocabulary). */
  async function onB() {
    const get = (path: string, host = 'lantern.test') => fetch(`${b.url}${path.slice(1)}`, { headers: { host } })
    const svg = await (await get('/badge/twin.svg')).text()
    return {
      badge: /<title>([^<]*)<\/title>/.exec(svg)?.[1],
      widget: ((await (await get('/api/embed/status?slug=twin')).json()) as { overall: string }).overall,
      v2: ((await (await get('/api/v2/status.json', 'twin.status.test')).json()) as { status: { indicator: string } }).status.indicator,
    }
  }

  async function until<T>(read: () => Promise<T>, wanted: T, what: string) {
    const started = performance.now()
    for (;;) {
      const seen = await read()
      if (JSON.stringify(seen) === JSON.stringify(wanted)) return
      if (performance.now() - started > 2_000) throw new Error(`${what}: server B still shows ${JSON.stringify(seen)} after 2 s`)
      await Bun.sleep(5)
    }
  }

  test("a monitor's result recorded by server A reaches server B's cached badge, status JSON and v2 JSON", async () => {
    const monitor = await api(a, '/monitors', 'POST', { name: 'Job', type: 'push', interval_seconds: 3600, component_id: componentId })
    const push = (status: string) => fetch(`${a.url}${new URL(monitor.push_url).pathname.slice(1)}?status=${status}`, { headers: { host: 'lantern.test' } })
    expect((await push('up')).status).toBe(200)
    await until(onB, { badge: 'Twin: Operational', widget: 'operational', v2: 'none' }, 'before')
    await onB() // cached on B
    for (let i = 0; i < 5 && (await api(a, `/components/${componentId}`, 'GET', undefined)).status !== 'down'; i++) expect((await push('down')).status).toBe(200)
    await until(onB, { badge: 'Twin: Down', widget: 'major_outage', v2: 'critical' }, 'after the monitor went down')
    for (let i = 0; i < 5 && (await api(a, `/components/${componentId}`, 'GET', undefined)).status !== 'up'; i++) expect((await push('up')).status).toBe(200)
    await until(onB, { badge: 'Twin: Operational', widget: 'operational', v2: 'none' }, 'after it came back')
    await api(a, `/monitors/${monitor.id}`, 'DELETE', undefined)
  })

  test("the CLI's writes (another process, no server) reach both servers' caches", async () => {
    await until(() => badgeTitle(b), 'Twin: Operational', 'before')
    const blocked = await runCliProcess(['page', 'block', '--slug', 'twin'], database.env)
    expect(blocked.code).toBe(0)
    await until(() => badgeTitle(b), 'Status: Unknown', 'after lantern page block')
    expect((await runCliProcess(['page', 'unblock', '--slug', 'twin'], database.env)).code).toBe(0)
    await until(() => badgeTitle(b), 'Twin: Operational', 'after lantern page unblock')
  })
})
