/** What a check kind is: the record every file of kinds/ exports and the table in index.ts lists. */
import type { AddressGuard } from '../../../lib/address-guard.ts'
import type { MonitorDefinition } from '../definition.ts'
import type { StoredMonitorType } from '../tables.ts'
import type { CheckDeps, CheckResult, MonitorSpec } from './spec.ts'
import type { SpecProblem } from './validate.ts'

export interface MonitorKind<S extends MonitorSpec = MonitorSpec> {
  type: StoredMonitorType
  /** The spec the engine runs, from the stored definition; null: nothing to run (push waits for calls). */
  toSpec(definition: MonitorDefinition): S | null
  /** The kind's own problems, each naming its field (validateSpec checks what all kinds share first). */
  validate(spec: S, guard: AddressGuard): SpecProblem[]
  /** One attempt. It may throw: runCheck turns a throw into a fail result. */
  run(spec: S, deps: CheckDeps): Promise<CheckResult>
  /** Probes in other regions may run it: what it sees depends on where it is asked from. */
  probeable: boolean
}

/** Splits "host:port" / "[v6]:port" / "host" (port absent: undefined). */
export function splitHostPort(target: string): { host: string; port: number | undefined } {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(target)
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] === undefined ? undefined : Number(bracketed[2]) }
  const plain = /^([^:]+):(\d{1,5})$/.exec(target)
  if (plain) return { host: plain[1]!, port: Number(plain[2]) }
  return { host: target, port: undefined }
}

/** The numbers every spec carries over from its definition. */
export const commonSpec = (definition: MonitorDefinition) => ({ timeoutMs: definition.timeoutMs, degradedAfterMs: definition.degradedAfterMs })
