/**
 * The SSL lookup takes every host name (single labels such as `localhost` too), and what goes wrong
 * reads as a sentence, from the same table as the monitors' results: real local servers (a plain
 * HTTP port, a closed port, a TLS server of the test CA), and the address guard deciding what may be
 * reached (loopback allowed here as MONITOR_PRIVATE_TARGETS=127.0.0.1/32 would; refused in production).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { X509Certificate } from 'node:crypto'
import { createServer, type Server } from 'node:tls'
import { explainCertificateError, explainNetworkError, KNOWN_NETWORK_ERROR_CODES } from '../../../src/lib/network-errors.ts'
import { runCheck } from '../../../src/modules/monitors/kinds/index.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { testCa } from '../../helpers/tls-ca.ts'
import { testDeps } from '../monitors/fixtures.ts'

const NOT_TLS = 'the server did not answer in TLS: this port probably speaks plain HTTP (use http://, or the TLS port, usually 443)'
const REFUSED = 'the connection was refused: nothing is listening on that port, or a firewall turned it away (ECONNREFUSED)'
/** Raw OpenSSL and socket texts a person should never see as the whole story. */
const RAW = /OPENSSL_internal|error:[0-9a-f]{8}|SSL routines|^[A-Z_]+:/

let open: TestContext
let strict: TestContext
let plain: ReturnType<typeof Bun.serve>
let tls: Server
let tlsPort: number
let closedPort: number
let owner: { key: string }
let strictOwner: { key: string }
const names = { localhost: ['127.0.0.1'], intranet: ['127.0.0.1'] }

beforeAll(async () => {
  plain = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('plain http') })
  const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  closedPort = closed.port!
  closed.stop(true)
  const ca = testCa()
  tls = createServer({ key: ca.key, cert: ca.cert }, (socket) => socket.end())
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve))
  tlsPort = (tls.address() as { port: number }).port
  // An hour into the test certificate's life (it is made for this run).
  const now = Date.parse(new X509Certificate(ca.cert).validFrom) + 3_600_000
  open = await createTestContext({ now, checkDeps: testDeps({ allowPrivate: ['127.0.0.1/32'], names, trustedCa: ca.ca, clock: new ManualClock(now) }) })
  strict = await createTestContext({ checkDeps: testDeps({ allowPrivate: false, names }) })
  owner = await open.createOwner('pro')
  strictOwner = await strict.createOwner('pro')
})
afterAll(async () => {
  await open?.close()
  await strict?.close()
  plain?.stop(true)
  tls?.close()
})

const ssl = async (ctx: TestContext, key: string, target: string) => {
  const response = await ctx.request('/user/api/v1/tools/lookups', { method: 'POST', key, json: { tool: 'ssl', target } })
  return { status: response.status, body: await json(response) }
}

describe('SSL lookup', () => {
  test('localhost and other single-label names are host names: the lookup runs', async () => {
    const good = await ssl(open, owner.key, `localhost:${tlsPort}`)
    expect(good.status).toBe(201)
    // Trusted and covering the name; the test certificate lives two days, under the 3-day failure line.
    expect(good.body.data).toMatchObject({ target: `localhost:${tlsPort}`, summary: 'certificate expires in 1 day (fails under 3)', result: { host: 'localhost', hostCovered: true, trusted: true } })
    const intranet = await ssl(open, owner.key, `intranet:${tlsPort}`)
    expect(intranet.status).toBe(201)
    // The test CA's certificate names localhost and 127.0.0.1 only.
    expect(intranet.body.data.result).toMatchObject({ host: 'intranet', hostCovered: false, reasons: ['certificate expires in 1 day (fails under 3)', 'certificate does not cover intranet (it names 127.0.0.1, localhost)'] })
  })

  test('a plain HTTP port reads as a sentence, not as OpenSSL text', async () => {
    const { status, body } = await ssl(open, owner.key, `localhost:${plain.port}`)
    expect(status).toBe(201)
    expect(body.data).toMatchObject({ status: 'fail', summary: `${NOT_TLS} (ERR_SSL_WRONG_VERSION_NUMBER)` })
    expect(body.data.summary).not.toMatch(RAW)
  })

  test('a closed port says what a refused connection means', async () => {
    const { body } = await ssl(open, owner.key, `localhost:${closedPort}`)
    expect(body.data).toMatchObject({ status: 'fail', summary: REFUSED })
  })

  test('without private targets, localhost is taken and the guard refuses it, saying why', async () => {
    const { status, body } = await ssl(strict, strictOwner.key, 'localhost')
    expect(status).toBe(201)
    expect(body.data).toMatchObject({ status: 'fail', summary: 'localhost resolves to 127.0.0.1, a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it). Fix: monitor an address reachable from the internet, or let this instance reach loopback and private addresses with MONITOR_PRIVATE_TARGETS=1 (then restart it).' })
  })

  test('what is not a host name is still a 400 with one sentence, and nothing is kept', async () => {
    for (const target of ['exa mple.com', '-bad-.test', 'host:99999']) {
      const { status, body } = await ssl(open, owner.key, target)
      expect({ target, status }).toEqual({ target, status: 400 })
      expect(body.error).toMatch(/^target must /)
    }
  })
})

