/** SSL monitors against a throwaway openssl PKI served on 127.0.0.1, directly and behind SMTP STARTTLS. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { formatDate } from '../../../src/lib/human-time.ts'
import { DAY_MS } from '../../../src/lib/time.ts'
import { runCheck } from '../../../src/modules/monitors/kinds/index.ts'
import type { SslReport, SslSpec } from '../../../src/modules/monitors/kinds/spec.ts'
import { OCSP_UNAVAILABLE_NOTE } from '../../../src/modules/monitors/kinds/ssl-report.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { testDeps } from './fixtures.ts'
import { makeChainPki, startSmtpStartTls, startTlsServer, type ChainPki, type Listening } from './tool-fixtures.ts'

const HOST = 'ssl.test'
let pki: ChainPki
const servers: Record<string, Listening> = {}
let smtp: Listening & { ehlos: string[] }
let smtpNoTls: Listening

beforeAll(async () => {
  pki = makeChainPki(HOST)
  const full = (leaf: { cert: string }) => leaf.cert + pki.intermediate
  servers.valid = await startTlsServer(full(pki.valid), pki.valid.key)
  servers.leafOnly = await startTlsServer(pki.valid.cert, pki.valid.key)
  servers.expired = await startTlsServer(full(pki.expired), pki.expired.key)
  servers.wrongHost = await startTlsServer(full(pki.wrongHost), pki.wrongHost.key)
  servers.weakKey = await startTlsServer(full(pki.weakKey), pki.weakKey.key)
  smtp = await startSmtpStartTls(full(pki.valid), pki.valid.key)
  smtpNoTls = await startSmtpStartTls(full(pki.valid), pki.valid.key, { offerStartTls: false })
})
afterAll(async () => {
  await Promise.all([...Object.values(servers), smtp, smtpNoTls].map((server) => server.close()))
})

const names = { [HOST]: ['127.0.0.1'] }
const spec = (port: number, extra: Partial<SslSpec> = {}): SslSpec => ({ type: 'ssl', host: HOST, port, timeoutMs: 3_000, ...extra })
/** The clock `days` days before the valid leaf's expiry; the root trusted unless said otherwise. */
const deps = (days = 20.5, trusted = true, allowPrivate: boolean | string[] = ['127.0.0.1/32']) =>
  testDeps({ allowPrivate, names, clock: new ManualClock(pki.valid.notAfter - days * DAY_MS), ...(trusted ? { trustedCa: pki.root } : {}) })
const reportOf = (result: { report?: unknown }) => result.report as SslReport

