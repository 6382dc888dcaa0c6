/**
 * The per-monitor families (`monitor_id`), written as bytes: each line is a fixed head up to the
 * monitor's id, the id, a fixed tail with the other labels (and the constant ones), and the value.
 * The fixed pieces are encoded once per exposition writer's constant labels; a scrape encodes again
 * only the families whose figures or stored fields changed for a monitor since the previous scrape,
 * and copies the other lines from that scrape's bytes, neighbours' lines in one copy.
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
  readonly written: WrittenLines
}

/** Each writer's scrapes get numbers no other writer uses. */
let lastGeneration = 0
/** Never a scrape's number. */
const STALE = -1
/** Never a scrape's number nor STALE: no lines of a previous scrape to copy. */
const NONE = -2

/** A bit per family, in HELP order: whose lines a monitor must have encoded again. */
export const FAMILY = { state: 1, checks: 2, durations: 4, certificate: 8, lastSuccess: 16 } as const
const ALL_FAMILIES = 31

/** Where a monitor's lines are in the last scrape's bytes, and the stored row they were written from. */
export class WrittenLines {
  /** Start and end of its lines in each of the five families. */
  readonly spans = new Int32Array(10)
  /** The scrape that wrote them (STALE: none yet). */
  generation = STALE
  /** Families (FAMILY bits) whose figures changed since. */
  changed = 0
  type = ''
  state = ''
  certNotAfter: number | null = null
  storedLastSuccess = 0

  /** Figures of these families (FAMILY bits) changed: the next scrape encodes their lines again. */
  forget(families: number): void {
    this.changed |= families
  }
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
  readonly stateHead: Uint8Array
  readonly checksHead: Uint8Array
  readonly bucketHead: Uint8Array
  readonly sumHead: Uint8Array
  readonly countHead: Uint8Array
  readonly certificateHead: Uint8Array
  readonly lastSuccessHead: Uint8Array
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
    this.stateHead = this.head(STATE)
    this.checksHead = this.head(CHECKS)
    this.bucketHead = this.head(`${DURATION}_bucket`)
    this.sumHead = this.head(`${DURATION}_sum`)
    this.countHead = this.head(`${DURATION}_count`)
    this.certificateHead = this.head(CERTIFICATE)
    this.lastSuccessHead = this.head(LAST_SUCCESS)
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

/**
 * Writes the five per-monitor families, scrape after scrape, for one set of constant labels. In each
 * family, a monitor whose figures and stored fields for it are as they were at the previous scrape
 * has its lines copied from that scrape's bytes (which the caller keeps in another writer, not reset
 * since); the others are encoded again.
 */
export class MonitorSeriesWriter {
  private readonly pieces: Pieces
  /** The previous scrape's lines: where they were written, and the writer's version then (while it is unchanged, they are there). */
  private previous: { writer: ByteWriter; version: number; bytes: Uint8Array; size: number } | undefined
  private generation = NONE
  /** Each shown monitor's families to encode, reused from scrape to scrape. */
  private changed = new Uint8Array(0)

  constructor(readonly constantLabels: string) {
    let pieces = piecesByLabels.get(constantLabels)
    if (pieces === undefined) piecesByLabels.set(constantLabels, (pieces = new Pieces(constantLabels)))
    this.pieces = pieces
  }

