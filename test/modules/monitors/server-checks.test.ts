/**
 * The server kinds against real servers on loopback: Redis (redis-server), PostgreSQL (the test
 * server, when LANTERN_TEST_POSTGRES names one), WebSocket (Bun.serve) and SMTP (smtp-server), each
 * through the address guard to the checked address.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { runCheck, type MonitorSpec } from '../../../src/modules/monitors/kinds/index.ts'
import { encodeCommand } from '../../../src/modules/monitors/kinds/redis.ts'
import { testPostgresServer } from '../../helpers/database.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { testCa } from '../../helpers/tls-ca.ts'
import { makeTestPki, testDeps } from './fixtures.ts'

const names = { 'cache.test': ['127.0.0.1'], 'db.test': ['127.0.0.1'], 'ws.test': ['127.0.0.1'], 'mail.test': ['127.0.0.1'], localhost: ['127.0.0.1'] }
const deps = () => testDeps({ allowPrivate: ['127.0.0.1/32'], names, trustedCa: testCa().ca })
const refusing = () => testDeps({ allowPrivate: false, names })

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

/**
 * The environment without libfaketime (CI's late-evening pass preloads it into every process it
 * starts): a Redis whose clock is faked stops serving, and only Lantern's clock is under test.
 */
function realClockEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !/^(LD_PRELOAD|FAKETIME|DYLD_)/.test(entry[0])))
}

/** Polls until `ready` holds (a server starting), never a fixed sleep. */
async function until(ready: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if (await ready()) return
    await Bun.sleep(25)
  }
  throw new Error(`${what} not ready within ${timeoutMs} ms`)
}

/** One raw command to the Redis at `port` (test setup), answered with its first line. */
function redisCommand(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(encodeCommand(args)))
    socket.once('data', (chunk) => {
      socket.destroy()
      resolve(chunk.toString().split('\r\n')[0]!)
    })
    socket.once('error', reject)
  })
}

