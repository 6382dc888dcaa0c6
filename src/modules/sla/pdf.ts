/**
 * The SLA report as a PDF: the one file that knows pdf-lib (1.17.1, pinned: pure JS, works inside
 * `bun build --compile`, unlike pdfkit whose font files are not bundled). A4 portrait, Helvetica (a
 * standard font: nothing to embed), ten components per page, each with its figures and a strip of
 * coloured bars; then the incidents and the excluded maintenance. The standard fonts speak WinAnsi
 * only, so any other character is drawn as "?" rather than failing the whole report.
 */
import {
  beginText,
  endText,
  fill,
  moveText,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setFillingRgbColor,
  setFontAndSize,
  showText,
  StandardFonts,
  type PDFFont,
  type PDFName,
  type PDFOperator,
  type PDFPage,
} from 'pdf-lib'
import { formatDuration, formatPpm, type SlaBucket } from './compute.ts'
import { formatDate, formatDateTime, formatDayRange } from '../../lib/human-time.ts'
import type { SlaReport } from './service.ts'

const A4: [number, number] = [595.28, 841.89]
const MARGIN = 40
const COMPONENTS_PER_PAGE = 10
type Colour = [number, number, number]
const INK: Colour = [0.1, 0.1, 0.12]
const MUTED: Colour = [0.35, 0.35, 0.4]
const LEVEL_COLOURS: Record<SlaBucket['level'], Colour> = {
  none: [0.85, 0.85, 0.87],
  ok: [0.16, 0.6, 0.33],
  minor: [0.9, 0.65, 0.1],
  major: [0.8, 0.15, 0.15],
  maintenance: [0.25, 0.45, 0.85],
}

/** Characters Windows-1252 has beyond Latin-1 (the standard fonts' encoding). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ')

/** Text the standard fonts can draw: other characters become "?", control characters a space. */
export function winAnsi(text: string): string {
  let out = ''
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += ' '
    else if (code <= 0xff || WIN_ANSI_EXTRA.has(char)) out += char
    else out += '?'
  }
  return out
}

/**
 * Writes pages as raw content operators, flushed once per page: pdf-lib's drawText and
 * drawRectangle wrap every call in its own graphics state (about 0.4 ms per call, measured: a
 * month's report for 50 components spent ~200 ms there).
 */
/** The longest start of `line` that fits `width` with an ellipsis: one pass over the characters. */
function cut(font: PDFFont, line: string, size: number, width: number): string {
  const room = width - font.widthOfTextAtSize('…', size)
  let used = 0
  let end = 0
  for (const char of line) {
    used += font.widthOfTextAtSize(char, size)
    if (used > room) break
    end += char.length
  }
  return `${line.slice(0, end)}…`
}

class Writer {
  page!: PDFPage
  y = 0
  private ops: PDFOperator[] = []
  private keys = new Map<PDFFont, PDFName>()
  constructor(
    readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
  ) {}

  newPage(): void {
    this.flush()
    this.page = this.doc.addPage(A4)
    this.keys = new Map([this.font, this.bold].map((font) => [font, this.page.node.newFontDictionary(font.name, font.ref)]))
    this.y = A4[1] - MARGIN
  }

  push(...operators: PDFOperator[]): void {
    this.ops.push(...operators)
  }

  flush(): void {
    if (this.page && this.ops.length > 0) this.page.pushOperators(pushGraphicsState(), ...this.ops, popGraphicsState())
    this.ops = []
  }

  ensure(height: number): void {
    if (this.y - height < MARGIN) this.newPage()
  }

  /** One line of text at x, cut to `width` points with an ellipsis when longer. */
  text(value: string, x: number, options: { size?: number; bold?: boolean; width?: number; colour?: Colour } = {}): void {
    const size = options.size ?? 9
    const font = options.bold ? this.bold : this.font
    let line = winAnsi(value)
    const width = options.width ?? A4[0] - MARGIN - x
    if (font.widthOfTextAtSize(line, size) > width) line = cut(font, line, size, width)
    this.ops.push(
      setFillingRgbColor(...(options.colour ?? INK)),
      beginText(),
      setFontAndSize(this.keys.get(font)!, size),
      moveText(x, this.y),
      showText(font.encodeText(line)),
      endText(),
    )
  }

  /** Wrapped text over the page's width; moves down as it goes. */
  paragraph(value: string, size = 9): void {
    const width = A4[0] - 2 * MARGIN
    let line = ''
    for (const word of winAnsi(value).split(' ')) {
      const next = line ? `${line} ${word}` : word
      if (this.font.widthOfTextAtSize(next, size) > width && line) {
        this.ensure(size + 3)
        this.text(line, MARGIN, { size, colour: MUTED })
        this.y -= size + 3
        line = word
      } else line = next
    }
    if (line) {
      this.ensure(size + 3)
      this.text(line, MARGIN, { size, colour: MUTED })
      this.y -= size + 3
    }
  }
}

const COLUMNS = [
  { label: 'Component', x: 0, width: 118 },
  { label: 'Target', x: 120, width: 46 },
  { label: 'Actual', x: 168, width: 50 },
  { label: 'Met', x: 220, width: 24 },
  { label: 'Downtime', x: 246, width: 52 },
  { label: 'Budget used', x: 300, width: 52 },
  { label: 'Budget left', x: 354, width: 52 },
  { label: 'Outages', x: 408, width: 34 },
  { label: 'Longest', x: 444, width: 34 },
  { label: 'MTTR', x: 480, width: 34 },
] as const

