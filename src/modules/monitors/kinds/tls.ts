/**
 * TLS checks: a handshake with SNI to the guard-checked address, then the certificate's days left
 * against the injected clock (edge: node:tls). An untrusted chain or a name mismatch fails.
 */
import { counted } from '../../../lib/words.ts'
import { connect, type PeerCertificate, type TLSSocket } from 'node:tls'
import { isIpLiteral } from '../../../lib/address-guard.ts'
import { explainCertificateError } from '../../../lib/network-errors.ts'
import { DAY_MS } from '../../../lib/time.ts'
import { thrownResult } from './failure.ts'
import type { AddressGuard } from '../../../lib/address-guard.ts'
import type { MonitorDefinition } from '../definition.ts'
import { commonSpec, splitHostPort, type MonitorKind } from './kind.ts'
import { clipMessage, DEFAULTS, type CheckDeps, type CheckResult, type TlsSpec } from './spec.ts'
import { daysProblems, fieldChecks, type SpecProblem } from './validate.ts'

export async function runTlsCheck(spec: TlsSpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const started = elapsed()
  const signal = AbortSignal.timeout(spec.timeoutMs)
  const port = spec.port ?? 443
  let handshake: Handshake
  try {
    const checked = await deps.guard.check(spec.host, signal)
    const serverName = isIpLiteral(checked.host) ? undefined : checked.host
    handshake = await handshakeOnce({ address: checked.address, port, serverName, ca: deps.trustedCa, signal })
  } catch (error) {
    return thrownResult(error, signal, spec.timeoutMs, { allowPrivate: deps.guard.allowPrivate })
  }
  const responseTimeMs = Math.round(elapsed() - started)
  const validTo = Date.parse(handshake.certificate.valid_to)
  const daysLeft = Math.floor((validTo - deps.clock.now()) / DAY_MS)
  const details = {
    daysLeft,
    validTo: Number.isNaN(validTo) ? null : new Date(validTo).toISOString(),
    issuer: String(handshake.certificate.issuer?.CN ?? ''),
    protocol: handshake.protocol,
  }
  const failBelow = spec.failBelowDays ?? DEFAULTS.tlsFailBelowDays
  const degradedBelow = spec.degradedBelowDays ?? DEFAULTS.tlsDegradedBelowDays
  const result = (outcome: CheckResult['outcome'], message: string): CheckResult => ({ outcome, responseTimeMs, message: clipMessage(message), details })
  if (handshake.authorizationError) return result('fail', explainCertificateError(handshake.authorizationError))
  if (Number.isNaN(validTo)) return result('fail', 'certificate has no readable expiry date')
  const left = `certificate expires in ${counted(daysLeft, 'day')}`
  if (daysLeft < 0) return result('fail', 'certificate has expired')
  if (daysLeft < failBelow) return result('fail', `${left} (fails under ${failBelow})`)
  if (daysLeft < degradedBelow) return result('degraded', `${left} (degraded under ${degradedBelow})`)
  const slow = spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
  return result(slow ? 'degraded' : 'ok', slow ? `${left}, handshake slower than ${spec.degradedAfterMs} ms` : left)
}

interface Handshake {
  certificate: PeerCertificate
  authorizationError: string | null
  protocol: string
}

function handshakeOnce(options: { address: string; port: number; serverName: string | undefined; ca: string | undefined; signal: AbortSignal }): Promise<Handshake> {
  const { signal } = options
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    // rejectUnauthorized off so an untrusted certificate still shows its dates; trust is judged below.
    const socket: TLSSocket = connect({
      host: options.address,
      port: options.port,
      ...(options.serverName ? { servername: options.serverName } : {}),
      ...(options.ca ? { ca: options.ca } : {}),
      rejectUnauthorized: false,
    })
    const finish = (error: unknown, value?: Handshake) => {
      signal.removeEventListener('abort', onAbort)
      socket.destroy()
      if (value) resolve(value)
      else reject(error)
    }
    const onAbort = () => finish(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    socket.once('secureConnect', () => {
      const authorizationError = socket.authorized ? null : String(socket.authorizationError ?? 'unknown')
      finish(undefined, { certificate: socket.getPeerCertificate(), authorizationError, protocol: socket.getProtocol() ?? '' })
    })
    socket.once('error', (error) => finish(error))
  })
}

function tlsSpec(definition: MonitorDefinition): TlsSpec {
  const { options: o } = definition
  const split = splitHostPort(definition.target ?? '')
  return {
    type: 'tls',
    host: split.host,
    port: o.port ?? split.port ?? 443,
    ...commonSpec(definition),
    ...(o.tls_degraded_below_days !== undefined ? { degradedBelowDays: o.tls_degraded_below_days } : {}),
    ...(o.tls_fail_below_days !== undefined ? { failBelowDays: o.tls_fail_below_days } : {}),
  }
}

function validateTlsSpec(spec: TlsSpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  check.host('host', spec.host)
  check.port('port', spec.port)
  daysProblems(check, 'degradedBelowDays', spec.degradedBelowDays, spec.failBelowDays, 'must not be above degradedBelowDays')
  return check.problems
}

/** tls: a handshake whose certificate is trusted, names the host and has enough days left. */
export const tlsKind: MonitorKind<TlsSpec> = { type: 'tls', toSpec: tlsSpec, validate: validateTlsSpec, run: runTlsCheck, probeable: true }