describe('redis checks', () => {
  let redis: ReturnType<typeof Bun.spawn>
  let port: number
  let closedPort: number
  const spec = (extra: Partial<Extract<MonitorSpec, { type: 'redis' }>> = {}): MonitorSpec => ({ type: 'redis', host: 'cache.test', port, tls: false, password: 'sesame', timeoutMs: 3_000, ...extra })

  beforeAll(async () => {
    closedPort = await freePort()
    // A free port can be taken by another test file before redis-server binds it: then it exits,
    // and it starts again on another port (its own words kept for the error).
    let said = ''
    for (let attempt = 1; ; attempt++) {
      port = await freePort()
      redis = Bun.spawn(['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', 'sesame'], { stdout: 'pipe', stderr: 'pipe', env: realClockEnv() })
      let exited = false
      void redis.exited.then(() => (exited = true))
      try {
        await until(() => (exited ? Promise.resolve(true) : redisCommand(port, 'AUTH', 'sesame').then((line) => line === '+OK', () => false)), 'redis-server', 20_000)
      } catch (error) {
        redis.kill()
        throw error
      }
      if (!exited) {
        // Keep reading what it says, so a full pipe never stops it.
        void new Response(redis.stdout as ReadableStream).text().catch(() => '')
        break
      }
      said = await new Response(redis.stdout as ReadableStream).text()
      if (attempt === 3) throw new Error(`redis-server did not start: ${said.slice(-500)}`)
    }
    await redisCommand(port, 'AUTH', 'sesame')
    const auth = (...args: string[]) => encodeCommand(['AUTH', 'sesame']) + encodeCommand(args)
    await new Promise<void>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => socket.write(auth('SET', 'release', 'v42') + encodeCommand(['SELECT', '3']) + encodeCommand(['SET', 'only-in-3', 'yes'])))
      let seen = ''
      socket.on('data', (chunk) => {
        seen += chunk.toString()
        if (seen.split('\r\n').length > 4) {
          socket.destroy()
          resolve()
        }
      })
      socket.once('error', reject)
    })
  }, 90_000)
  afterAll(async () => {
    redis.kill()
    await redis.exited
  })

  test('PING answers PONG, logged in, through the guard to the checked address', async () => {
    const d = deps()
    const result = await runCheck(spec(), d)
    expect(result).toMatchObject({ outcome: 'ok', message: 'PING answered PONG', details: { address: '127.0.0.1' } })
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(0)
    expect(d.lookups).toEqual(['cache.test'])
  })

  test('a key must exist, and hold the expected value when one is given; the database comes from the target', async () => {
    expect(await runCheck(spec({ key: 'release' }), deps())).toMatchObject({ outcome: 'ok', message: 'PING answered PONG; key release exists' })
    expect(await runCheck(spec({ key: 'release', expectedValue: 'v42' }), deps())).toMatchObject({ outcome: 'ok', message: 'PING answered PONG; key release has the expected value' })
    expect(await runCheck(spec({ key: 'release', expectedValue: 'v43' }), deps())).toMatchObject({ outcome: 'fail', message: 'key release is "v42", expected "v43"' })
    expect(await runCheck(spec({ key: 'missing' }), deps())).toMatchObject({ outcome: 'fail', message: 'key missing does not exist' })
    expect(await runCheck(spec({ key: 'only-in-3' }), deps())).toMatchObject({ outcome: 'fail', message: 'key only-in-3 does not exist' })
    expect(await runCheck(spec({ key: 'only-in-3', db: 3 }), deps())).toMatchObject({ outcome: 'ok' })
  })

  test('a wrong or missing password fails with the server\'s words; a closed port fails; loopback is refused without the setting', async () => {
    expect(await runCheck(spec({ password: 'wrong' }), deps())).toMatchObject({ outcome: 'fail', message: expect.stringMatching(/^AUTH answered: WRONGPASS/) })
    expect(await runCheck(spec({ password: undefined }), deps())).toMatchObject({ outcome: 'fail', message: expect.stringMatching(/^PING answered: NOAUTH/) })
    expect(await runCheck(spec({ port: closedPort }), deps())).toMatchObject({ outcome: 'fail', message: expect.stringContaining('ECONNREFUSED') })
    expect(await runCheck(spec(), refusing())).toMatchObject({ outcome: 'misconfigured', message: expect.stringContaining('a loopback address') })
  })

  test('something that is not Redis fails instead of hanging', async () => {
    const http = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('hello') })
    try {
      const result = await runCheck(spec({ port: http.port }), deps())
      expect(result.outcome).toBe('fail')
      expect(result.message).toMatch(/not a Redis reply|closed the connection/)
    } finally {
      await http.stop(true)
    }
  })
})

describe.skipIf(!testPostgresServer)('postgres checks (LANTERN_TEST_POSTGRES)', () => {
  const url = new URL(testPostgresServer ?? 'postgres://x@127.0.0.1:1')
  const spec = (extra: Partial<Extract<MonitorSpec, { type: 'postgres' }>> = {}): MonitorSpec => ({
    type: 'postgres', host: 'db.test', port: Number(url.port), user: url.username, database: 'postgres', sslmode: 'disable', timeoutMs: 5_000, ...extra,
  })

  test('a login succeeds through the guard; a query runs and its first value is compared', async () => {
    const d = deps()
    expect(await runCheck(spec(), d)).toMatchObject({ outcome: 'ok', message: `logged in to postgres as ${url.username}`, details: { address: '127.0.0.1' } })
    expect(d.lookups).toEqual(['db.test'])
    expect(await runCheck(spec({ query: 'SELECT 41 + 1 AS answer' }), deps())).toMatchObject({ outcome: 'ok', message: `logged in to postgres as ${url.username}; the query returned 1 row` })
    expect(await runCheck(spec({ query: 'SELECT 41 + 1', expectedValue: '42' }), deps())).toMatchObject({ outcome: 'ok', message: expect.stringContaining('the query returned the expected value') })
    expect(await runCheck(spec({ query: 'SELECT 41 + 1', expectedValue: '43' }), deps())).toMatchObject({ outcome: 'fail', message: 'the query returned "42", expected "43"' })
  })

  test('a query cannot write, nor run two statements; a bad query and an unknown database fail with the reason', async () => {
    expect(await runCheck(spec({ query: 'CREATE TABLE lantern_probe (id int)' }), deps())).toMatchObject({ outcome: 'fail', message: expect.stringContaining('read-only transaction') })
    expect(await runCheck(spec({ query: 'SELECT 1; SELECT 2' }), deps())).toMatchObject({ outcome: 'fail', message: expect.stringContaining('the query failed') })
    expect(await runCheck(spec({ query: 'SELECT nope' }), deps())).toMatchObject({ outcome: 'fail', message: 'the query failed: column "nope" does not exist' })
    expect(await runCheck(spec({ database: 'no_such_database' }), deps())).toMatchObject({ outcome: 'fail', message: expect.stringContaining('no_such_database') })
  })

  test('loopback is refused without the setting; nothing is connected', async () => {
    expect(await runCheck(spec(), refusing())).toMatchObject({ outcome: 'misconfigured' })
  })
})

