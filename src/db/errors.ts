/**
 * Recognises a unique-constraint refusal from either engine, so that a lost race on a unique column
 * or index becomes the same clear answer on both. SQLite names it in the message
 * (`UNIQUE constraint failed: table.column`); PostgreSQL gives SQLSTATE 23505 with the table and
 * `Key (column)=(…) already exists.` in the detail.
 */
export interface UniqueViolation {
  table: string
  columns: string[]
}

const SQLITE_UNIQUE = /UNIQUE constraint failed: ([\w.]+(?:, [\w.]+)*)/
const POSTGRES_KEY = /^Key \(([^)]*)\)=/

export function uniqueViolation(error: unknown): UniqueViolation | undefined {
  if (!(error instanceof Error)) return undefined
  const fields = error as Error & { code?: unknown; table?: unknown; detail?: unknown }
  if (fields.code === '23505' && typeof fields.table === 'string') {
    const key = typeof fields.detail === 'string' ? POSTGRES_KEY.exec(fields.detail)?.[1] : undefined
    return { table: fields.table, columns: key ? key.split(',').map((column) => column.trim().replace(/^"|"$/g, '')) : [] }
  }
  const qualified = SQLITE_UNIQUE.exec(error.message)?.[1]
  if (!qualified) return undefined
  const names = qualified.split(', ').map((name) => name.split('.'))
  return { table: names[0]![0]!, columns: names.map((parts) => parts[1]!) }
}

/** True when `error` is a unique refusal on `table` whose key is exactly `column`. */
export function isUniqueViolationOn(error: unknown, table: string, column: string): boolean {
  const violation = uniqueViolation(error)
  return violation?.table === table && violation.columns.length === 1 && violation.columns[0] === column
}
