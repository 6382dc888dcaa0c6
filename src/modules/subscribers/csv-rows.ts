/**
 * Subscriber rows to and from CSV (pure). Columns: `type` (email|webhook, default email), `email`,
 * `url`, `components` (component ids separated by spaces or `;`; empty: all), and in exports also
 * `status`, `source`, `created_at`, which the import ignores: an export imports back unchanged.
 */
import { toIso } from '../../lib/time.ts'
import { csvLine, parseCsv, unescapeCell } from './csv.ts'
import type { Subscriber } from './service.ts'
import type { SubscriberKind } from './tables.ts'
import { normalizeEmail, normalizeWebhookUrl, parseComponentIds } from './validate.ts'

export const EXPORT_COLUMNS = ['type', 'email', 'url', 'components', 'status', 'source', 'created_at'] as const
const MAX_REPORTED = 20

export function exportCsv(subscribers: readonly Subscriber[]): string {
  let out = csvLine(EXPORT_COLUMNS)
  for (const s of subscribers) {
    out += csvLine([s.kind, s.email ?? '', s.url ?? '', (s.componentIds ?? []).join(';'), s.status, s.source, toIso(s.createdAt)])
  }
  return out
}

export interface ImportRow {
  kind: SubscriberKind
  email: string | null
  url: string | null
  componentIds: number[] | null
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Every row checked; all errors (the first 20) or all rows, never some of each. */
export function readImport(text: string, components: ReadonlyArray<{ id: number }>, maxRows: number): { rows: ImportRow[] } | { errors: string[] } {
  const parsed = parseCsv(text)
  if ('error' in parsed) return { errors: [parsed.error] }
  const [header, ...body] = parsed.rows
  if (!header) return { errors: ['the file is empty (a header row with an email column is needed)'] }
  const names = header.map((h) => h.trim().toLowerCase())
  const col = (name: string) => names.indexOf(name)
  const [typeAt, emailAt, urlAt, componentsAt] = [col('type'), col('email'), col('url'), col('components')]
  if (emailAt === -1 && urlAt === -1) return { errors: ['the header row needs an email (or url) column'] }
  if (body.length === 0) return { errors: ['the file has no rows under its header'] }
  if (body.length > maxRows) return { errors: [`at most ${maxRows} rows per import`] }
  const rows: ImportRow[] = []
  const errors: string[] = []
  const seen = new Set<string>()
  body.forEach((cells, index) => {
    const line = index + 2
    const cell = (at: number) => (at === -1 ? '' : unescapeCell((cells[at] ?? '').trim()))
    try {
      const type = cell(typeAt).toLowerCase() || (cell(emailAt) === '' && cell(urlAt) !== '' ? 'webhook' : 'email')
      if (type !== 'email' && type !== 'webhook') throw new Error('type must be email or webhook')
      const rawIds = cell(componentsAt).split(/[\s;]+/).filter((part) => part !== '')
      if (rawIds.some((part) => !/^\d{1,15}$/.test(part))) throw new Error('components must be component ids separated by ";"')
      const componentIds = parseComponentIds(rawIds.map(Number), components)
      const row: ImportRow =
        type === 'email'
          ? { kind: 'email', email: normalizeEmail(cell(emailAt)), url: null, componentIds }
          : { kind: 'webhook', email: null, url: normalizeWebhookUrl(cell(urlAt)), componentIds }
      const key = row.email ?? row.url!
      if (seen.has(key)) throw new Error(`${key} appears twice in the file`)
      seen.add(key)
      rows.push(row)
    } catch (error) {
      errors.push(`line ${line}: ${messageOf(error)}`)
    }
  })
  if (errors.length > 0) return { errors: errors.length > MAX_REPORTED ? [...errors.slice(0, MAX_REPORTED), `and ${errors.length - MAX_REPORTED} more`] : errors }
  return { rows }
}
