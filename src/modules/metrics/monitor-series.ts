/**
 * The per-monitor families (`monitor_id`), written as bytes: each line is a fixed head up to the
 * monitor's id, the id, a fixed tail with the other labels (and the constant ones), and the value.
 * The fixed pieces are encoded once per exposition writer's constant labels; each monitor's lines
 * are encoded apart (encodeMonitorSeries), so that a scrape re-encodes only the monitors that changed.
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

/** The fixed pieces of every line, for one set of constant labels (encoded once). */
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
const piecesFor = (constantLabels: string): Pieces => {
  let pieces = piecesByLabels.get(constantLabels)
  if (pieces === undefined) piecesByLabels.set(constantLabels, (pieces = new Pieces(constantLabels)))
  return pieces
}

/** The HELP and TYPE lines of the five families, in the order they are written. */
export const familyHeaders = (constantLabels: string): readonly Uint8Array[] => piecesFor(constantLabels).headers

/** One buffer reused for every monitor encoded; each monitor's lines are then copied out at their size. */
const scratch = new ByteWriter(4096)

/**
 * One monitor's lines in each of the five families (empty where it has none), from its figures and
 * its stored row (durations in MONITOR_DURATION_BUCKETS). The five pieces share one buffer.
 */
export function encodeMonitorSeries(constantLabels: string, row: MonitorScrapeRow, figures: MonitorFigures): Uint8Array[] {
  const pieces = piecesFor(constantLabels)
  const out = scratch
  out.reset()
  const ends: number[] = []
  out.line(pieces.head(STATE), row.id, pieces.stateTail(row.type, row.state), 1)
  ends.push(out.size)

  const results = figures.results
  const checksHead = pieces.head(CHECKS)
  for (let r = 0; r < OUTCOMES.length; r++) if (results[r]! > 0) out.line(checksHead, row.id, pieces.checksTails[r]!, results[r]!)
  ends.push(out.size)

  const durations = figures.durations
  if (durations) {
    const bucketHead = pieces.head(`${DURATION}_bucket`)
    let cumulative = 0
    for (let i = 0; i < durations.counts.length - 1; i++) {
      cumulative += durations.counts[i]!
      out.line(bucketHead, row.id, pieces.bucketTails[i]!, cumulative)
    }
    out.line(bucketHead, row.id, pieces.bucketTails[durations.counts.length - 1]!, durations.count)
    out.line(pieces.head(`${DURATION}_sum`), row.id, pieces.close, durations.sum)
    out.line(pieces.head(`${DURATION}_count`), row.id, pieces.close, durations.count)
  }
  ends.push(out.size)

  if (CERTIFICATE_TYPES.has(row.type)) {
    const notAfter = figures.certificateNotAfterMs ?? (row.type === 'ssl' ? row.cert_not_after : null)
    if (notAfter != null) out.timeLine(pieces.head(CERTIFICATE), row.id, pieces.close, notAfter)
  }
  ends.push(out.size)

  const lastSuccess = Math.max(figures.lastSuccessMs ?? 0, storedLastSuccess(row))
  if (lastSuccess > 0) out.timeLine(pieces.head(LAST_SUCCESS), row.id, pieces.close, lastSuccess)
  ends.push(out.size)

  const block = out.result().slice()
  let start = 0
  return ends.map((end) => {
    const piece = block.subarray(start, end)
    start = end
    return piece
  })
}

/** The last success the stored row tells of (ms), 0 if none. */
export const storedLastSuccess = (row: MonitorScrapeRow): number => (row.last_outcome === 'ok' && row.last_check_at !== null ? row.last_check_at : 0)
