/**
 * SMTP checks: the 220 banner and a 250 EHLO from the guard-checked address, then QUIT; with
 * `starttls`, STARTTLS must be offered and the handshake must give a trusted certificate naming the
 * host (edge: node:net, node:tls; the dialog is smtp-starttls.ts's, shared with SSL monitors).
 */
import { connect, type TLSSocket } from 'node:tls'
import type { Socket } from 'node:net'
import { isIpLiteral, type AddressGuard } from '../../../lib/address-guard.ts'
import { explainCertificateError } from '../../../lib/network-errors.ts'
import type { MonitorDefinition } from '../definition.ts'
import { thrownResult } from './failure.ts'
import { commonSpec, type MonitorKind } from './kind.ts'
import { parseServerTarget } from './server-target.ts'
import { ehloName, openSmtpDialog, SmtpDialogError } from './smtp-starttls.ts'
import { clipMessage, type CheckDeps, type CheckResult, type SmtpSpec } from './spec.ts'
import { fieldChecks, type SpecProblem } from './validate.ts'

export const SMTP_PORT = 25

export async function runSmtpCheck(spec: SmtpSpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const started = elapsed()
  const signal = AbortSignal.timeout(spec.timeoutMs)
  let socket: Socket | undefined
  try {
    const checked = await deps.guard.check(spec.host, signal)
    const dialog = await openSmtpDialog({ address: checked.address, port: spec.port, ehloName: ehloName(deps.userAgent), signal, startTls: spec.starttls })
    socket = dialog.socket
    const banner = dialog.banner.slice(0, 100)
    let message = `banner "${banner}", EHLO accepted`
    let protocol: string | null = null
    if (spec.starttls) {
      const secure = await upgrade(dialog.socket, isIpLiteral(checked.host) ? undefined : checked.host, deps.trustedCa, signal)
      socket = secure
      if (!secure.authorized) {
        return { outcome: 'fail', responseTimeMs: Math.round(elapsed() - started), message: clipMessage(`STARTTLS: ${explainCertificateError(String(secure.authorizationError ?? 'unknown'))}`), details: { address: checked.address, banner } }
      }
      protocol = secure.getProtocol() ?? null
      message += `, STARTTLS to ${protocol ?? 'TLS'} with a trusted certificate`
      secure.write('QUIT\r\n')
    } else dialog.socket.write('QUIT\r\n')
    const responseTimeMs = Math.round(elapsed() - started)
    const slow = spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
    return {
      outcome: slow ? 'degraded' : 'ok',
      responseTimeMs,
      message: clipMessage(slow ? `${message}, slower than ${spec.degradedAfterMs} ms` : message),
      details: { address: checked.address, banner, ...(protocol ? { protocol } : {}) },
    }
  } catch (error) {
    if (error instanceof SmtpDialogError && !signal.aborted) return { outcome: 'fail', responseTimeMs: null, message: clipMessage(error.message) }
    return thrownResult(error, signal, spec.timeoutMs, { allowPrivate: deps.guard.allowPrivate })
  } finally {
    socket?.destroy()
  }
}

/** The TLS handshake over the SMTP socket; trust is judged by the caller (rejectUnauthorized off to name the reason). */
function upgrade(socket: Socket, serverName: string | undefined, ca: string | undefined, signal: AbortSignal): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const secure = connect({ socket, rejectUnauthorized: false, ...(serverName ? { servername: serverName } : {}), ...(ca ? { ca } : {}) })
    const onAbort = () => {
      secure.destroy()
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    secure.once('secureConnect', () => {
      signal.removeEventListener('abort', onAbort)
      resolve(secure)
    })
    secure.once('error', (error) => {
      signal.removeEventListener('abort', onAbort)
      reject(error)
    })
  })
}

function smtpSpec(definition: MonitorDefinition): SmtpSpec {
  const t = parseServerTarget(definition.target ?? '', ['smtp'], SMTP_PORT)
  return { type: 'smtp', host: t.host, port: definition.options.port ?? t.port, starttls: definition.options.starttls ?? false, ...commonSpec(definition) }
}

function validateSmtpSpec(spec: SmtpSpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  if (!spec.host) check.problem('host', 'must be host[:port], e.g. mail.example.com:587')
  else check.host('host', spec.host)
  check.port('port', spec.port)
  return check.problems
}

/** smtp: a 220 banner and a 250 EHLO; with starttls, a trusted STARTTLS handshake too. */
export const smtpKind: MonitorKind<SmtpSpec> = { type: 'smtp', toSpec: smtpSpec, validate: validateSmtpSpec, run: runSmtpCheck, probeable: false }