  /** Writes the lines of `shown` into `out`, whose figures `figuresOf` answers (durations in MONITOR_DURATION_BUCKETS). */
  write(out: ByteWriter, shown: readonly MonitorScrapeRow[], figuresOf: (id: number) => MonitorFigures): void {
    const previous = this.previous
    // The previous lines can be copied only from bytes no one has written over since: another writer, not reset since.
    const intact = previous !== undefined && previous.writer !== out && previous.writer.version === previous.version
    const previousGeneration = intact ? this.generation : NONE
    const generation = (this.generation = ++lastGeneration)
    const figures = shown.map((row) => figuresOf(row.id))
    if (this.changed.length < shown.length) this.changed = new Uint8Array(shown.length)
    const changed = this.changed
    for (let i = 0; i < shown.length; i++) {
      const row = shown[i]!
      const written = figures[i]!.written
      const stored = storedLastSuccess(row)
      let families = ALL_FAMILIES
      if (written.generation === previousGeneration && written.type === row.type) {
        families = written.changed
        if (written.state !== row.state) families |= FAMILY.state
        if (written.certNotAfter !== row.cert_not_after) families |= FAMILY.certificate
        if (written.storedLastSuccess !== stored) families |= FAMILY.lastSuccess
      }
      changed[i] = families
      written.type = row.type
      written.state = row.state
      written.certNotAfter = row.cert_not_after
      written.storedLastSuccess = stored
      written.changed = 0
      written.generation = generation
    }
    const from = previous?.bytes ?? new Uint8Array(0)
    const start = out.size
    // About 750 bytes a monitor with series of each kind.
    out.reserve(previous !== undefined ? previous.size + 65_536 : 4096 + shown.length * 800)
    const headers = this.pieces.headers
    for (let family = 0; family < headers.length; family++) {
      out.bytes(headers[family]!)
      const bit = 1 << family
      // Kept lines waiting to be copied: from runStart to runEnd of the previous bytes.
      let runStart = 0
      let runEnd = -1
      for (let i = 0; i < shown.length; i++) {
        const spans = figures[i]!.written.spans
        const at = 2 * family
        if ((changed[i]! & bit) === 0) {
          const lineStart = spans[at]!
          const lineEnd = spans[at + 1]!
          if (lineStart !== runEnd) {
            if (runEnd >= 0) out.copy(from, runStart, runEnd)
            runStart = lineStart
          }
          runEnd = lineEnd
          // Nothing is written before the run is copied, so it will start at the current size.
          spans[at] = out.size + (lineStart - runStart)
          spans[at + 1] = out.size + (lineEnd - runStart)
        } else {
          if (runEnd >= 0) out.copy(from, runStart, runEnd)
          runEnd = -1
          spans[at] = out.size
          this.encode(out, family, shown[i]!, figures[i]!)
          spans[at + 1] = out.size
        }
      }
      if (runEnd >= 0) out.copy(from, runStart, runEnd)
    }
    this.previous = { writer: out, version: out.version, bytes: out.result(), size: out.size - start }
  }

  private encode(out: ByteWriter, family: number, row: MonitorScrapeRow, figures: MonitorFigures): void {
    const pieces = this.pieces
    switch (family) {
      case 0:
        out.line(pieces.stateHead, row.id, pieces.stateTail(row.type, row.state), 1)
        return
      case 1: {
        const results = figures.results
        for (let r = 0; r < OUTCOMES.length; r++) if (results[r]! > 0) out.line(pieces.checksHead, row.id, pieces.checksTails[r]!, results[r]!)
        return
      }
      case 2: {
        const durations = figures.durations
        if (!durations) return
        let cumulative = 0
        for (let i = 0; i < durations.counts.length - 1; i++) {
          cumulative += durations.counts[i]!
          out.line(pieces.bucketHead, row.id, pieces.bucketTails[i]!, cumulative)
        }
        out.line(pieces.bucketHead, row.id, pieces.bucketTails[durations.counts.length - 1]!, durations.count)
        out.line(pieces.sumHead, row.id, pieces.close, durations.sum)
        out.line(pieces.countHead, row.id, pieces.close, durations.count)
        return
      }
      case 3: {
        if (!CERTIFICATE_TYPES.has(row.type)) return
        const notAfter = figures.certificateNotAfterMs ?? (row.type === 'ssl' ? row.cert_not_after : null)
        if (notAfter != null) out.timeLine(pieces.certificateHead, row.id, pieces.close, notAfter)
        return
      }
      default: {
        const lastSuccess = Math.max(figures.lastSuccessMs ?? 0, storedLastSuccess(row))
        if (lastSuccess > 0) out.timeLine(pieces.lastSuccessHead, row.id, pieces.close, lastSuccess)
      }
    }
  }
}

/** The last success the stored row tells of (ms), 0 if none. */
const storedLastSuccess = (row: MonitorScrapeRow): number => (row.last_outcome === 'ok' && row.last_check_at !== null ? row.last_check_at : 0)