describe('SSL monitor: direct TLS', () => {
  test('a valid certificate with its chain passes, with every fact recorded', async () => {
    const result = await runCheck(spec(servers.valid!.port), deps())
    expect(result.outcome).toBe('ok')
    expect(result.message).toBe(`certificate valid for 20 more days, trusted, covers ${HOST}`)
    const report = reportOf(result)
    expect(report).toMatchObject({
      kind: 'ssl', verdict: 'pass', reasons: [], host: HOST, port: servers.valid!.port, starttls: false,
      subject: HOST, issuer: 'Lantern Test Intermediate', daysLeft: 20, sans: [HOST], hostCovered: true, trusted: true, trustError: null,
      keyType: 'ec', keyBits: 256, curve: 'prime256v1', signatureAlgorithm: 'ecdsa-with-SHA256', validTo: new Date(pki.valid.notAfter).toISOString(),
    })
    expect(report.protocol).toMatch(/^TLSv1\.[23]$/)
    expect(report.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
    expect(report.chain).toEqual({
      complete: true,
      certificates: [
        { subject: HOST, issuer: 'Lantern Test Intermediate', validTo: new Date(pki.valid.notAfter).toISOString() },
        { subject: 'Lantern Test Intermediate', issuer: 'Lantern Test Root', validTo: expect.any(String) },
        { subject: 'Lantern Test Root', issuer: 'Lantern Test Root', validTo: expect.any(String) },
      ],
      note: '3 certificates up to the root "Lantern Test Root"',
    })
    // Bun never hands over a stapled response: said so, not guessed.
    expect(report.ocsp).toEqual({ status: 'unavailable', note: OCSP_UNAVAILABLE_NOTE })
  })

  test('days thresholds: warning under 14, fail under 3, both settable', async () => {
    expect(await runCheck(spec(servers.valid!.port), deps(10.5))).toMatchObject({ outcome: 'degraded', message: 'certificate expires in 10 days (warning under 14)' })
    expect(await runCheck(spec(servers.valid!.port), deps(2.5))).toMatchObject({ outcome: 'fail', message: 'certificate expires in 2 days (fails under 3)' })
    expect(await runCheck(spec(servers.valid!.port, { warnBelowDays: 30, failBelowDays: 21 }), deps(20.5))).toMatchObject({ outcome: 'fail' })
  })

  test('an expired certificate fails with its date', async () => {
    const clock = new ManualClock(pki.expired.notBefore + 3_600_000)
    const result = await runCheck(spec(servers.expired!.port), testDeps({ allowPrivate: true, names, clock, trustedCa: pki.root }))
    expect(result.outcome).toBe('fail')
    expect(reportOf(result).reasons[0]).toBe(`certificate expired on ${formatDate(pki.expired.notAfter)}`)
    // The expiry is its own reason, not a trust failure.
    expect(reportOf(result).trusted).toBe(true)
  })

  test('a certificate for another host fails: not covered, with the names it has', async () => {
    const result = await runCheck(spec(servers.wrongHost!.port), deps())
    expect(result).toMatchObject({ outcome: 'fail', message: `certificate does not cover ${HOST} (it names other-${HOST})` })
    expect(reportOf(result)).toMatchObject({ hostCovered: false, trusted: true, sans: [`other-${HOST}`] })
  })

  test('a server that sends only its leaf: chain incomplete, not trusted', async () => {
    const result = await runCheck(spec(servers.leafOnly!.port), deps())
    expect(result.outcome).toBe('fail')
    const report = reportOf(result)
    expect(report.trusted).toBe(false)
    expect(report.trustError).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE')
    expect(report.chain).toMatchObject({ complete: false, certificates: [{ subject: HOST }], note: `the chain stops at "${HOST}": the server does not send the certificate of "Lantern Test Intermediate"` })
    expect(report.reasons[0]).toContain('the certificate of its issuer "Lantern Test Intermediate" is neither sent by the server nor a trusted root')
  })

  test('a 1024-bit RSA key fails as weak', async () => {
    const result = await runCheck(spec(servers.weakKey!.port), deps())
    expect(result).toMatchObject({ outcome: 'fail', message: 'weak key: RSA 1024 bits (at least 2048 needed)' })
    expect(reportOf(result)).toMatchObject({ keyType: 'rsa', keyBits: 1024, signatureAlgorithm: 'ecdsa-with-SHA256' })
  })

  test('an unknown root is not trusted', async () => {
    const result = await runCheck(spec(servers.valid!.port), deps(20.5, false))
    expect(result.outcome).toBe('fail')
    expect(reportOf(result).trusted).toBe(false)
  })

  test('the address guard applies before any connection', async () => {
    const result = await runCheck(spec(servers.valid!.port), deps(20.5, true, false as never))
    expect(result).toEqual({
      outcome: 'misconfigured',
      responseTimeMs: null,
      message: `${HOST} resolves to 127.0.0.1, a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it). Fix: monitor an address reachable from the internet, or let this instance reach loopback and private addresses with MONITOR_PRIVATE_TARGETS=1 (then restart it).`,
    })
  })
})

describe('SSL monitor: SMTP STARTTLS', () => {
  test('EHLO, STARTTLS, then the handshake on the same connection', async () => {
    const result = await runCheck(spec(smtp.port, { starttls: true }), deps())
    expect(result.outcome).toBe('ok')
    expect(reportOf(result)).toMatchObject({ starttls: true, verdict: 'pass', subject: HOST, trusted: true, chain: { complete: true } })
    expect(smtp.ehlos.at(-1)).toBe('lantern')
  })

  test('ports 25 and 587 speak STARTTLS unless told otherwise; a direct handshake to an SMTP port fails', async () => {
    const direct = await runCheck(spec(smtp.port, { starttls: false }), deps())
    expect(direct.outcome).toBe('fail')
    expect(direct.report).toBeUndefined()
  })

  test('a server that does not offer STARTTLS fails with that reason', async () => {
    const result = await runCheck(spec(smtpNoTls.port, { starttls: true }), deps())
    expect(result).toEqual({ outcome: 'fail', responseTimeMs: null, message: 'the server does not offer STARTTLS' })
  })
})
