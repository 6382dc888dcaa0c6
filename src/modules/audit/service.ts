/**
 * The audit log's writer for owner routes: every successful write (accounts/auth.ts hands it over
 * after the handler, before the answer) becomes one append-only row with who, which team and page,
 * the action, when, from which address and client, and the names of the fields sent — never their
 * values, so no secret or password can land here.
 *
 * A request's row is committed before its answer is sent, but not on its own: the rows of requests
 * answered in the same turn of the event loop go in one multi-row insert (lib/batched-writes.ts), a
 * commit per turn instead of per write. The row is taken its time when the request records it.
 */
import type { Clock } from '../../lib/clock.ts'
import type { Db } from '../../db/client.ts'
import { BatchedWriter, powerOfTwoChunks } from '../../lib/batched-writes.ts'
import type { Insertable } from 'kysely'
import { CompiledOnce } from '../../db/compiled-once.ts'
import type { AuditSink, RequestAudit } from '../accounts/auth.ts'
import type { Owner } from '../accounts/service.ts'
import { PLANS, type Plan } from '../../lib/plans.ts'
import { DAY_MS } from '../../lib/time.ts'
import { auditRetentionDays } from '../plans/roles.ts'
import type { Selectable, SelectQueryBuilder } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { AuditActorKind, AuditLogTable } from './tables.ts'

/** `/user/api/v1/status-pages/:id/components` → `status-pages.components`. */
const actionOf = (method: string, route: string): string => {
  const parts = route.replace(/^\/user(\/api\/v1)?\/?/, '').split('/').filter((part) => part !== '' && !part.startsWith(':'))
  return `${parts.join('.') || 'user'}.${method.toLowerCase()}`
}

const fieldsOf = (body: unknown): string[] =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).sort() : []

/** The most rows one page of the API or the screen holds, and the most one CSV holds. */
export const MAX_AUDIT_PAGE = 200
export const DEFAULT_AUDIT_PAGE = 50
export const MAX_AUDIT_CSV_ROWS = 10_000

export interface AuditFilters {
  /** The person (their user id): their own requests and their API keys'. */
  actorUserId?: number
  pageId?: number
  /** Exact, as recorded: `status-pages.patch`. */
  action?: string
  /** Inclusive, ms. */
  from?: number
  /** Exclusive, ms. */
  to?: number
}

export interface AuditEntry {
  id: number
  actorKind: AuditActorKind
  actorUserId: number | null
  actorLabel: string
  pageId: number | null
  action: string
  objectType: string
  objectId: string | null
  /** The names of the fields sent (never their values). */
  fields: string[]
  address: string | null
  client: string | null
  createdAt: number
}

export interface AuditPage {
  entries: AuditEntry[]
  /** The cursor of the next (older) page; null on the last one. */
  nextCursor: number | null
}

const entryOf = (row: Selectable<AuditLogTable>): AuditEntry => {
  let fields: string[] = []
  try {
    const parsed = JSON.parse(row.summary) as { fields?: unknown }
    if (Array.isArray(parsed.fields)) fields = parsed.fields.filter((field): field is string => typeof field === 'string')
  } catch {
    // A summary that is not JSON names no fields.
  }
  return {
    id: Number(row.id),
    actorKind: row.actor_kind,
    actorUserId: row.actor_user_id === null ? null : Number(row.actor_user_id),
    actorLabel: row.actor_label,
    pageId: row.page_id === null ? null : Number(row.page_id),
    action: row.action,
    objectType: row.object_type,
    objectId: row.object_id,
    fields,
    address: row.address,
    client: row.client,
    createdAt: Number(row.created_at),
  }
}

const actorOf = (owner: Owner): { kind: AuditActorKind; label: string } => ({
  kind: owner.via === 'api_key' ? 'api_key' : owner.via === 'session' ? 'person' : 'system',
  label: owner.via === 'api_key' ? `${owner.email} (API key ${owner.keyName ?? owner.keyId})` : owner.email,
})

type AuditRow = Insertable<AuditLogTable>

/** The columns of a row, in the order of `AuditRow`'s keys and of a statement's parameters. */
const COLUMNS = ['team_id', 'actor_kind', 'actor_user_id', 'actor_label', 'page_id', 'action', 'object_type', 'object_id', 'summary', 'address', 'client', 'created_at'] as const satisfies ReadonlyArray<keyof AuditRow>

