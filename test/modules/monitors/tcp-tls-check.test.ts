/** TCP and TLS checks against real listeners on loopback; certificate days come from the injected clock. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createAddressGuard } from '../../../src/lib/address-guard.ts'
import { DAY_MS } from '../../../src/lib/time.ts'
import { runCheck } from '../../../src/modules/monitors/kinds/index.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { makeTestPki, testDeps, type TestPki } from './fixtures.ts'

let listener: Bun.TCPSocketListener<undefined>
let secure: ReturnType<typeof Bun.serve>
let pki: TestPki
let closedPort: number

beforeAll(async () => {
  listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {}, open(socket) { socket.end() } } })
  pki = makeTestPki(['tls.test'], 20)
  secure = Bun.serve({ port: 0, hostname: '127.0.0.1', tls: { cert: pki.cert, key: pki.key }, fetch: () => new Response('ok') })
  const closed = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  closedPort = closed.port
  closed.stop(true)
})
afterAll(async () => {
  listener.stop(true)
  await secure.stop(true)
})

const names = { 'db.test': ['127.0.0.1'], 'tls.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] }

describe('TCP checks', () => {
  test('an open port is ok, through the guard, to the checked address', async () => {
    const deps = testDeps({ allowPrivate: ['127.0.0.1/32'], names })
    const result = await runCheck({ type: 'tcp', host: 'db.test', port: listener.port, timeoutMs: 1_000 }, deps)
    expect(result).toMatchObject({ outcome: 'ok', message: `connected to port ${listener.port}`, details: { address: '127.0.0.1' } })
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(0)
    expect(deps.lookups).toEqual(['db.test'])
  })

  test('a closed port fails with the reason', async () => {
    const result = await runCheck({ type: 'tcp', host: '127.0.0.1', port: closedPort, timeoutMs: 1_000 }, testDeps({ allowPrivate: true }))
    expect(result.outcome).toBe('fail')
    expect(result.message).toBe('the connection was refused: nothing is listening on that port, or a firewall turned it away (ECONNREFUSED)')
  })

  test('loopback is refused without the flag, in every spelling', async () => {
    for (const host of ['127.0.0.1', 'db.test', '2130706433', '0177.0.0.1', '::ffff:127.0.0.1', '[::1]']) {
      const result = await runCheck({ type: 'tcp', host, port: listener.port, timeoutMs: 1_000 }, testDeps({ allowPrivate: false, names }))
      expect({ host, outcome: result.outcome, loopback: result.message.includes('a loopback address') }).toEqual({ host, outcome: 'misconfigured', loopback: true })
    }
  })

  test('the deadline covers name resolution too: a lookup that never answers times out', async () => {
    const started = performance.now()
    const deps = { ...testDeps({ allowPrivate: true }), guard: createAddressGuard({ resolve: () => new Promise<string[]>(() => {}), allowPrivate: true }) }
    const result = await runCheck({ type: 'tcp', host: 'hang.test', port: 9, timeoutMs: 150 }, deps)
    expect(result).toEqual({ outcome: 'fail', responseTimeMs: null, message: 'timed out after 150 ms' })
    expect(performance.now() - started).toBeLessThan(1_500)
  })
})

describe('TLS checks', () => {
  const tls = (host: string, extra = {}) => ({ type: 'tls' as const, host, port: secure.port, timeoutMs: 2_000, ...extra })
  const depsAt = (daysBeforeExpiry: number, trusted = true) =>
    testDeps({ allowPrivate: ['127.0.0.1/32'], names, clock: new ManualClock(pki.notAfter - daysBeforeExpiry * DAY_MS), ...(trusted ? { trustedCa: pki.ca } : {}) })

  test('plenty of days left is ok, with the days and expiry in details', async () => {
    const result = await runCheck(tls('tls.test'), depsAt(20.5))
    expect(result).toMatchObject({ outcome: 'ok', message: 'certificate expires in 20 days', details: { daysLeft: 20, validTo: new Date(pki.notAfter).toISOString(), issuer: 'Lantern Test CA' } })
  })

  test('under the degraded threshold (14) is degraded, under the fail threshold (3) fails, past expiry fails', async () => {
    expect(await runCheck(tls('tls.test'), depsAt(10.2))).toMatchObject({ outcome: 'degraded', message: 'certificate expires in 10 days (degraded under 14)' })
    expect(await runCheck(tls('tls.test'), depsAt(2.5))).toMatchObject({ outcome: 'fail', message: 'certificate expires in 2 days (fails under 3)' })
    expect(await runCheck(tls('tls.test'), depsAt(-1))).toMatchObject({ outcome: 'fail', message: 'certificate has expired' })
    expect(await runCheck(tls('tls.test', { degradedBelowDays: 30, failBelowDays: 25 }), depsAt(20.5))).toMatchObject({ outcome: 'fail' })
  })

  test('a name the certificate does not cover, or an untrusted CA, fails', async () => {
    expect(await runCheck(tls('other.test'), depsAt(20.5))).toMatchObject({ outcome: 'fail', message: 'the certificate does not cover this host name (ERR_TLS_CERT_ALTNAME_INVALID)' })
    expect(await runCheck(tls('tls.test'), depsAt(20.5, false))).toMatchObject({ outcome: 'fail', message: "the certificate's issuer is not trusted or not sent: the server may be missing its intermediate certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE)" })
  })

  test('the guard applies: refused without the flag', async () => {
    const result = await runCheck(tls('tls.test'), testDeps({ allowPrivate: false, names }))
    expect(result).toMatchObject({
      outcome: 'misconfigured',
      message: 'tls.test resolves to 127.0.0.1, a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it). Fix: monitor an address reachable from the internet, or let this instance reach loopback and private addresses with MONITOR_PRIVATE_TARGETS=1 (then restart it).',
    })
  })

  test('a plain TCP listener is no TLS server: fails', async () => {
    const result = await runCheck({ type: 'tls', host: '127.0.0.1', port: listener.port, timeoutMs: 1_000 }, testDeps({ allowPrivate: true }))
    expect(result.outcome).toBe('fail')
  })
})
