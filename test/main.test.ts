import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/config.ts'
import { startServer } from '../src/main.ts'
import { testZone } from './helpers/dns-zone.ts'

const MAIN = join(import.meta.dir, '../src/main.ts')
let dir: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-main-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const deadline = Date.now() + timeoutMs
  while (!pattern.test(text)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; got: ${text}`)
    const { value, done } = await reader.read()
    if (done) break
    text += decoder.decode(value)
  }
  reader.releaseLock()
  return text
}

describe('the server process', () => {
  test('starts on its defaults in a fresh folder (creates the database), serves, and exits cleanly on SIGTERM', async () => {
    const databasePath = join(dir, 'fresh', 'lantern.sqlite')
    const proc = Bun.spawn([process.execPath, MAIN], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: databasePath },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const started = await readUntil(proc.stdout, /listening on 127\.0\.0\.1:(\d+)/)
    const port = /listening on 127\.0\.0\.1:(\d+)/.exec(started)![1]
    const health = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(await health.json()).toEqual({ status: 'ok' })
    expect(await Bun.file(databasePath).exists()).toBe(true)
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
    expect(await readUntil(proc.stdout, /SIGTERM received/)).toContain('SIGTERM received')
  })

  test('a bad variable stops the start with one line naming it', async () => {
    const proc = Bun.spawn([process.execPath, MAIN], {
      env: { PATH: process.env.PATH ?? '', PORT: 'eighty' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(await proc.exited).toBe(1)
    expect((await new Response(proc.stderr).text()).trim()).toBe('lantern: PORT must be an integer from 0 to 65535 (0 picks a free port), got "eighty"')
  })
})

test('stop() lets requests in flight finish, then refuses new connections', async () => {
  const running = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'graceful.sqlite') }))
  const base = `http://127.0.0.1:${running.port}`
  const { accounts } = running.app.services
  const user = await accounts.createUser({ email: 'g@example.com', password: 'a-long-password' })
  const { key } = await accounts.createApiKey(user.id, 'test')
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  const page = await (await fetch(`${base}/user/api/v1/status-pages`, { method: 'POST', headers, body: JSON.stringify({ slug: 'g', name: 'G' }) })).json()
  const component = await (
    await fetch(`${base}/user/api/v1/status-pages/${page.data.id}/components`, { method: 'POST', headers, body: JSON.stringify({ name: 'C' }) })
  ).json()

  // Ten imports of 5 000 entries each: SQLite takes them one at a time, so most are still running when stop() is called.
  const imports = Array.from({ length: 10 }, (_, batch) =>
    fetch(`${base}/user/api/v1/components/${component.data.id}/history`, {
      method: 'POST',
      headers,
      body: JSON.stringify(
        Array.from({ length: 5000 }, (_, i) => ({ status: i % 2 ? 'up' : 'down', at: new Date(Date.UTC(2020, 0, 1) + (batch * 5000 + i) * 1000).toISOString() })),
      ),
    }),
  )
  // Once the first import has answered, the other nine are on the server (SQLite takes them in turn):
  // a fixed sleep could call stop() before a loaded machine had even sent them.
  await Promise.race(imports)
  const stopped = running.stop()
  const responses = await Promise.all(imports)
  await stopped
  expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200))
  for (const response of responses) expect((await response.json()).data.imported).toBe(5000)
  expect(fetch(`${base}/healthz`)).rejects.toThrow()
})

test('the server that runs the jobs checks custom domains as it starts: a domain that resolves here is linked', async () => {
  const env = { PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'domains.sqlite'), BASE_URL: 'http://lantern.test', STATUS_DOMAIN: 'status.test' }
  // Set up by a server that checks nothing (a second worker, say).
  const first = await startServer(loadConfig(env), { monitors: false, dns: testZone() })
  const user = await first.app.services.accounts.personalTeamOwner(await first.app.services.accounts.createUser({ email: 'd@example.com', password: 'a-long-password', plan: 'growth' }))
  const page = await first.app.services.pages.create(user, { slug: 'dom', name: 'Dom', custom_domain: 'status.dom.example' })
  expect(page.customDomainState).toBe('pending')
  await first.stop()

  const zone = testZone()
  zone.cnames.set('status.dom.example', ['dom.status.test'])
  const running = await startServer(loadConfig(env), { dns: zone })
  try {
    const snippets = async () =>
      ((await (await fetch(`http://127.0.0.1:${running.port}/api/embed/markdown?slug=dom`, { headers: { host: 'lantern.test' } })).json()) as { status_page_url: string }).status_page_url
    let url = await snippets()
    for (let i = 0; i < 400 && url !== 'http://status.dom.example'; i++) {
      await Bun.sleep(25)
      url = await snippets()
    }
    expect(url).toBe('http://status.dom.example')
  } finally {
    await running.stop()
  }
})
