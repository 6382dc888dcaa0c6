/**
 * Host headers as they arrive on the wire. Bun builds `request.url` from the Host header, so a
 * malformed one reaches the app as a URL that does not parse. These requests are written by hand
 * over raw TCP to a listening server (its edge and request log included): each must be a 400 (or
 * the service host's answer when there is no Host at all), and none may be logged as an error.
 */
import { afterAll, beforeAll, expect, spyOn, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { startServer, type RunningServer } from '../../src/main.ts'

let dir: string
let server: RunningServer
const logLines: string[] = []
const errors: unknown[][] = []
let errorSpy: ReturnType<typeof spyOn>

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-wire-'))
  errorSpy = spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args))
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    BASE_URL: 'http://lantern.test',
    STATUS_DOMAIN: 'status.test',
    DATABASE_PATH: join(dir, 'lantern.sqlite'),
    REQUEST_LOG: '1',
  })
  server = await startServer(config, { log: (line) => logLines.push(line) })
  const user = await server.app.services.accounts.personalTeamOwner(await server.app.services.accounts.createUser({ email: 'wire@example.com', password: 'a-long-password', plan: 'enterprise' }))
  await server.app.services.pages.create(user, { slug: 'wire', name: 'Wire' })
})
afterAll(async () => {
  await server.stop()
  errorSpy.mockRestore()
  rmSync(dir, { recursive: true, force: true })
})

/** Sends `head` (request line and headers, CRLF-separated, no final blank line) and reads until the server closes. */
function raw(head: string, body = '', port = server.port): Promise<{ statusLine: string; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`))
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1')
      const split = text.indexOf('\r\n\r\n')
      const headers = split === -1 ? text : text.slice(0, split)
      resolve({ statusLine: headers.split('\r\n')[0] ?? '', headers: headers.toLowerCase(), body: split === -1 ? '' : text.slice(split + 4) })
    })
    socket.setTimeout(5_000, () => socket.destroy(new Error('timed out')))
  })
}

const BAD_HOSTS = ['a:abc', '[::1', 'user@x', 'x:99999', 'x:65536', 'x:-1', ':80', '%00', 'xn--', 'a b', 'x/y', 'x?y', 'x#y', 'é.com', 'wire.status.test:abc', 'lantern.test:70000']

test('a malformed Host header is a 400 on any path, never a 500, and nothing is logged as an error', async () => {
  const seen: string[] = []
  for (const host of BAD_HOSTS) {
    for (const path of ['/', '/healthz', '/api/v2/summary.json', '/user/login', '/badge/wire.svg']) {
      const answer = await raw(`GET ${path} HTTP/1.1\r\nHost: ${host}`)
      seen.push(`${host} ${path} -> ${answer.statusLine}`)
      expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
      expect(answer.headers).toContain('cache-control: no-store')
      expect(JSON.parse(answer.body)).toEqual({ error: 'the Host header is not a valid host' })
    }
  }
  // A form post too: the body is never read.
  const post = await raw('POST /user/login HTTP/1.1\r\nHost: a:abc\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 7', 'email=x')
  expect(post.statusLine).toBe('HTTP/1.1 400 Bad Request')
  expect(seen.length).toBe(BAD_HOSTS.length * 5)
  expect(errors).toEqual([])
})

test('two Host headers are a 400 (RFC 9112 §3.2), even when they agree', async () => {
  for (const hosts of [['lantern.test', 'evil.test'], ['lantern.test', 'lantern.test'], ['wire.status.test', 'lantern.test']]) {
    const answer = await raw(`GET /healthz HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}`).join('\r\n')}`)
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(JSON.parse(answer.body)).toEqual({ error: 'a request must have exactly one Host header' })
  }
  expect(errors).toEqual([])
})

test('the cache fast lane (request log off) checks the Host header first too', async () => {
  const fast = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', BASE_URL: 'http://lantern.test', STATUS_DOMAIN: 'status.test', DATABASE_PATH: join(dir, 'fast.sqlite') }))
  try {
    const user = await fast.app.services.accounts.personalTeamOwner(await fast.app.services.accounts.createUser({ email: 'fast@example.com', password: 'a-long-password', plan: 'enterprise' }))
    await fast.app.services.pages.create(user, { slug: 'fast', name: 'Fast' })
    const ask = (hosts: string) => raw(`GET /api/embed/status?slug=fast HTTP/1.1\r\n${hosts}`, '', fast.port)
    // Twice: the second answer is a cache hit.
    expect((await ask('Host: lantern.test')).statusLine).toBe('HTTP/1.1 200 OK')
    expect((await ask('Host: lantern.test')).statusLine).toBe('HTTP/1.1 200 OK')
    expect((await ask('Host: lantern.test\r\nHost: lantern.test')).statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect((await ask('Host: lantern.test:99999')).statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect((await raw('GET /api/embed/status?slug=fast HTTP/1.0', '', fast.port)).statusLine).toMatch(/^HTTP\/1\.[01] 200 /)
  } finally {
    await fast.stop()
  }
  expect(errors).toEqual([])
})

test('HTTP/1.0 without Host gets the service host\'s answer', async () => {
  const health = await raw('GET /healthz HTTP/1.0')
  expect(health.statusLine).toMatch(/^HTTP\/1\.[01] 200 /)
  expect(JSON.parse(health.body)).toEqual({ status: 'ok' })
  const missing = await raw('GET /no-such-path HTTP/1.0')
  expect(missing.statusLine).toMatch(/^HTTP\/1\.[01] 404 /)
  expect(JSON.parse(missing.body)).toEqual({ error: 'not found' })
  // An empty Host (a request target without authority) is the same as none.
  const empty = await raw('GET /healthz HTTP/1.1\r\nHost: ')
  expect(empty.statusLine).toBe('HTTP/1.1 200 OK')
  expect(errors).toEqual([])
})

test('well-formed hosts still reach their site, and every request is logged with its host', async () => {
  logLines.length = 0
  const page = await raw('GET / HTTP/1.1\r\nHost: WIRE.status.test:8080')
  expect(page.statusLine).toBe('HTTP/1.1 200 OK')
  expect(page.body).toContain('<h1>Wire</h1>')
  const service = await raw('GET /healthz HTTP/1.1\r\nHost: lantern.test')
  expect(service.statusLine).toBe('HTTP/1.1 200 OK')
  const ipv6 = await raw('GET /healthz HTTP/1.1\r\nHost: [::1]:80')
  expect(ipv6.statusLine).toBe('HTTP/1.1 200 OK')
  const bad = await raw('GET /healthz?token=secret HTTP/1.1\r\nHost: a:abc')
  expect(bad.statusLine).toBe('HTTP/1.1 400 Bad Request')
  const entries = logLines.map((line) => JSON.parse(line))
  expect(entries.map((e) => [e.host, e.path, e.status])).toEqual([
    ['wire.status.test:8080', '/', 200],
    ['lantern.test', '/healthz', 200],
    ['[::1]:80', '/healthz', 200],
    ['a:abc', '/healthz', 400],
  ])
  expect(errors).toEqual([])
})
