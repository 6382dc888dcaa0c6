/**
 * CSV for subscriber import and export (pure): RFC 4180 fields (quotes, doubled quotes, CRLF or
 * LF), and cells that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first)
 * written with a leading `'`, which the import takes off again, so a file round-trips.
 */

const FORMULA_START = /^[=+\-@\t\r]/

/** One cell as text a spreadsheet shows but never evaluates, quoted when it must be. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

export function csvLine(cells: readonly string[]): string {
  return cells.map(csvCell).join(',') + '\r\n'
}

/** What an exported cell read back: the `'` put before a formula-like value is taken off. */
export function unescapeCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value
}

/** Rows of cells; a quote left open is an error naming the line it opened on. */
export function parseCsv(text: string): { rows: string[][] } | { error: string } {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  let line = 1
  let quoteLine = 0
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!
    if (quoted) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
          cell += '"'
          i++
        } else quoted = false
      } else {
        if (ch === '\n') line++
        cell += ch
      }
      continue
    }
    if (ch === '"' && cell === '') {
      quoted = true
      quoteLine = line
    } else if (ch === ',') {
      row.push(cell)
      cell = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && input[i + 1] === '\n') i++
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      line++
    } else cell += ch
  }
  if (quoted) return { error: `line ${quoteLine}: a quoted field is not closed` }
  if (cell !== '' || row.length > 0) {
    row.push(cell)
    rows.push(row)
  }
  // Blank lines carry nothing.
  return { rows: rows.filter((r) => !(r.length === 1 && r[0]!.trim() === '')) }
}