export async function renderSlaPdf(report: SlaReport): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create()
  doc.setTitle(winAnsi(`SLA report: ${report.page.name}`))
  doc.setProducer('Lantern')
  doc.setCreator('Lantern')
  doc.setCreationDate(new Date(report.generatedAt))
  doc.setModificationDate(new Date(report.generatedAt))
  const w = new Writer(doc, await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold))
  const header = () => {
    w.text(`SLA report: ${report.page.name}`, MARGIN, { size: 15, bold: true })
    w.y -= 18
    w.text(`${formatDayRange(report.from, report.to - 86_400_000)} (UTC days) - generated ${formatDateTime(report.generatedAt)}`, MARGIN, { colour: MUTED })
    w.y -= 16
  }

  const pages = Math.max(1, Math.ceil(report.components.length / COMPONENTS_PER_PAGE))
  for (let p = 0; p < pages; p++) {
    w.newPage()
    header()
    if (p === 0) {
      w.text('Accounting policy', MARGIN, { bold: true, size: 10 })
      w.y -= 13
      for (const policy of report.policies) w.paragraph(policy, 8)
      w.y -= 6
    }
    for (const column of COLUMNS) w.text(column.label, MARGIN + column.x, { bold: true, size: 8, width: column.width })
    w.y -= 14
    for (const c of report.components.slice(p * COMPONENTS_PER_PAGE, (p + 1) * COMPONENTS_PER_PAGE)) {
      w.ensure(40)
      const cells = [
        c.name,
        c.target ? `${formatPpm(c.target.targetPpm)} %` : 'none',
        c.actualPpm === null ? 'no data' : `${formatPpm(c.actualPpm)} %`,
        c.met === null ? '-' : c.met ? 'yes' : 'no',
        formatDuration(c.downtimeMs),
        c.budget ? (Number.isFinite(c.budget.usedPct) ? `${c.budget.usedPct.toFixed(2)} %` : 'over') : '-',
        c.budget ? formatDuration(c.budget.leftMs) : '-',
        String(c.outages.count),
        formatDuration(c.outages.longestMs),
        c.incidents.mttrMs === null ? '-' : formatDuration(c.incidents.mttrMs),
      ]
      COLUMNS.forEach((column, i) => w.text(cells[i]!, MARGIN + column.x, { size: 8, width: column.width, bold: i === 0 }))
      w.y -= 12
      drawStrip(w, c.strip)
      w.y -= 20
    }
    w.text('Strip: green up, amber degraded or a little down, red 5 % or more down, blue maintenance only, grey no data.', MARGIN, { size: 7, colour: MUTED })
    w.y -= 12
  }

  w.ensure(40)
  w.y -= 6
  w.text(`Incidents (${report.incidents.length})`, MARGIN, { bold: true, size: 11 })
  w.y -= 14
  if (report.incidents.length === 0) {
    w.text('None in this range.', MARGIN, { colour: MUTED })
    w.y -= 12
  }
  for (const incident of report.incidents) {
    w.ensure(12)
    const resolved = incident.resolvedAt === null ? 'unresolved' : `${formatDuration(incident.durationMs)} to resolve`
    w.text(`${formatDate(incident.startedAt)}  ${incident.title}`, MARGIN, { size: 8, width: 300 })
    w.text(`${resolved}; ${incident.components.join(', ') || 'no component'}`, MARGIN + 305, { size: 8, colour: MUTED })
    w.y -= 12
  }
  w.ensure(40)
  w.y -= 6
  w.text(`Excluded maintenance (${report.maintenance.length})`, MARGIN, { bold: true, size: 11 })
  w.y -= 14
  if (report.maintenance.length === 0) {
    w.text('None in this range.', MARGIN, { colour: MUTED })
    w.y -= 12
  }
  for (const window of report.maintenance) {
    w.ensure(12)
    w.text(`${formatDate(window.start)}  ${window.title}`, MARGIN, { size: 8, width: 300 })
    w.text(`${formatDuration(window.excludedMs)} excluded; ${window.components.join(', ')}`, MARGIN + 305, { size: 8, colour: MUTED })
    w.y -= 12
  }
  w.flush()
  // A copy on a plain ArrayBuffer: what Response and mail attachments take.
  return new Uint8Array(await doc.save({ useObjectStreams: true }))
}

/**
 * The bars as path operators, one fill per colour (not a rectangle each, with its own state).
 */
function drawStrip(w: Writer, strip: readonly SlaBucket[]): void {
  const width = A4[0] - 2 * MARGIN
  const gap = strip.length > 60 ? 0.5 : 1
  const bar = Math.max(0.5, (width - gap * (strip.length - 1)) / Math.max(1, strip.length))
  const byLevel = new Map<SlaBucket['level'], number[]>()
  strip.forEach((bucket, i) => {
    const list = byLevel.get(bucket.level) ?? []
    list.push(i)
    byLevel.set(bucket.level, list)
  })
  for (const [level, indexes] of byLevel) {
    w.push(setFillingRgbColor(...LEVEL_COLOURS[level]))
    for (const i of indexes) w.push(rectangle(MARGIN + i * (bar + gap), w.y - 2, bar, 10))
    w.push(fill())
  }
}
