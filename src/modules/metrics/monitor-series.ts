/**
 * The per-monitor families (`monitor_id`), written as bytes: each line is a fixed head up to the
 * monitor's id, the id, a fixed tail with the other labels (and the constant ones), and the value.
 * The fixed pieces are encoded once per exposition writer's constant labels.
 */
import { ByteWriter, encodeText } from './byte-writer.ts'
import { BucketLayout, familyHeader, labelText, type Buckets, type MetricType } from './exposition.ts'
import type { Outcome } from '../monitors/kinds/index.ts'
import type { MonitorScrapeRow } from './repo.ts'

/** Each check outcome's place in a monitor's counts (the engine's own outcome type: a new outcome must be added here). */
const OUTCOME_INDEX = { ok: 0, degraded: 1, fail: 2, misconfigured: 3 } as const satisfies Record<Outcome, number>
export const OUTCOMES = Object.keys(OUTCOME_INDEX) as Outcome[]
export const outcomeIndex = (outcome: Outcome): number => OUTCOME_INDEX[outcome]

/** Seconds; coarse, as every bucket is a series per monitor. */
export const MONITOR_DURATION_BUCKETS = new BucketLayout([0.25, 1, 2.5, 10])

const CERTIFICATE_TYPES: ReadonlySet<string> = new Set(['tls', 'ssl'])

/** What this process remembers of one monitor. */
export interface MonitorFigures {
  /** Results by outcome (OUTCOMES order). */
  readonly results: Float64Array
  durations: Buckets | undefined
  lastSuccessMs: number | undefined
  certificateNotAfterMs: number | undefined
}

const STATE = 'lantern_monitor_state'
const CHECKS = 'lantern_monitor_checks_total'
const DURATION = 'lantern_monitor_check_duration_seconds'
const CERTIFICATE = 'lantern_monitor_certificate_expiry_timestamp_seconds'
const LAST_SUCCESS = 'lantern_monitor_last_success_timestamp_seconds'

const HELP: ReadonlyArray<[string, MetricType, string]> = [
  [STATE, 'gauge', "1 for each enabled monitor, its type and its current state in labels (a monitor's series ends when its state changes)"],
  [CHECKS, 'counter', 'Check results recorded by this process for each monitor, by result (ok, degraded, fail)'],
  [DURATION, 'histogram', "Time each monitor's checks took on this process's scheduler, retries included"],
  [CERTIFICATE, 'gauge', 'When the certificate a TLS or SSL monitor last saw expires (Unix time); days left: (value - time()) / 86400'],
  [LAST_SUCCESS, 'gauge', "When each monitor's latest ok result was recorded (Unix time)"],
]

/** The fixed pieces of every line, for one set of constant labels. */
class Pieces {
  readonly headers: Uint8Array[]
  readonly head: (name: string) => Uint8Array
  /** `"` closing the id, the constant labels, `} `. */
  readonly close: Uint8Array
  readonly checksTails: Uint8Array[]
  readonly bucketTails: Uint8Array[]
  /** By type, then state. */
  private readonly stateTails = new Map<string, Map<string, Uint8Array>>()

  constructor(private readonly constant: string) {
    const more = constant === '' ? '' : `,${constant}`
    this.headers = HELP.map(([name, type, help]) => encodeText(familyHeader(name, type, help)))
    const heads = new Map<string, Uint8Array>()
    this.head = (name) => {
      let head = heads.get(name)
      if (head === undefined) heads.set(name, (head = encodeText(`${name}{monitor_id="`)))
      return head
    }
    this.close = encodeText(`"${more}} `)
    this.checksTails = OUTCOMES.map((result) => encodeText(`",result="${result}"${more}} `))
    this.bucketTails = [...MONITOR_DURATION_BUCKETS.le, '+Inf'].map((le) => encodeText(`",le="${le}"${more}} `))
  }

  stateTail(type: string, state: string): Uint8Array {
    let byState = this.stateTails.get(type)
    if (byState === undefined) this.stateTails.set(type, (byState = new Map()))
    let tail = byState.get(state)
    if (tail === undefined) byState.set(state, (tail = encodeText(`",${labelText({ type, state })}${this.constant === '' ? '' : `,${this.constant}`}} `)))
    return tail
  }
}

const piecesByLabels = new Map<string, Pieces>()

/** Writes the five per-monitor families for `shown`, whose figures are all in `figuresOf` (durations in MONITOR_DURATION_BUCKETS). */
export function writeMonitorSeries(constantLabels: string, shown: readonly MonitorScrapeRow[], figuresOf: ReadonlyMap<number, MonitorFigures>): Uint8Array {
  let pieces = piecesByLabels.get(constantLabels)
  if (pieces === undefined) piecesByLabels.set(constantLabels, (pieces = new Pieces(constantLabels)))
  // About 750 bytes a monitor with series of each kind.
  const out = new ByteWriter(4096 + shown.length * 800)
  out.bytes(pieces.headers[0]!)
  const stateHead = pieces.head(STATE)
  for (const row of shown) out.line(stateHead, row.id, pieces.stateTail(row.type, row.state), 1)

  out.bytes(pieces.headers[1]!)
  const checksHead = pieces.head(CHECKS)
  for (const row of shown) {
    const results = figuresOf.get(row.id)!.results
    for (let r = 0; r < OUTCOMES.length; r++) if (results[r]! > 0) out.line(checksHead, row.id, pieces.checksTails[r]!, results[r]!)
  }

  out.bytes(pieces.headers[2]!)
  const bucketHead = pieces.head(`${DURATION}_bucket`)
  const sumHead = pieces.head(`${DURATION}_sum`)
  const countHead = pieces.head(`${DURATION}_count`)
  for (const row of shown) {
    const durations = figuresOf.get(row.id)!.durations
    if (!durations) continue
    let cumulative = 0
    for (let i = 0; i < durations.counts.length - 1; i++) {
      cumulative += durations.counts[i]!
      out.line(bucketHead, row.id, pieces.bucketTails[i]!, cumulative)
    }
    out.line(bucketHead, row.id, pieces.bucketTails[durations.counts.length - 1]!, durations.count)
    out.line(sumHead, row.id, pieces.close, durations.sum)
    out.line(countHead, row.id, pieces.close, durations.count)
  }

  out.bytes(pieces.headers[3]!)
  const certificateHead = pieces.head(CERTIFICATE)
  for (const row of shown) {
    if (!CERTIFICATE_TYPES.has(row.type)) continue
    const notAfter = figuresOf.get(row.id)!.certificateNotAfterMs ?? (row.type === 'ssl' ? row.cert_not_after : null)
    if (notAfter != null) out.timeLine(certificateHead, row.id, pieces.close, notAfter)
  }

  out.bytes(pieces.headers[4]!)
  const lastSuccessHead = pieces.head(LAST_SUCCESS)
  for (const row of shown) {
    const stored = row.last_outcome === 'ok' && row.last_check_at !== null ? row.last_check_at : 0
    const lastSuccess = Math.max(figuresOf.get(row.id)!.lastSuccessMs ?? 0, stored)
    if (lastSuccess > 0) out.timeLine(lastSuccessHead, row.id, pieces.close, lastSuccess)
  }
  return out.result()
}