/** The most rows one statement inserts: 64 × 12 parameters stay far below either engine's limit. */
const LARGEST_INSERT = 64

export class AuditService implements AuditSink {
  private readonly writer: BatchedWriter<AuditRow>
  /** The insert of n rows, compiled once per n (1, 2, 4, … 64); its parameters are the rows' values in COLUMNS order. */
  private readonly inserts = new CompiledOnce()

  constructor(private readonly deps: { db: Db; clock: Clock }) {
    this.writer = new BatchedWriter({ write: (rows) => this.insertRows(rows) })
  }

  /** Writes the rows queued so far and waits for them (shutdown). */
  flush(): Promise<void> {
    return this.writer.flush()
  }

  private async insertRows(rows: readonly AuditRow[]): Promise<void> {
    const chunks = powerOfTwoChunks(rows, LARGEST_INSERT)
    if (chunks.length === 1) return this.insertChunk(this.deps.db, chunks[0]!)
    // All or none (BatchedWriter writes the rows again one by one when a batch fails).
    await this.deps.db.transaction().execute(async (trx) => {
      for (const chunk of chunks) await this.insertChunk(trx, chunk)
    })
  }

  private async insertChunk(db: Db, rows: readonly AuditRow[]): Promise<void> {
    const parameters = rows.flatMap((row) => COLUMNS.map((column) => row[column] ?? null))
    await this.inserts.execute(db, rows.length, () => db.insertInto('audit_log').values(rows.map((row) => Object.fromEntries(COLUMNS.map((column) => [column, row[column] ?? null])) as AuditRow)), parameters)
  }

  /**
   * One change a request made among several (configuration as code's apply: one row per object
   * created, changed or deleted), written with `db` — the change's own transaction.
   */
  async recordChange(change: {
    owner: Owner
    action: string
    objectType: string
    objectId: string
    pageId: number | null
    fields: readonly string[]
    address: string | null
    client: string | null
  }): Promise<void> {
    const { kind, label } = actorOf(change.owner)
    await this.deps.db
      .insertInto('audit_log')
      .values({
        team_id: change.owner.id,
        actor_kind: kind,
        actor_user_id: change.owner.userId,
        actor_label: label,
        page_id: change.pageId,
        action: change.action,
        object_type: change.objectType,
        object_id: change.objectId.slice(0, 100),
        summary: JSON.stringify({ fields: [...change.fields] }),
        address: change.address?.slice(0, 100) ?? null,
        client: change.client,
        created_at: this.deps.clock.now(),
      })
      .execute()
  }

  async recordRequest(entry: RequestAudit): Promise<void> {
    const { owner } = entry
    const params = entry.params ?? {}
    const { kind, label } = actorOf(owner)
    const pageId = /^\/user(\/api\/v1)?\/(status-pages|pages)\/:id/.test(entry.route) && params.id !== undefined && /^\d{1,15}$/.test(params.id) ? Number(params.id) : null
    const objectId = Object.entries(params).find(([name]) => name !== 'token')?.[1] ?? null
    await this.writer.add({
      team_id: owner.id,
      actor_kind: kind,
      actor_user_id: owner.userId,
      actor_label: label,
      page_id: pageId,
      action: actionOf(entry.method, entry.route),
      object_type: entry.route,
      object_id: objectId === null || objectId === undefined ? null : String(objectId).slice(0, 100),
      summary: JSON.stringify({ fields: fieldsOf(entry.body) }),
      address: entry.address.slice(0, 100),
      client: entry.client,
      created_at: this.deps.clock.now(),
    })
  }

  /**
   * What a sign-in through single sign-on did, as a row of its own (no route wrote it): `sso.sign_in`
   * in the person's personal team, `team.members.sso_join` in a team they joined by their domain.
   * The actor is the person, of kind `sso`; `objectId` names the provider's subject or the role.
   */
  async recordSso(entry: { teamId: number; userId: number; email: string; action: 'sso.sign_in' | 'team.members.sso_join'; objectType: string; objectId: string | null; fields: string[]; address: string; client: string | null }): Promise<void> {
    await this.writer.add({
      team_id: entry.teamId,
      actor_kind: 'sso',
      actor_user_id: entry.userId,
      actor_label: entry.email,
      page_id: null,
      action: entry.action,
      object_type: entry.objectType,
      object_id: entry.objectId === null ? null : entry.objectId.slice(0, 100),
      summary: JSON.stringify({ fields: entry.fields }),
      address: entry.address.slice(0, 100),
      client: entry.client,
      created_at: this.deps.clock.now(),
    })
  }