describe('one table for the monitors too', () => {
  const deps = () => testDeps({ allowPrivate: ['127.0.0.1/32'], names })

  test('TLS and SSL monitors on a plain HTTP port, HTTPS to it, TCP to a closed port', async () => {
    expect((await runCheck({ type: 'tls', host: 'localhost', port: plain.port!, timeoutMs: 3_000 }, deps())).message).toBe(`${NOT_TLS} (ERR_SSL_WRONG_VERSION_NUMBER)`)
    expect((await runCheck({ type: 'ssl', host: 'localhost', port: plain.port!, timeoutMs: 3_000 }, deps())).message).toBe(`${NOT_TLS} (ERR_SSL_WRONG_VERSION_NUMBER)`)
    expect((await runCheck({ type: 'http', url: `https://localhost:${plain.port}/`, timeoutMs: 3_000 }, deps())).message).toBe(`${NOT_TLS} (EPROTO)`)
    expect((await runCheck({ type: 'tcp', host: 'localhost', port: closedPort, timeoutMs: 3_000 }, deps())).message).toBe(REFUSED)
    expect((await runCheck({ type: 'http', url: `http://localhost:${closedPort}/`, timeoutMs: 3_000 }, deps())).message).toBe(REFUSED)
  })

  test('an HTTPS check of a certificate from an unknown authority', async () => {
    const untrusting = testDeps({ allowPrivate: ['127.0.0.1/32'], names })
    const result = await runCheck({ type: 'http', url: `https://localhost:${tlsPort}/`, timeoutMs: 3_000 }, untrusting)
    expect(result.message).toBe("the certificate's issuer is not trusted or not sent: the server may be missing its intermediate certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE)")
  })
})

describe('the table', () => {
  test('every code it knows gives a sentence ending in the code; unknown errors are left to the caller', () => {
    for (const code of KNOWN_NETWORK_ERROR_CODES) {
      const sentence = explainNetworkError(Object.assign(new Error('x'), { code }))
      expect({ code, sentence: sentence?.endsWith(`(${code})`) && /^[a-z"']/.test(sentence) }).toEqual({ code, sentence: true })
    }
    expect(explainNetworkError(Object.assign(new Error('boom'), { code: 'EWHATEVER' }))).toBeUndefined()
    expect(explainNetworkError(new Error('something else'))).toBeUndefined()
  })

  test('an OpenSSL text without a code is recognised by its words', () => {
    expect(explainNetworkError(new Error('error:100000f7:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER'))).toBe(`${NOT_TLS} (ERR_SSL_WRONG_VERSION_NUMBER)`)
    expect(explainNetworkError(new Error('self-signed certificate'))).toBe('the certificate is self-signed: no trusted authority issued it (DEPTH_ZERO_SELF_SIGNED_CERT)')
  })

  test('certificate codes: expired, self-signed, hostname mismatch, and an unknown one', () => {
    expect(explainCertificateError('CERT_HAS_EXPIRED')).toBe('the certificate has expired (CERT_HAS_EXPIRED)')
    expect(explainCertificateError('DEPTH_ZERO_SELF_SIGNED_CERT')).toBe('the certificate is self-signed: no trusted authority issued it (DEPTH_ZERO_SELF_SIGNED_CERT)')
    expect(explainCertificateError('ERR_TLS_CERT_ALTNAME_INVALID')).toBe('the certificate does not cover this host name (ERR_TLS_CERT_ALTNAME_INVALID)')
    expect(explainCertificateError('SOMETHING_NEW')).toBe('the certificate is not trusted (SOMETHING_NEW)')
  })
})
