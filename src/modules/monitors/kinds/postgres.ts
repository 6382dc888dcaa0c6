/**
 * PostgreSQL checks: connect to the guard-checked address and log in, then optionally one query in a
 * read-only transaction (edge: the `pg` driver, loaded on the first postgres check only).
 */
import type PgModule from 'pg'
import { isIpLiteral, type AddressGuard } from '../../../lib/address-guard.ts'
import { abortable } from '../../../lib/abortable.ts'
import type { MonitorDefinition } from '../definition.ts'
import { thrownResult } from './failure.ts'
import { commonSpec, type MonitorKind } from './kind.ts'
import { parseServerTarget } from './server-target.ts'
import { clipMessage, type CheckDeps, type CheckResult, type PostgresSpec } from './spec.ts'
import { fieldChecks, type SpecProblem } from './validate.ts'

export const POSTGRES_PORT = 5432
export const MAX_QUERY_LENGTH = 2_000
const SSL_MODES = ['disable', 'require', 'verify-full'] as const

class QueryFailed extends Error {}

export async function runPostgresCheck(spec: PostgresSpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const started = elapsed()
  const signal = AbortSignal.timeout(spec.timeoutMs)
  let client: PgModule.Client | undefined
  try {
    const checked = await deps.guard.check(spec.host, signal)
    const { Client } = (await import('pg')).default
    const ssl =
      spec.sslmode === 'disable'
        ? false
        : { rejectUnauthorized: spec.sslmode === 'verify-full', ...(isIpLiteral(checked.host) ? {} : { servername: checked.host }), ...(deps.trustedCa ? { ca: deps.trustedCa } : {}) }
    client = new Client({
      host: checked.address,
      port: spec.port,
      user: spec.user,
      password: spec.password ?? '',
      database: spec.database,
      ssl,
      connectionTimeoutMillis: spec.timeoutMs,
      statement_timeout: spec.timeoutMs,
      application_name: 'lantern-monitor',
    })
    client.on('error', () => {})
    const open = client
    await abortable(open.connect(), signal)
    let message = `logged in to ${spec.database} as ${spec.user}`
    if (spec.query !== undefined) {
      const rows = await abortable(runReadOnly(open, spec.query), signal)
      const first = rows[0] ? Object.values(rows[0])[0] : undefined
      const value = first === undefined ? undefined : first === null ? 'null' : String(first instanceof Date ? first.toISOString() : first)
      if (spec.expectedValue !== undefined && value !== spec.expectedValue) {
        return result('fail', value === undefined ? `the query returned no row, expected ${JSON.stringify(spec.expectedValue)}` : `the query returned ${JSON.stringify(value.slice(0, 100))}, expected ${JSON.stringify(spec.expectedValue)}`)
      }
      message += spec.expectedValue !== undefined ? '; the query returned the expected value' : `; the query returned ${rows.length === 1 ? '1 row' : `${rows.length} rows`}`
    }
    const responseTimeMs = Math.round(elapsed() - started)
    const slow = spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
    return result(slow ? 'degraded' : 'ok', slow ? `${message}, slower than ${spec.degradedAfterMs} ms` : message)

    function result(outcome: CheckResult['outcome'], text: string): CheckResult {
      return { outcome, responseTimeMs: Math.round(elapsed() - started), message: clipMessage(text), details: { address: checked.address } }
    }
  } catch (error) {
    if (error instanceof QueryFailed && !signal.aborted) return { outcome: 'fail', responseTimeMs: null, message: clipMessage(error.message) }
    return thrownResult(error, signal, spec.timeoutMs, { allowPrivate: deps.guard.allowPrivate })
  } finally {
    client?.end().catch(() => {})
  }
}

/** One statement (the extended protocol refuses several) inside a transaction that cannot write, always rolled back. */
async function runReadOnly(client: PgModule.Client, query: string): Promise<Record<string, unknown>[]> {
  await client.query('BEGIN READ ONLY')
  try {
    const answer = await client.query({ text: query, queryMode: 'extended' } as PgModule.QueryConfig)
    return answer.rows
  } catch (error) {
    throw new QueryFailed(`the query failed: ${(error as Error).message}`)
  } finally {
    await client.query('ROLLBACK').catch(() => {})
  }
}

const POSTGRES_SCHEMES = ['postgres', 'postgresql'] as const

function postgresSpec(definition: MonitorDefinition): PostgresSpec {
  const t = parseServerTarget(definition.target ?? '', POSTGRES_SCHEMES, POSTGRES_PORT)
  const o = definition.options
  const sslmode = (t.params.get('sslmode') ?? 'disable') as PostgresSpec['sslmode']
  return {
    type: 'postgres',
    host: t.host,
    port: t.port,
    user: t.username || 'postgres',
    database: t.path || t.username || 'postgres',
    sslmode,
    ...commonSpec(definition),
    ...(t.password ? { password: t.password } : {}),
    ...(o.query ? { query: o.query } : {}),
    ...(o.expected_value != null && o.expected_value !== '' ? { expectedValue: o.expected_value } : {}),
  }
}

function validatePostgresSpec(spec: PostgresSpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  if (!spec.host) check.problem('host', 'must be host[:port] or postgres://user:password@host[:port]/database')
  else check.host('host', spec.host)
  check.port('host', spec.port)
  if (!SSL_MODES.includes(spec.sslmode)) check.problem('host', `sslmode must be one of ${SSL_MODES.join(', ')}`)
  if (spec.query !== undefined && spec.query.length > MAX_QUERY_LENGTH) check.problem('query', `must be at most ${MAX_QUERY_LENGTH} characters`)
  if (spec.expectedValue !== undefined && spec.query === undefined) check.problem('expectedValue', 'give the query whose first value is expected')
  return check.problems
}

/** postgres: a login succeeds; with a query, it runs read-only (and its first value is the expected one). */
export const postgresKind: MonitorKind<PostgresSpec> = { type: 'postgres', toSpec: postgresSpec, validate: validatePostgresSpec, run: runPostgresCheck, probeable: false }
