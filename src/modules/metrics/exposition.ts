/**
 * The Prometheus text format (0.0.4), written directly from plain numbers. Lantern's own families
 * are counted on plain numbers (no library call on a hot path) and written here at scrape time;
 * prom-client rendered 190,000 per-monitor lines in about 500 ms, ten times the scrape budget. The
 * per-monitor families, most of a large scrape, are written as bytes (monitor-series.ts).
 *
 * Rules the format sets and this writer keeps: every family's HELP and TYPE come before its samples
 * and its samples are written together; label values escape `\`, `"` and line feeds; a histogram
 * has cumulative `_bucket` lines in rising `le` order ending with `+Inf`, then `_sum` and `_count`.
 */

import { ByteWriter, valueText } from './byte-writer.ts'

export { valueText }

export type MetricType = 'counter' | 'gauge' | 'histogram'

const escapeLabel = (value: string): string => value.replace(/[\\"\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`))
const escapeHelp = (text: string): string => text.replace(/[\\\n]/g, (char) => (char === '\n' ? '\\n' : '\\\\'))

/** Labels as written between braces (`a="1",b="x"`), values escaped; names must be valid label names. */
export function labelText(labels: Readonly<Record<string, string>>): string {
  let text = ''
  for (const name in labels) text += `${text === '' ? '' : ','}${name}="${escapeLabel(labels[name]!)}"`
  return text
}

/** Upper bounds of a histogram's buckets, rising, with their `le` texts worked out once. */
export class BucketLayout {
  readonly le: readonly string[]
  constructor(readonly bounds: readonly number[]) {
    for (let i = 1; i < bounds.length; i++) if (!(bounds[i]! > bounds[i - 1]!)) throw new Error('bucket bounds must rise')
    this.le = bounds.map(valueText)
  }
}

/** One histogram series: a count per bucket (not cumulative; the last one is above every bound), sum, count. */
export class Buckets {
  readonly counts: Float64Array
  sum = 0
  count = 0

  constructor(readonly layout: BucketLayout) {
    this.counts = new Float64Array(layout.bounds.length + 1)
  }

  observe(value: number): void {
    const bounds = this.layout.bounds
    let i = 0
    while (i < bounds.length && value > bounds[i]!) i++
    this.counts[i]!++
    this.sum += value
    this.count++
  }
}

/** The HELP and TYPE lines that open a family. */
export function familyHeader(name: string, type: MetricType, help: string): string {
  return `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`
}

/**
 * Builds one exposition, written as it goes into `writer` (reset first; a scrape hands in one it
 * reuses). `constantLabels` (already written, e.g. `worker="2"`) go on every sample. Families must
 * each be opened once, with their samples written right after.
 */
export class ExpositionWriter {
  readonly constantLabels: string
  /** The bytes so far; the per-monitor families are written into it directly (monitor-series.ts). */
  readonly writer: ByteWriter

  constructor(constantLabels = '', writer = new ByteWriter()) {
    this.constantLabels = constantLabels
    this.writer = writer
    writer.reset()
  }

  family(name: string, type: MetricType, help: string): this {
    this.writer.text(familyHeader(name, type, help))
    return this
  }

  /** One line; `labels` as labelText writes them ('' for none). */
  sample(name: string, labels: string, value: number): void {
    this.writer.text(`${name}${this.braces(labels)} ${valueText(value)}\n`)
  }

  /** A family with one unlabelled sample. */
  single(name: string, type: 'counter' | 'gauge', help: string, value: number): void {
    this.family(name, type, help).sample(name, '', value)
  }

  histogram(name: string, labels: string, buckets: Buckets): void {
    const { counts, layout } = buckets
    const prefix = labels === '' ? '' : `${labels},`
    let text = ''
    let cumulative = 0
    for (let i = 0; i < layout.le.length; i++) {
      cumulative += counts[i]!
      text += `${name}_bucket${this.braces(`${prefix}le="${layout.le[i]}"`)} ${cumulative}\n`
    }
    text += `${name}_bucket${this.braces(`${prefix}le="+Inf"`)} ${buckets.count}\n`
    text += `${name}_sum${this.braces(labels)} ${valueText(buckets.sum)}\n${name}_count${this.braces(labels)} ${buckets.count}\n`
    this.writer.text(text)
  }

  /** The exposition as UTF-8: a view of the writer's buffer, as it is until the writer is reset. */
  body(): Uint8Array<ArrayBuffer> {
    return this.writer.result()
  }

  text(): string {
    return new TextDecoder().decode(this.body())
  }

  private braces(labels: string): string {
    if (this.constantLabels === '') return labels === '' ? '' : `{${labels}}`
    return labels === '' ? `{${this.constantLabels}}` : `{${labels},${this.constantLabels}}`
  }
}

/** Series of one family keyed by their written labels; the caller keeps the set of keys bounded. */
export class Counts {
  private readonly values = new Map<string, number>()

  add(labels: string, amount = 1): void {
    this.values.set(labels, (this.values.get(labels) ?? 0) + amount)
  }

  write(out: ExpositionWriter, name: string, help: string): void {
    out.family(name, 'counter', help)
    for (const [labels, value] of this.values) out.sample(name, labels, value)
  }
}

/** Histograms of one family keyed by a plain value; `labelsOf` writes a key's labels once, on first sight. */
export class HistogramsBy<K extends string> {
  private readonly series = new Map<K, { labels: string; buckets: Buckets }>()

  constructor(
    private readonly layout: BucketLayout,
    private readonly labelsOf: (key: K) => string,
  ) {}

  observe(key: K, value: number): void {
    let entry = this.series.get(key)
    if (entry === undefined) this.series.set(key, (entry = { labels: this.labelsOf(key), buckets: new Buckets(this.layout) }))
    entry.buckets.observe(value)
  }

  write(out: ExpositionWriter, name: string, help: string): void {
    out.family(name, 'histogram', help)
    for (const { labels, buckets } of this.series.values()) out.histogram(name, labels, buckets)
  }
}
