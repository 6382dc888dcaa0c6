import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../../src/config.ts'
import { openDatabase } from '../../../src/db/client.ts'
import { startServer, type RunningServer } from '../../../src/main.ts'

const CLI = join(import.meta.dir, '../../../src/cli.ts')
let dir: string
let server: RunningServer
let databasePath: string
let key: string
let pageId: number

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-backup-'))
  databasePath = join(dir, 'lantern.sqlite')
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: databasePath })
  server = await startServer(config)
  const user = await server.app.services.accounts.createUser({ email: 'backup@example.com', password: 'correct horse battery' })
  key = (await server.app.services.accounts.createApiKey(user.id, 'test')).key
  const created = await fetch(`${server.url}user/api/v1/status-pages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ slug: 'backup-test', name: 'Backup' }),
  })
  pageId = ((await created.json()) as { data: { id: number } }).data.id
})

afterAll(async () => {
  await server.stop()
  rmSync(dir, { recursive: true, force: true })
})

const cli = (args: string[]) =>
  Bun.spawn(['bun', CLI, ...args], { env: { ...process.env, DATABASE_PATH: databasePath }, stdout: 'pipe', stderr: 'pipe' })

test('a backup taken during a write load is a sound database holding every acknowledged write', async () => {
  const acknowledged: string[] = []
  let running = true
  const writer = async (n: number) => {
    for (let i = 0; running; i++) {
      const name = `w${n}-${i}`
      const response = await fetch(`${server.url}user/api/v1/status-pages/${pageId}/components`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      })
      if (response.status !== 201) throw new Error(`write failed: ${response.status} ${await response.text()}`)
      acknowledged.push(name)
    }
  }
  // Failures are collected (not left unhandled) and asserted below.
  const failures: unknown[] = []
  const writers = [writer(1), writer(2), writer(3)].map((p) => p.catch((error: unknown) => void failures.push(error)))
  while (acknowledged.length < 60 && failures.length === 0) await Bun.sleep(5)

  const before = [...acknowledged]
  const target = join(dir, 'copy.sqlite')
  const backup = cli(['backup', target])
  const [code, out, err] = await Promise.all([backup.exited, new Response(backup.stdout).text(), new Response(backup.stderr).text()])
  const duringBackup = acknowledged.length - before.length
  running = false
  await Promise.all(writers)
  expect(failures).toEqual([])
  expect(err).toBe('')
  expect(code).toBe(0)
  const report = JSON.parse(out)
  expect(report).toMatchObject({ file: target, integrity: 'ok' })
  expect(report.bytes).toBeGreaterThan(0)
  // The server kept accepting writes while the backup ran.
  expect(duringBackup).toBeGreaterThan(0)

  const copy = new Database(target, { readonly: true })
  try {
    expect(copy.query('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }])
    const names = new Set(copy.query<{ name: string }, []>('SELECT name FROM components').all().map((row) => row.name))
    const missing = before.filter((name) => !names.has(name))
    expect(missing).toEqual([])
    // Nothing in the copy that was never written.
    for (const name of names) expect(acknowledged).toContain(name)
  } finally {
    copy.close()
  }

  // The copy is a working Lantern database.
  const reopened = openDatabase(target)
  const row = await reopened.db.selectFrom('status_pages').select('slug').executeTakeFirst()
  expect(row?.slug).toBe('backup-test')
  await reopened.close()
})

test('backup refuses to overwrite, a missing database, and bad arguments; one line on stderr, exit 1', async () => {
  const existing = join(dir, 'exists.sqlite')
  await Bun.write(existing, 'keep me')
  const cases: [string[], Record<string, string>, string][] = [
    [['backup', existing], {}, 'already exists'],
    [['backup'], {}, 'usage: lantern backup FILE'],
    [['backup', 'a', 'b'], {}, 'usage: lantern backup FILE'],
    [['backup', join(dir, 'new.sqlite')], { DATABASE_PATH: join(dir, 'missing.sqlite') }, 'does not exist'],
    [['backup', databasePath], {}, 'must not be the database itself'],
  ]
  for (const [args, env, message] of cases) {
    const proc = Bun.spawn(['bun', CLI, ...args], { env: { ...process.env, DATABASE_PATH: databasePath, ...env }, stdout: 'pipe', stderr: 'pipe' })
    const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
    expect([args.join(' '), code]).toEqual([args.join(' '), 1])
    expect(err.trim().split('\n')).toHaveLength(1)
    expect(err).toContain(message)
  }
  expect(await Bun.file(existing).text()).toBe('keep me')
  expect(existsSync(join(dir, 'missing.sqlite'))).toBe(false)
})