describe('websocket checks', () => {
  let server: ReturnType<typeof Bun.serve>
  const hosts: string[] = []
  const spec = (extra: Partial<Extract<MonitorSpec, { type: 'websocket' }>> = {}): MonitorSpec => ({ type: 'websocket', url: `ws://ws.test:${server.port}/live`, timeoutMs: 3_000, ...extra })

  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(request, srv) {
        hosts.push(request.headers.get('host') ?? '')
        if (new URL(request.url).pathname === '/live' && srv.upgrade(request, { data: undefined })) return undefined
        return new Response('no upgrade here', { status: 404 })
      },
      websocket: {
        message(ws, message) {
          ws.send(`echo ${String(message)}`)
        },
      },
    })
  })
  afterAll(async () => {
    await server.stop(true)
  })

  test('the upgrade succeeds at the checked address with the name as Host', async () => {
    const d = deps()
    expect(await runCheck(spec(), d)).toMatchObject({ outcome: 'ok', message: 'the WebSocket upgrade succeeded', details: { address: '127.0.0.1' } })
    expect(d.lookups).toEqual(['ws.test'])
    expect(hosts.at(-1)).toBe(`ws.test:${server.port}`)
  })

  test('a message is sent and the reply must contain the expected text', async () => {
    expect(await runCheck(spec({ message: 'ping' }), deps())).toMatchObject({ outcome: 'ok', message: 'the WebSocket upgrade succeeded; the server replied' })
    expect(await runCheck(spec({ message: 'ping', expectedValue: 'echo ping' }), deps())).toMatchObject({ outcome: 'ok', message: 'the WebSocket upgrade succeeded; the reply contains the expected text' })
    expect(await runCheck(spec({ message: 'ping', expectedValue: 'pong' }), deps())).toMatchObject({ outcome: 'fail', message: 'the reply "echo ping" does not contain "pong"' })
  })

  test('a refused upgrade fails; loopback is refused without the setting; a non-ws URL is misconfigured', async () => {
    expect(await runCheck(spec({ url: `ws://ws.test:${server.port}/elsewhere` }), deps())).toMatchObject({ outcome: 'fail', message: expect.stringContaining('upgrade failed') })
    expect(await runCheck(spec(), refusing())).toMatchObject({ outcome: 'misconfigured', message: expect.stringContaining('a loopback address') })
    expect(await runCheck(spec({ url: 'https://ws.test/' }), deps())).toMatchObject({ outcome: 'misconfigured' })
  })

  test('wss: the handshake names the host (SNI and the certificate check), not the address', async () => {
    const pki = makeTestPki(['wss.test'], 20)
    const secure = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      tls: { cert: pki.cert, key: pki.key },
      fetch: (request, srv) => (srv.upgrade(request, { data: undefined }) ? undefined : new Response('x')),
      websocket: {
        message(ws) {
          ws.send('secure pong')
        },
      },
    })
    try {
      const d = testDeps({ allowPrivate: ['127.0.0.1/32'], names: { 'wss.test': ['127.0.0.1'] }, trustedCa: pki.ca })
      expect(await runCheck({ type: 'websocket', url: `wss://wss.test:${secure.port}/`, message: 'ping', expectedValue: 'pong', timeoutMs: 3_000 }, d)).toMatchObject({ outcome: 'ok' })
      const untrusted = testDeps({ allowPrivate: ['127.0.0.1/32'], names: { 'wss.test': ['127.0.0.1'] } })
      expect(await runCheck({ type: 'websocket', url: `wss://wss.test:${secure.port}/`, timeoutMs: 3_000 }, untrusted)).toMatchObject({ outcome: 'fail' })
    } finally {
      await secure.stop(true)
    }
  })

  test('a server that never replies times out within the deadline', async () => {
    const silent = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request, srv) => (srv.upgrade(request, { data: undefined }) ? undefined : new Response('x')), websocket: { message() {} } })
    try {
      const started = performance.now()
      const result = await runCheck(spec({ url: `ws://ws.test:${silent.port}/`, message: 'ping', timeoutMs: 300 }), deps())
      expect(result).toEqual({ outcome: 'fail', responseTimeMs: null, message: 'timed out after 300 ms' })
      expect(performance.now() - started).toBeLessThan(2_000)
    } finally {
      await silent.stop(true)
    }
  })
})

