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
      body: JSON.stringify(body),
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
})