  /**
   * One page of the team's rows, newest first. `cursor` is the `nextCursor` of the page before
   * (rows with a smaller id): a page never shifts when rows are written meanwhile.
   */
  async list(teamId: number, filters: AuditFilters, options: { limit: number; cursor?: number }): Promise<AuditPage> {
    const limit = Math.min(Math.max(1, Math.floor(options.limit)), MAX_AUDIT_CSV_ROWS)
    let query = this.deps.db.selectFrom('audit_log').selectAll().where('team_id', '=', teamId)
    if (filters.actorUserId !== undefined) query = query.where('actor_user_id', '=', filters.actorUserId)
    if (filters.pageId !== undefined) query = query.where('page_id', '=', filters.pageId)
    if (filters.action !== undefined) query = query.where('action', '=', filters.action)
    if (filters.from !== undefined) query = query.where('created_at', '>=', filters.from)
    if (filters.to !== undefined) query = query.where('created_at', '<', filters.to)
    if (options.cursor !== undefined) query = query.where('id', '<', options.cursor)
    const rows = await query.orderBy('id', 'desc').limit(limit + 1).execute()
    const entries = rows.slice(0, limit).map(entryOf)
    return { entries, nextCursor: rows.length > limit ? entries[entries.length - 1]!.id : null }
  }

  /** The people who appear in the team's rows (for the screen's filter), by label. */
  async actors(teamId: number): Promise<{ userId: number; label: string }[]> {
    const rows = await this.deps.db
      .selectFrom('audit_log')
      .select(['actor_user_id', (eb) => eb.fn.max('actor_label').as('label')])
      .where('team_id', '=', teamId)
      .where('actor_user_id', 'is not', null)
      .groupBy('actor_user_id')
      .orderBy('label')
      .limit(MAX_AUDIT_PAGE)
      .execute()
    // A person by their address: "ops@example.com (API key deploy)" is ops@example.com too.
    return rows.map((row) => ({ userId: Number(row.actor_user_id), label: String(row.label).replace(/ \(API key .*\)$/, '') }))
  }

  /**
   * Deletes rows past their team's retention (the plan's days, `plans/roles.ts`) in batches of
   * `batchSize`, each its own statement so writers never wait long. Rows of a team that no longer
   * exists keep the longest retention. Returns how many rows went.
   */
  async prune(batchSize = 2_000): Promise<number> {
    const now = this.deps.clock.now()
    let total = 0
    const byPlan = new Map<number, Plan[]>()
    for (const plan of PLANS) byPlan.set(auditRetentionDays(plan), [...(byPlan.get(auditRetentionDays(plan)) ?? []), plan])
    const longest = Math.max(...byPlan.keys())
    for (const [days, plans] of byPlan) {
      const before = now - days * DAY_MS
      total += await this.pruneBatches(batchSize, (db) =>
        db
          .selectFrom('audit_log')
          .select('audit_log.id')
          .where('audit_log.created_at', '<', before)
          .where('audit_log.team_id', 'in', (eb) => eb.selectFrom('teams').select('teams.id').where('teams.plan', 'in', plans))
          .limit(batchSize),
      )
    }
    const before = now - longest * DAY_MS
    total += await this.pruneBatches(batchSize, (db) =>
      db
        .selectFrom('audit_log')
        .select('audit_log.id')
        .where('audit_log.created_at', '<', before)
        .where('audit_log.team_id', 'not in', (eb) => eb.selectFrom('teams').select('teams.id'))
        .limit(batchSize),
    )
    return total
  }

  private async pruneBatches(batchSize: number, ids: (db: Db) => SelectQueryBuilder<Database, 'audit_log', { id: number }>): Promise<number> {
    let total = 0
    for (;;) {
      const result = await this.deps.db
        .deleteFrom('audit_log')
        .where('id', 'in', ids(this.deps.db))
        .executeTakeFirst()
      const deleted = Number(result.numDeletedRows)
      total += deleted
      if (deleted < batchSize) return total
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
  }
}
