import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../../src/config.ts'
import { openDatabase } from '../../../src/db/client.ts'
import { migrateToLatest } from '../../../src/db/migrate.ts'
import { createServices } from '../../../src/services.ts'

const CLI = join(import.meta.dir, '../../../src/cli.ts')
let dir: string
let base: string
let key: string
let supervisor: ReturnType<typeof Bun.spawn>
let output = ''
let errors = ''

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = probe.port!
  probe.stop(true)
  return port
}

/** A request on a new connection, so the kernel picks a worker afresh. */
const fresh = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, keepalive: false, headers: { ...(init.headers as Record<string, string>), connection: 'close' } })

/** Sends fresh requests until every worker has answered one; returns the last body per worker. */
async function perWorker(path: string, workers = 2, tries = 200): Promise<Map<string, string>> {
  const seen = new Map<string, string>()
  for (let i = 0; i < tries && seen.size < workers; i++) {
    const response = await fresh(path)
    seen.set(response.headers.get('x-lantern-worker') ?? '?', await response.text())
  }
  return seen
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-workers-'))
  const databasePath = join(dir, 'lantern.sqlite')
  const port = freePort()
  base = `http://127.0.0.1:${port}`
  const env = { PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: databasePath, BASE_URL: base, STATUS_DOMAIN: 'status.test', WORKERS: '2' }
  // An owner with a key, written to the file before the workers start.
  const database = openDatabase(databasePath)
  await migrateToLatest(database.db)
  const services = createServices({ db: database.db, config: loadConfig(env) })
  const user = await services.accounts.createUser({ email: 'workers@example.com', password: 'correct horse battery' })
  key = (await services.accounts.createApiKey(user.id, 'test')).key
  await database.close()

  supervisor = Bun.spawn(['bun', CLI, 'serve'], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  void (async () => {
    const reader = (supervisor.stdout as ReadableStream<Uint8Array>).getReader()
    for (let r = await reader.read(); !r.done; r = await reader.read()) output += new TextDecoder().decode(r.value)
  })()
  void (async () => {
    const reader = (supervisor.stderr as ReadableStream<Uint8Array>).getReader()
    for (let r = await reader.read(); !r.done; r = await reader.read()) errors += new TextDecoder().decode(r.value)
  })()
  // A bound for a hung start, not a speed test: a loaded machine starts two workers slowly.
  const startedAt = performance.now()
  while (performance.now() - startedAt < 60_000) {
    try {
      if ((await perWorker('/healthz', 2, 20)).size === 2) return
    } catch {}
    await Bun.sleep(100)
  }
  throw new Error(`workers did not start: ${output}`)
}, 90_000)

afterAll(async () => {
  supervisor?.kill('SIGTERM')
  await supervisor?.exited
  rmSync(dir, { recursive: true, force: true })
})

test('two workers share the port and the file; a change through one reaches the other cache within 2 s', async () => {
  const health = await perWorker('/healthz')
  expect([...health.keys()].sort()).toEqual(['1', '2'])
  const created = await fresh('/user/api/v1/status-pages', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ slug: 'multi', name: 'Multi' }),
  })
  expect(created.status).toBe(201)
  const { id } = ((await created.json()) as { data: { id: number } }).data

  // Both workers now hold the snippets in their caches (TTL 5 minutes).
  const before = await perWorker('/api/embed/markdown?slug=multi')
  expect(before.size).toBe(2)
  for (const body of before.values()) expect(JSON.parse(body).status_page_url).toBe('http://multi.status.test')

  // One worker takes the change (and drops its own entry at once) ...
  const patched = await fresh(`/user/api/v1/status-pages/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ visibility: 'private' }),
  })
  expect(patched.status).toBe(200)
  const changedAt = performance.now()
  const changedBy = patched.headers.get('x-lantern-worker')
  expect(changedBy === '1' || changedBy === '2').toBe(true)

  // ... and the other notices through PRAGMA data_version polling.
  const caughtUp = new Map<string, number>()
  while (caughtUp.size < 2 && performance.now() - changedAt < 3000) {
    const response = await fresh('/api/embed/markdown?slug=multi')
    const worker = response.headers.get('x-lantern-worker')!
    // A private page has no public snippets.
    if (response.status === 404 && !caughtUp.has(worker)) caughtUp.set(worker, performance.now() - changedAt)
    await response.body?.cancel()
    await Bun.sleep(20)
  }
  expect([...caughtUp.keys()].sort()).toEqual(['1', '2'])
  for (const ms of caughtUp.values()) expect(ms).toBeLessThan(2000)
})

test('a worker that dies is restarted', async () => {
  const children = Bun.spawnSync(['ps', '-o', 'pid=', '--ppid', String(supervisor.pid)]).stdout.toString().trim().split(/\s+/).map(Number)
  expect(children).toHaveLength(2)
  process.kill(children[0]!, 'SIGKILL')
  const startedAt = performance.now()
  let seen = new Map<string, string>()
  while (performance.now() - startedAt < 20000) {
    // Connections the kernel had queued for the killed worker are reset: that is expected here.
    seen = await perWorker('/healthz', 2, 20).catch(() => new Map<string, string>())
    const now = Bun.spawnSync(['ps', '-o', 'pid=', '--ppid', String(supervisor.pid)]).stdout.toString().trim().split(/\s+/).map(Number)
    if (seen.size === 2 && now.length === 2 && !now.includes(children[0]!)) break
    await Bun.sleep(100)
  }
  expect([...seen.keys()].sort()).toEqual(['1', '2'])
  expect(output + errors).toContain('restarting it')
})

test('SIGTERM to the supervisor stops every worker', async () => {
  supervisor.kill('SIGTERM')
  expect(await supervisor.exited).toBe(0)
  expect(output).toContain('lantern worker 1: listening')
  expect(output).toContain('lantern worker 2: listening')
  await expect(fresh('/healthz')).rejects.toThrow()
})
