/**
 * HTTP(S) checks against real Bun.serve targets on loopback. The guard allows exactly 127.0.0.1
 * (a MONITOR_PRIVATE_TARGETS network list), so redirects to 127.0.0.2, 10.x or metadata addresses
 * show the per-hop re-check. Names resolve through the injected resolver only: a name the system
 * cannot resolve (`service.test`) still works, which proves fetch never looks it up again.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runCheck } from '../../../src/modules/monitors/kinds/index.ts'
import type { HttpSpec } from '../../../src/modules/monitors/kinds/spec.ts'
import { makeTestPki, testDeps, type TestPki } from './fixtures.ts'

type Server = ReturnType<typeof Bun.serve>
// 64 MiB of zeros, about 64 KiB on the wire: the reader must stop at 1 MiB after decompression.
const GZIP_BOMB = Bun.gzipSync(new Uint8Array(64 * 1024 * 1024))
let plain: Server
let secure: Server
let other: Server
let pki: TestPki
const seen: { host: string | null; method: string; body: string; authorization: string | null; userAgent: string | null }[] = []

function routes(request: Request, server: { port: number | undefined }): Response | Promise<Response> {
  const url = new URL(request.url)
  const port = server.port
  switch (url.pathname) {
    case '/ok':
      return new Response('All systems Operational')
    case '/echo':
      return request.text().then((body) => {
        seen.push({ host: request.headers.get('host'), method: request.method, body, authorization: request.headers.get('authorization'), userAgent: request.headers.get('user-agent') })
        return new Response('echoed')
      })
    case '/slow':
      return Bun.sleep(Number(url.searchParams.get('ms') ?? 300)).then(() => new Response('late'))
    case '/error':
      return new Response('boom', { status: 500 })
    case '/json':
      return Response.json({ status: 'ok', data: { items: [{ state: 'ok' }, { state: 'busy' }], count: 2 }, tags: ['a', 'b'], 'odd key': 1 })
    case '/badjson':
      return new Response('{"status": "ok",', { headers: { 'content-type': 'application/json' } })
    case '/big':
      return new Response('x'.repeat(2 * 1024 * 1024) + 'NEEDLE')
    case '/drip':
      return new Response(
        new ReadableStream({
          async pull(controller) {
            await Bun.sleep(50)
            controller.enqueue(new TextEncoder().encode('.'))
          },
        }),
      )
    case '/gzip-bomb':
      return new Response(GZIP_BOMB, { headers: { 'content-encoding': 'gzip', 'content-type': 'text/plain' } })
    case '/chain/1':
      return Response.redirect(`/chain/2`, 302)
    case '/chain/2':
      return Response.redirect(`http://service.test:${port}/chain/3`, 301)
    case '/chain/3':
      return Response.redirect(`/ok`, 307)
    case '/loop':
      return Response.redirect('/loop', 302)
    case '/to-private':
      return Response.redirect(`http://127.0.0.2:${port}/ok`, 302)
    case '/to-private-name':
      return Response.redirect(`http://intranet.test:${port}/ok`, 302)
    case '/to-metadata':
      return Response.redirect('http://169.254.169.254/latest/meta-data/', 302)
    case '/to-metadata-decimal':
      return Response.redirect('http://2852039166/latest/meta-data/', 302)
    case '/to-file':
      return Response.redirect('file:///etc/passwd', 302)
    case '/post-303':
      return Response.redirect('/echo', 303)
    case '/post-307':
      return Response.redirect('/echo', 307)
    case '/cross-origin':
      return Response.redirect(`http://elsewhere.test:${port}/echo`, 302)
    default:
      return new Response('not found', { status: 404 })
  }
}

beforeAll(() => {
  pki = makeTestPki(['secure.test'], 30)
  plain = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request, server) => routes(request, server) })
  secure = Bun.serve({ port: 0, hostname: '127.0.0.1', tls: { cert: pki.cert, key: pki.key }, fetch: (request, server) => routes(request, server) })
  // 127.0.0.2 answers too, to show that only the guard stands between a redirect and it.
  other = Bun.serve({ port: plain.port, hostname: '127.0.0.2', fetch: () => new Response('private side') })
})
afterAll(async () => {
  await Promise.all([plain.stop(true), secure.stop(true), other.stop(true)])
})

const names = {
  'service.test': ['127.0.0.1'],
  'elsewhere.test': ['127.0.0.1'],
  'secure.test': ['127.0.0.1'],
  'wrong-name.test': ['127.0.0.1'],
  'intranet.test': ['10.0.0.7'],
  localhost: ['127.0.0.1'],
}
const loopbackOnly = () => testDeps({ allowPrivate: ['127.0.0.1/32'], names, trustedCa: pki.ca })
const http = (path: string, extra: Partial<HttpSpec> = {}): HttpSpec => ({ type: 'http', url: `http://service.test:${plain.port}${path}`, timeoutMs: 2_000, ...extra })

describe('HTTP checks', () => {
  test('a 200 is ok, with the response time, status and the checked address; one lookup per hop', async () => {
    const deps = loopbackOnly()
    const result = await runCheck(http('/ok'), deps)
    expect(result).toMatchObject({ outcome: 'ok', statusCode: 200, message: 'HTTP 200', details: { address: '127.0.0.1', redirects: 0 } })
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(0)
    expect(deps.lookups).toEqual(['service.test'])
  })

  test('Host carries the name, custom headers and the body go out, engine-owned headers do not', async () => {
    seen.length = 0
    const spec = http('/echo', { method: 'POST', body: 'ping', headers: { 'X-Token': 'abc', Host: 'evil.test', 'User-Agent': 'probe/1' } })
    expect((await runCheck(spec, loopbackOnly())).outcome).toBe('ok')
    expect(seen).toEqual([{ host: `service.test:${plain.port}`, method: 'POST', body: 'ping', authorization: null, userAgent: 'probe/1' }])
  })

  test('a 500 fails with its status; accepted codes can take it', async () => {
    expect(await runCheck(http('/error'), loopbackOnly())).toMatchObject({ outcome: 'fail', statusCode: 500, message: 'HTTP 500 is not an accepted status (200-299)' })
    expect((await runCheck(http('/error', { acceptedStatus: '200-299, 500' }), loopbackOnly())).outcome).toBe('ok')
  })

  test('slower than the timeout fails at the deadline', async () => {
    const started = performance.now()
    const result = await runCheck(http('/slow?ms=3000', { timeoutMs: 150 }), loopbackOnly())
    expect(result).toEqual({ outcome: 'fail', responseTimeMs: null, message: 'timed out after 150 ms', details: { redirects: 0 } })
    expect(performance.now() - started).toBeLessThan(1_500)
  })

  test('slower than the degraded threshold is degraded', async () => {
    const result = await runCheck(http('/slow?ms=120', { degradedAfterMs: 50 }), loopbackOnly())
    expect(result.outcome).toBe('degraded')
    expect(result.message).toBe('HTTP 200, slower than 50 ms')
    expect((await runCheck(http('/ok', { degradedAfterMs: 1_000 }), loopbackOnly())).outcome).toBe('ok')
  })

  test('keyword present / absent, case-sensitive by default', async () => {
    const deps = loopbackOnly()
    expect((await runCheck(http('/ok', { keyword: { text: 'Operational' } }), deps)).outcome).toBe('ok')
    expect(await runCheck(http('/ok', { keyword: { text: 'operational' } }), deps)).toMatchObject({ outcome: 'fail', message: 'keyword "operational" not found' })
    expect((await runCheck(http('/ok', { keyword: { text: 'operational', caseSensitive: false } }), deps)).outcome).toBe('ok')
    expect(await runCheck(http('/ok', { keyword: { text: 'Operational', present: false } }), deps)).toMatchObject({ outcome: 'fail', message: 'keyword "Operational" found' })
    expect((await runCheck(http('/ok', { keyword: { text: 'Outage', present: false } }), deps)).outcome).toBe('ok')
  })

  test('the body is read only up to 1 MiB: a keyword past it is not found, and the message never carries the body', async () => {
    const result = await runCheck(http('/big', { keyword: { text: 'NEEDLE' } }), loopbackOnly())
    expect(result).toMatchObject({ outcome: 'fail', message: 'keyword "NEEDLE" not found in the first 1048576 bytes' })
    expect(JSON.stringify(result)).not.toContain('xxxx')
  })

  test('a body that trickles in is cut by the same deadline', async () => {
    const started = performance.now()
    const result = await runCheck(http('/drip', { timeoutMs: 300, keyword: { text: 'never' } }), loopbackOnly())
    expect(result).toMatchObject({ outcome: 'fail', statusCode: 200, message: 'reading the body: timed out after 300 ms' })
    expect(performance.now() - started).toBeLessThan(1_500)
  })

  test('a compressed body counts after decompression: a gzip bomb is read to 1 MiB only', async () => {
    const before = process.memoryUsage().rss
    const result = await runCheck(http('/gzip-bomb', { keyword: { text: 'x' } }), loopbackOnly())
    expect(result).toMatchObject({ outcome: 'fail', statusCode: 200, message: 'keyword "x" not found in the first 1048576 bytes' })
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024)
  })

  test('JSON conditions: pass, fail with the condition, bad JSON', async () => {
    const deps = loopbackOnly()
    const pass = ['[STATUS] == 200', '[RESPONSE_TIME] < 60000', '[BODY].data.items[0].state == "ok"', 'len([BODY].data.items) > 0', '[BODY].tags contains "b"', '[BODY]["odd key"] == 1']
    expect((await runCheck(http('/json', { conditions: pass }), deps)).outcome).toBe('ok')
    const failed = await runCheck(http('/json', { conditions: ['[STATUS] == 200', '[BODY].data.items[1].state == "ok"'] }), deps)
    expect(failed).toMatchObject({ outcome: 'fail', statusCode: 200, message: 'condition 2 failed: [BODY].data.items[1].state == "ok" ([BODY].data.items[1].state is a string that does not match)' })
    expect(failed.message).not.toContain('busy')
    const bad = await runCheck(http('/badjson', { conditions: ['[BODY].status == "ok"'] }), deps)
    expect(bad).toMatchObject({ outcome: 'fail', message: 'condition 1 failed: [BODY].status == "ok" (the body is not valid JSON)' })
  })

  test('a redirect chain is followed hop by hop, each hop looked up once', async () => {
    const deps = loopbackOnly()
    const result = await runCheck(http('/chain/1', { keyword: { text: 'Operational' } }), deps)
    expect(result).toMatchObject({ outcome: 'ok', statusCode: 200, details: { redirects: 3 } })
    expect(deps.lookups).toEqual(['service.test', 'service.test', 'service.test', 'service.test'])
  })

  test('followRedirects off: the 3xx itself is judged', async () => {
    expect(await runCheck(http('/chain/1', { followRedirects: false }), loopbackOnly())).toMatchObject({ outcome: 'fail', statusCode: 302 })
    expect((await runCheck(http('/chain/1', { followRedirects: false, acceptedStatus: '302' }), loopbackOnly())).outcome).toBe('ok')
  })

  test('more than 5 redirects fail', async () => {
    expect(await runCheck(http('/loop'), loopbackOnly())).toMatchObject({ outcome: 'fail', message: 'more than 5 redirects' })
  })

  test('a redirect to a private address is refused at that hop, though a server answers there: misconfigured, with the hop, the reason and the fix', async () => {
    const toPrivate = await runCheck(http('/to-private'), loopbackOnly())
    expect(toPrivate).toMatchObject({ outcome: 'misconfigured', responseTimeMs: null, details: { redirects: 1 } })
    expect(toPrivate.message).toMatch(/^redirect 1 to http:\/\/127\.0\.0\.2:\d+\/\S*: 127\.0\.0\.2 is a loopback address \(outside the networks MONITOR_PRIVATE_TARGETS lists\)\. Fix: add its network to MONITOR_PRIVATE_TARGETS/)
    expect((await runCheck(http('/to-private-name'), loopbackOnly())).message).toContain(': intranet.test resolves to 10.0.0.7, a private address (outside the networks MONITOR_PRIVATE_TARGETS lists). Fix: ')
    // With all private targets allowed the same chain reaches 127.0.0.2.
    const open = testDeps({ allowPrivate: true, names })
    expect(await runCheck(http('/to-private', { keyword: { text: 'private side' } }), open)).toMatchObject({ outcome: 'ok', details: { address: '127.0.0.2', redirects: 1 } })
  })

  test('a redirect to 169.254.169.254 is refused even with private targets allowed, in any spelling', async () => {
    const open = testDeps({ allowPrivate: true, names })
    for (const path of ['/to-metadata', '/to-metadata-decimal']) {
      const result = await runCheck(http(path), open)
      expect(result.outcome).toBe('misconfigured')
      expect(result.message).toEndWith(': 169.254.169.254 is a cloud metadata address. Fix: monitor another address; monitors never reach this kind of address.')
    }
  })

  test('a redirect to another scheme is not followed', async () => {
    expect(await runCheck(http('/to-file'), loopbackOnly())).toMatchObject({ outcome: 'fail', message: 'cannot fetch a file: URL' })
  })

  test('303 turns a POST into a GET without body; 307 keeps both', async () => {
    seen.length = 0
    await runCheck(http('/post-303', { method: 'POST', body: 'data', headers: { 'content-type': 'text/plain' } }), loopbackOnly())
    await runCheck(http('/post-307', { method: 'POST', body: 'data' }), loopbackOnly())
    expect(seen.map(({ method, body }) => [method, body])).toEqual([
      ['GET', ''],
      ['POST', 'data'],
    ])
  })

  test('Authorization does not follow a redirect to another origin', async () => {
    seen.length = 0
    await runCheck(http('/cross-origin', { headers: { authorization: 'Bearer secret' } }), loopbackOnly())
    await runCheck(http('/echo', { headers: { authorization: 'Bearer secret' } }), loopbackOnly())
    expect(seen.map((s) => [s.host, s.authorization])).toEqual([
      [`elsewhere.test:${plain.port}`, null],
      [`service.test:${plain.port}`, 'Bearer secret'],
    ])
  })

  test('connection refused fails with the reason', async () => {
    const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
    const port = closed.port
    await closed.stop(true)
    const result = await runCheck({ type: 'http', url: `http://service.test:${port}/`, timeoutMs: 2_000 }, loopbackOnly())
    expect(result.outcome).toBe('fail')
    expect(result.message).toBe('the connection was refused: nothing is listening on that port, or a firewall turned it away (ECONNREFUSED)')
  })
})

describe('HTTPS checks', () => {
  const https = (host: string, path = '/ok'): HttpSpec => ({ type: 'http', url: `https://${host}:${secure.port}${path}`, timeoutMs: 2_000 })

  test('connects to the checked IP with SNI and certificate name = the host name', async () => {
    const result = await runCheck({ ...https('secure.test'), conditions: ['[STATUS] == 200'], keyword: { text: 'Operational' } }, loopbackOnly())
    expect(result).toMatchObject({ outcome: 'ok', statusCode: 200, details: { address: '127.0.0.1' } })
  })

  test('a certificate for another name fails', async () => {
    const result = await runCheck(https('wrong-name.test'), loopbackOnly())
    expect(result.outcome).toBe('fail')
    expect(result.message).toBe('the certificate does not cover this host name (ERR_TLS_CERT_ALTNAME_INVALID)')
  })

  test('an untrusted CA fails', async () => {
    const untrusting = testDeps({ allowPrivate: ['127.0.0.1/32'], names })
    const result = await runCheck(https('secure.test'), untrusting)
    expect(result.outcome).toBe('fail')
    expect(result.message).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|unable to verify/)
  })
})

describe('the SSRF suite: refused unless MONITOR_PRIVATE_TARGETS allows them', () => {
  const strict = () => testDeps({ allowPrivate: false, names })
  const open = () => testDeps({ allowPrivate: true, names })
  const targets = (port: number) => [`http://127.0.0.1:${port}/ok`, `http://localhost:${port}/ok`, `http://[::ffff:127.0.0.1]:${port}/ok`, `http://service.test:${port}/ok`, `http://2130706433:${port}/ok`, `http://0177.0.0.1:${port}/ok`, `http://0x7f.1:${port}/ok`]
  test('each form is refused without the flag, and reaches the loopback target with it', async () => {
    for (const url of targets(plain.port!)) {
      const refused = await runCheck({ type: 'http', url, timeoutMs: 2_000 }, strict())
      expect({ url, outcome: refused.outcome, fix: refused.message.includes('Fix: ') && refused.message.includes('MONITOR_PRIVATE_TARGETS=1') }).toEqual({ url, outcome: 'misconfigured', fix: true })
      const reached = await runCheck({ type: 'http', url, timeoutMs: 2_000, keyword: { text: 'Operational' } }, open())
      expect({ url, outcome: reached.outcome }).toEqual({ url, outcome: 'ok' })
    }
  })
})
