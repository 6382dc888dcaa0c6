/**
 * The per-monitor families written scrape after scrape into two buffers taken in turn: whatever
 * changed between scrapes (stored rows, figures, monitors gone or added), the bytes are those a
 * writer with no previous scrape writes from the same rows and figures, with no byte left over from
 * an earlier, longer scrape in the reused buffer.
 */
import { describe, expect, test } from 'bun:test'
import { ByteWriter } from '../../../src/modules/metrics/byte-writer.ts'
import { Buckets } from '../../../src/modules/metrics/exposition.ts'
import { FAMILY, MONITOR_DURATION_BUCKETS, MonitorSeriesWriter, OUTCOMES, WrittenLines, type MonitorFigures } from '../../../src/modules/metrics/monitor-series.ts'
import type { MonitorScrapeRow } from '../../../src/modules/metrics/repo.ts'

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

class Figures implements MonitorFigures {
  readonly results = new Float64Array(OUTCOMES.length)
  durations: Buckets | undefined
  lastSuccessMs: number | undefined
  certificateNotAfterMs: number | undefined
  readonly written = new WrittenLines()
}

const row = (id: number, type: MonitorScrapeRow['type'] = 'http'): MonitorScrapeRow => ({
  id,
  type,
  state: 'up',
  enabled: 1,
  last_check_at: 1_795_814_642_000 + id,
  last_outcome: 'ok',
  cert_not_after: type === 'ssl' ? 1_800_000_000_123 : null,
})

function ran(figures: Figures, seconds: number): void {
  figures.results[0]!++
  ;(figures.durations ??= new Buckets(MONITOR_DURATION_BUCKETS)).observe(seconds)
  figures.written.forget(FAMILY.checks | FAMILY.durations)
}

/** What a writer with no previous scrape makes of these rows and figures (figures copied, so nothing of theirs is shared). */
function fromScratch(rows: readonly MonitorScrapeRow[], figures: Map<number, Figures>, constantLabels = ''): string {
  const copies = new Map<number, Figures>()
  for (const [id, f] of figures) {
    const copy = new Figures()
    copy.results.set(f.results)
    if (f.durations) {
      copy.durations = new Buckets(MONITOR_DURATION_BUCKETS)
      copy.durations.counts.set(f.durations.counts)
      copy.durations.sum = f.durations.sum
      copy.durations.count = f.durations.count
    }
    copy.lastSuccessMs = f.lastSuccessMs
    copy.certificateNotAfterMs = f.certificateNotAfterMs
    copies.set(id, copy)
  }
  const out = new ByteWriter()
  new MonitorSeriesWriter(constantLabels).write(out, rows, (id) => copies.get(id)!)
  return decode(out.result())
}

describe('scrape after scrape', () => {
  test('changed rows, figures, removed and added monitors: the same bytes as a first scrape, in buffers taken in turn', () => {
    const buffers = [new ByteWriter(16), new ByteWriter(16)]
    const writer = new MonitorSeriesWriter('worker="1"')
    const figures = new Map<number, Figures>()
    let rows = Array.from({ length: 40 }, (_, i) => row(i + 1, i % 10 === 3 ? 'ssl' : i % 10 === 4 ? 'tls' : 'http'))
    for (const r of rows) figures.set(r.id, new Figures())
    let scrapes = 0
    const scrape = () => {
      const out = buffers[scrapes++ % 2]!
      out.reset()
      // Something before the monitors' lines, as the exposition has.
      out.text('# before\n')
      writer.write(out, rows, (id) => figures.get(id)!)
      const text = decode(out.result())
      expect(text).toBe(`# before\n${fromScratch(rows, figures, 'worker="1"')}`)
      return text
    }

    const first = scrape()
    expect(scrape()).toBe(first)
    for (const r of rows) ran(figures.get(r.id)!, 0.3)
    scrape()
    // Every other monitor changes a different thing.
    rows = rows.map((r, i) => (i % 5 === 0 ? { ...r, state: 'down' } : i % 5 === 1 ? { ...r, last_check_at: r.last_check_at! + 60_000 } : r))
    ran(figures.get(8)!, 12)
    figures.get(14)!.certificateNotAfterMs = 1_900_000_000_000
    figures.get(14)!.written.forget(FAMILY.certificate)
    figures.get(21)!.lastSuccessMs = 1_795_814_999_999
    figures.get(21)!.written.forget(FAMILY.lastSuccess)
    rows[30] = { ...rows[30]!, type: 'tcp' }
    scrape()
    scrape()
    // Monitors go: the next scrapes are shorter than what each reused buffer held.
    const long = scrape().length
    rows = rows.filter((r) => r.id % 3 !== 0 && r.id < 35)
    const short = scrape()
    expect(short.length).toBeLessThan(long)
    expect(scrape()).toBe(short)
    // New ones come, between and after the others.
    rows = [...rows, row(3), row(50, 'ssl'), row(51)].sort((a, b) => a.id - b.id)
    figures.set(3, new Figures())
    figures.set(50, new Figures())
    figures.set(51, new Figures())
    ran(figures.get(51)!, 0.01)
    scrape()
    scrape()
  })

  test('lines are copied only from bytes no one has written over: the same buffer twice, or one reset elsewhere, means encoding again', () => {
    const writer = new MonitorSeriesWriter('')
    const figures = new Map([1, 2, 3].map((id) => [id, new Figures()]))
    for (const f of figures.values()) ran(f, 1)
    const rows = [row(1), row(2), row(3)]
    const expected = fromScratch(rows, figures)
    const one = new ByteWriter()
    writer.write(one, rows, (id) => figures.get(id)!)
    // The same writer again: its previous lines are being written over.
    one.reset()
    writer.write(one, rows, (id) => figures.get(id)!)
    expect(decode(one.result())).toBe(expected)
    // Its previous buffer reset and filled by someone else before this scrape.
    const two = new ByteWriter()
    one.reset()
    one.text('x'.repeat(5000))
    writer.write(two, rows, (id) => figures.get(id)!)
    expect(decode(two.result())).toBe(expected)
  })
})

describe('the byte writer reused', () => {
  test('after a reset it holds only what was written since, however much longer the last fill was', () => {
    const out = new ByteWriter(4)
    out.text('a'.repeat(10_000))
    const view = out.result()
    const version = out.version
    out.reset()
    expect(out.version).not.toBe(version)
    out.text('é\n')
    out.bytes(new Uint8Array([0x62]))
    expect(decode(out.result())).toBe('é\nb')
    expect(out.size).toBe(4)
    // The old view shows the buffer as it now is: its bytes are not to be read after a reset.
    expect(view[0]).toBe(0xc3)
  })
})
