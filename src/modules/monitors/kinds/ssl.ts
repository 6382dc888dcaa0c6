/**
 * SSL monitors: one handshake with SNI to the guard-checked address (directly, or after
 * SMTP EHLO/STARTTLS on ports 25 and 587), the facts read off the peer's certificates, and the verdict
 * of ssl-report.ts (edge: node:tls, node:crypto). `requestOCSP` is always asked; Bun 1.4.5 never hands
 * the stapled response over, so the report says "unavailable" and why.
 */
import { X509Certificate } from 'node:crypto'
import type { Socket } from 'node:net'
import { connect, type DetailedPeerCertificate, type TLSSocket } from 'node:tls'
import { isIpLiteral } from '../../../lib/address-guard.ts'
import { thrownResult } from './failure.ts'
import { ehloName, openSmtpStartTls } from './smtp-starttls.ts'
import { assessSsl, sslMessage, type ChainLink, type HandshakeFacts } from './ssl-report.ts'
import type { AddressGuard } from '../../../lib/address-guard.ts'
import type { MonitorDefinition } from '../definition.ts'
import { commonSpec, splitHostPort, type MonitorKind } from './kind.ts'
import { clipMessage, STARTTLS_PORTS, type CheckDeps, type CheckResult, type Outcome, type SslSpec, type Verdict } from './spec.ts'
import { daysProblems, fieldChecks, type SpecProblem } from './validate.ts'

const OUTCOME: Record<Verdict, Outcome> = { pass: 'ok', warning: 'degraded', fail: 'fail' }

export async function runSslCheck(spec: SslSpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const started = elapsed()
  const signal = AbortSignal.timeout(spec.timeoutMs)
  const starttls = spec.starttls ?? STARTTLS_PORTS.includes(spec.port)
  let facts: HandshakeFacts
  try {
    const checked = await deps.guard.check(spec.host, signal)
    const serverName = isIpLiteral(checked.host) ? undefined : checked.host
    const socket = starttls ? await openSmtpStartTls({ address: checked.address, port: spec.port, ehloName: ehloName(deps.userAgent), signal }) : undefined
    facts = await handshake({ address: checked.address, port: spec.port, serverName, host: checked.host, ca: deps.trustedCa, socket, signal })
  } catch (error) {
    return thrownResult(error, signal, spec.timeoutMs, { allowPrivate: deps.guard.allowPrivate })
  }
  const responseTimeMs = Math.round(elapsed() - started)
  const report = assessSsl(facts, {
    host: spec.host,
    port: spec.port,
    starttls,
    now: deps.clock.now(),
    ...(spec.warnBelowDays !== undefined ? { warnBelowDays: spec.warnBelowDays } : {}),
    ...(spec.failBelowDays !== undefined ? { failBelowDays: spec.failBelowDays } : {}),
  })
  const slow = report.verdict === 'pass' && spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
  return {
    outcome: slow ? 'degraded' : OUTCOME[report.verdict],
    responseTimeMs,
    message: clipMessage(slow ? `${sslMessage(report)}, handshake slower than ${spec.degradedAfterMs} ms` : sslMessage(report)),
    details: { verdict: report.verdict, daysLeft: report.daysLeft, validTo: report.validTo, issuer: report.issuer, protocol: report.protocol },
    report,
  }
}

function handshake(options: {
  address: string
  port: number
  serverName: string | undefined
  host: string
  ca: string | undefined
  socket: Socket | undefined
  signal: AbortSignal
}): Promise<HandshakeFacts> {
  const { signal } = options
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      options.socket?.destroy()
      return reject(signal.reason)
    }
    let ocspResponse: Uint8Array | null = null
    // rejectUnauthorized off so an untrusted certificate still shows everything; trust is judged by ssl-report.ts.
    const socket: TLSSocket = connect({
      ...(options.socket ? { socket: options.socket } : { host: options.address, port: options.port }),
      ...(options.serverName ? { servername: options.serverName } : {}),
      ...(options.ca ? { ca: options.ca } : {}),
      rejectUnauthorized: false,
      requestOCSP: true,
    })
    const finish = (error: unknown, value?: HandshakeFacts) => {
      signal.removeEventListener('abort', onAbort)
      socket.destroy()
      options.socket?.destroy()
      if (value) resolve(value)
      else reject(error)
    }
    const onAbort = () => finish(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    socket.on('OCSPResponse', (response: Buffer | null) => {
      if (response && response.byteLength > 0) ocspResponse = new Uint8Array(response)
    })
    socket.once('secureConnect', () => {
      try {
        const authorizationError = socket.authorized ? null : String(socket.authorizationError ?? 'unknown')
        finish(undefined, readFacts(socket.getPeerCertificate(true), { protocol: socket.getProtocol() ?? '', authorizationError, host: options.host, ocspResponse }))
      } catch (error) {
        finish(error)
      }
    })
    socket.once('error', (error) => finish(error))
  })
}

