/** TCP port checks: connect to the guard-checked address within the timeout, then close (edge: node:net). */
import { createConnection } from 'node:net'
import { thrownResult } from './failure.ts'
import type { AddressGuard } from '../../../lib/address-guard.ts'
import type { MonitorDefinition } from '../definition.ts'
import { commonSpec, splitHostPort, type MonitorKind } from './kind.ts'
import { clipMessage, type CheckDeps, type CheckResult, type TcpSpec } from './spec.ts'
import { fieldChecks, type SpecProblem } from './validate.ts'

export async function runTcpCheck(spec: TcpSpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const started = elapsed()
  const signal = AbortSignal.timeout(spec.timeoutMs)
  try {
    const checked = await deps.guard.check(spec.host, signal)
    await connectOnce(checked.address, spec.port, signal)
    const responseTimeMs = Math.round(elapsed() - started)
    const slow = spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
    return {
      outcome: slow ? 'degraded' : 'ok',
      responseTimeMs,
      message: clipMessage(`connected to port ${spec.port}${slow ? `, slower than ${spec.degradedAfterMs} ms` : ''}`),
      details: { address: checked.address },
    }
  } catch (error) {
    return thrownResult(error, signal, spec.timeoutMs, { allowPrivate: deps.guard.allowPrivate })
  }
}

function connectOnce(address: string, port: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const socket = createConnection({ host: address, port })
    const done = (error?: unknown) => {
      signal.removeEventListener('abort', onAbort)
      socket.destroy()
      if (error === undefined) resolve()
      else reject(error)
    }
    const onAbort = () => done(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    socket.once('connect', () => done())
    socket.once('error', (error) => done(error))
  })
}

function tcpSpec(definition: MonitorDefinition): TcpSpec {
  const split = splitHostPort(definition.target ?? '')
  return { type: 'tcp', host: split.host, port: (definition.options.port ?? split.port) as number, ...commonSpec(definition) }
}

function validateTcpSpec(spec: TcpSpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  check.host('host', spec.host)
  if (spec.port === undefined) check.problem('port', 'port is required')
  check.port('port', spec.port)
  return check.problems
}

/** tcp: a connection to host:port opens within the timeout. */
export const tcpKind: MonitorKind<TcpSpec> = { type: 'tcp', toSpec: tcpSpec, validate: validateTcpSpec, run: runTcpCheck, probeable: true }
