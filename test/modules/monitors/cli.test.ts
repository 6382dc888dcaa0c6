/** `lantern monitor …` through the same services as the API, on a real database file. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../../src/cli.ts'

let dir: string
let env: Record<string, string>
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-monitor-cli-'))
  env = { DATABASE_PATH: join(dir, 'cli.sqlite'), BASE_URL: 'https://lantern.test' }
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function cli(...args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(args, env, { out: (line) => out.push(line), err: (line) => err.push(line) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

test('create, list, pause, resume, delete; bad input is one line and exit 1', async () => {
  expect((await cli('user', 'create', '--email', 'ops@example.com', '--password', 'a-long-password', '--plan', 'pro')).code).toBe(0)
  const created = await cli('monitor', 'create', '--email', 'ops@example.com', '--name', 'Site', '--type', 'keyword', '--target', 'https://example.com/', '--interval', '60', '--options', '{"keyword":"Welcome"}')
  expect(created.code).toBe(0)
  const monitor = JSON.parse(created.out)
  expect(monitor).toMatchObject({ name: 'Site', type: 'keyword', interval_seconds: 60, options: { keyword: 'Welcome' }, state: 'pending' })
  const push = JSON.parse((await cli('monitor', 'create', '--email', 'ops@example.com', '--name', 'Cron', '--type', 'push')).out)
  expect(push.push_url).toMatch(/^https:\/\/lantern\.test\/api\/push\//)

  const list = await cli('monitor', 'list', '--email', 'ops@example.com')
  expect(list.out.split('\n').map((l) => JSON.parse(l).name)).toEqual(['Site', 'Cron'])
  expect(JSON.parse((await cli('monitor', 'pause', '--email', 'ops@example.com', '--id', String(monitor.id))).out).state).toBe('paused')
  expect(JSON.parse((await cli('monitor', 'resume', '--email', 'ops@example.com', '--id', String(monitor.id))).out).state).toBe('pending')
  expect(JSON.parse((await cli('monitor', 'delete', '--email', 'ops@example.com', '--id', String(monitor.id))).out)).toEqual({ id: monitor.id, deleted: true })

  const bad = await cli('monitor', 'create', '--email', 'ops@example.com', '--name', 'x', '--type', 'http', '--target', 'http://127.0.0.1/')
  expect(bad.code).toBe(1)
  expect(bad.err).toMatch(/^lantern: target: /)
  expect((await cli('monitor', 'pause', '--email', 'ops@example.com', '--id', 'abc')).err).toBe('lantern: --id must be a positive integer')
  expect((await cli('monitor', 'create', '--email', 'ops@example.com', '--name', 'x', '--type', 'http', '--options', '[')).code).toBe(1)
})