function readFacts(peer: DetailedPeerCertificate, extra: { protocol: string; authorizationError: string | null; host: string; ocspResponse: Uint8Array | null }): HandshakeFacts {
  if (!peer?.raw) throw new Error('the server sent no certificate')
  const leaf = new X509Certificate(peer.raw)
  const details = leaf.publicKey.asymmetricKeyDetails ?? {}
  const keyType = leaf.publicKey.asymmetricKeyType ?? 'unknown'
  const curve = details.namedCurve ?? null
  const keyBits = details.modulusLength ?? (curve ? curveBits(curve) : keyType === 'ed25519' ? 256 : keyType === 'ed448' ? 448 : null)
  const sans = (leaf.subjectAltName ?? '')
    .split(', ')
    .filter(Boolean)
    .map((entry) => entry.replace(/^(DNS|IP Address):/, ''))
  const covered = isIpLiteral(extra.host) ? leaf.checkIP(extra.host) !== undefined : leaf.checkHost(extra.host) !== undefined
  return {
    protocol: extra.protocol,
    authorizationError: extra.authorizationError,
    subject: commonName(leaf.subject),
    issuer: commonName(leaf.issuer),
    validFrom: Date.parse(leaf.validFrom),
    validTo: Date.parse(leaf.validTo),
    sans,
    hostCovered: covered,
    keyType,
    keyBits,
    curve,
    signatureAlgorithm: String((leaf as X509Certificate & { signatureAlgorithm?: string }).signatureAlgorithm ?? 'unknown'),
    fingerprint256: leaf.fingerprint256,
    chain: chainOf(peer),
    ocspResponse: extra.ocspResponse,
  }
}

/** The peer's chain as node:tls links it (sent certificates, then the trusted root if one is found). */
function chainOf(peer: DetailedPeerCertificate): ChainLink[] {
  const links: ChainLink[] = []
  const seen = new Set<string>()
  let current: DetailedPeerCertificate | undefined = peer
  while (current?.raw && links.length < 10) {
    const certificate = new X509Certificate(current.raw)
    if (seen.has(certificate.fingerprint256)) break
    seen.add(certificate.fingerprint256)
    const selfIssued = certificate.subject === certificate.issuer && certificate.checkIssued(certificate)
    links.push({ subject: commonName(certificate.subject), issuer: commonName(certificate.issuer), validTo: new Date(Date.parse(certificate.validTo)).toISOString(), selfIssued })
    if (selfIssued) break
    const next: DetailedPeerCertificate | undefined = current.issuerCertificate
    // Only a certificate that really issued this one continues the chain.
    if (!next?.raw || !certificate.checkIssued(new X509Certificate(next.raw))) break
    current = next
  }
  return links
}

/** "CN=x\nO=y" → "x" (or the whole name, one line, when it has no CN). */
function commonName(name: string): string {
  const cn = /(?:^|\n)CN=([^\n]*)/.exec(name)?.[1]
  return (cn ?? name.replace(/\n/g, ', ')).slice(0, 200)
}

function curveBits(curve: string): number | null {
  const bits = /(\d{3})/.exec(curve)?.[1]
  if (curve === 'prime256v1') return 256
  return bits ? Number(bits) : null
}

function sslSpec(definition: MonitorDefinition): SslSpec {
  const { options: o } = definition
  const split = splitHostPort(definition.target ?? '')
  const port = o.port ?? split.port ?? 443
  return {
    type: 'ssl',
    host: split.host,
    port,
    ...commonSpec(definition),
    // Ports 25 and 587 always speak STARTTLS; the option turns it on elsewhere (e.g. 2525).
    starttls: o.starttls === true || STARTTLS_PORTS.includes(port),
    ...(o.tls_degraded_below_days !== undefined ? { warnBelowDays: o.tls_degraded_below_days } : {}),
    ...(o.tls_fail_below_days !== undefined ? { failBelowDays: o.tls_fail_below_days } : {}),
  }
}

function validateSslSpec(spec: SslSpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  check.host('host', spec.host)
  check.port('port', spec.port)
  daysProblems(check, 'warnBelowDays', spec.warnBelowDays, spec.failBelowDays, 'must not be above the warning threshold')
  return check.problems
}

/** ssl: the certificate's health report (chain, key, expiry), on HTTPS or an SMTP STARTTLS port. Its verdict does not depend on where it is asked from. */
export const sslKind: MonitorKind<SslSpec> = { type: 'ssl', toSpec: sslSpec, validate: validateSslSpec, run: runSslCheck, probeable: false }