describe('smtp checks', () => {
  let starttls: SmtpHarness
  let plain: SmtpHarness
  const spec = (extra: Partial<Extract<MonitorSpec, { type: 'smtp' }>> = {}): MonitorSpec => ({ type: 'smtp', host: 'localhost', port: starttls.port, starttls: false, timeoutMs: 3_000, ...extra })

  beforeAll(async () => {
    starttls = await startSmtp({ security: 'starttls' })
    plain = await startSmtp({ security: 'none' })
  })
  afterAll(async () => {
    await starttls.close()
    await plain.close()
  })

  test('the banner and EHLO, through the guard to the checked address', async () => {
    const d = deps()
    const result = await runCheck(spec(), d)
    expect(result).toMatchObject({ outcome: 'ok', message: expect.stringMatching(/^banner ".+", EHLO accepted$/), details: { address: '127.0.0.1' } })
    expect(d.lookups).toEqual(['localhost'])
  })

  test('with STARTTLS: a trusted certificate naming the host passes; another name, an untrusted CA, or no STARTTLS fails', async () => {
    expect(await runCheck(spec({ starttls: true }), deps())).toMatchObject({ outcome: 'ok', message: expect.stringMatching(/STARTTLS to TLSv1\.[23] with a trusted certificate$/) })
    expect(await runCheck(spec({ starttls: true, host: 'mail.test' }), deps())).toMatchObject({ outcome: 'fail', message: expect.stringContaining('ERR_TLS_CERT_ALTNAME_INVALID') })
    expect(await runCheck(spec({ starttls: true }), testDeps({ allowPrivate: ['127.0.0.1/32'], names }))).toMatchObject({ outcome: 'fail', message: expect.stringMatching(/^STARTTLS: .*not trusted/) })
    expect(await runCheck(spec({ starttls: true, port: plain.port }), deps())).toMatchObject({ outcome: 'fail', message: 'the server does not offer STARTTLS' })
  })

  test('a server that is not SMTP fails; loopback is refused without the setting', async () => {
    const http = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('hello') })
    try {
      const result = await runCheck(spec({ port: http.port, timeoutMs: 500 }), deps())
      expect(result.outcome).toBe('fail')
    } finally {
      await http.stop(true)
    }
    expect(await runCheck(spec(), refusing())).toMatchObject({ outcome: 'misconfigured', message: expect.stringContaining('a loopback address') })
  })
})
