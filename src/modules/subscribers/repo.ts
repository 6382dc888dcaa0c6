/** SQL of page subscribers; every method runs on the database or transaction it was made with. */
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely'
import type { Db } from '../../db/client.ts'
import { randomToken } from '../../lib/crypto.ts'
import type { SubscriberFanoutsTable, SubscribersTable } from './tables.ts'

export type SubscriberRow = Selectable<SubscribersTable>
export type NewSubscriber = Insertable<SubscribersTable>

/** SQLite takes at most 32 766 bound values; 14 columns × 1 000 rows stays far below. */
const INSERT_BATCH = 1_000

export class SubscribersRepo {
  constructor(readonly db: Db) {}

  /** Runs `work` in one transaction with a repo bound to it (the outbox rows go in the same one). */
  transaction<T>(work: (repo: SubscribersRepo, trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new SubscribersRepo(trx), trx))
  }

  /** The instance's signing key of manage tokens, made on first use (two racing makers agree on the first). */
  async signingSecret(now: number): Promise<string> {
    await this.db.insertInto('subscriber_signing_keys').values({ id: 1, secret: randomToken(32), created_at: now }).onConflict((c) => c.doNothing()).execute()
    const row = await this.db.selectFrom('subscriber_signing_keys').select('secret').where('id', '=', 1).executeTakeFirstOrThrow()
    return row.secret
  }

  /** A page as subscribers see it, with its owner's plan. */
  page(pageId: number) {
    return this.db
      .selectFrom('status_pages')
      .innerJoin('teams', 'teams.id', 'status_pages.owner_id')
      .select(['status_pages.id', 'status_pages.owner_id', 'status_pages.slug', 'status_pages.name', 'status_pages.custom_domain', 'status_pages.custom_domain_state', 'status_pages.visibility', 'status_pages.blocked', 'status_pages.language', 'status_pages.time_zone', 'teams.plan'])
      .where('status_pages.id', '=', pageId)
      .executeTakeFirst()
  }

  components(pageId: number) {
    return this.db.selectFrom('components').select(['id', 'name', 'group_name']).where('page_id', '=', pageId).orderBy('position').orderBy('id').execute()
  }

  async insert(row: NewSubscriber): Promise<SubscriberRow> {
    return this.db.insertInto('subscribers').values(row).returningAll().executeTakeFirstOrThrow()
  }

  async insertMany(rows: readonly NewSubscriber[]): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_BATCH) await this.db.insertInto('subscribers').values(rows.slice(i, i + INSERT_BATCH)).execute()
  }

  update(id: number, patch: Updateable<SubscribersTable>) {
    return this.db.updateTable('subscribers').set(patch).where('id', '=', id).returningAll().executeTakeFirst()
  }

  byId(id: number) {
    return this.db.selectFrom('subscribers').selectAll().where('id', '=', id).executeTakeFirst()
  }

  byConfirmHash(hash: string) {
    return this.db.selectFrom('subscribers').selectAll().where('confirm_token_hash', '=', hash).where('unsubscribed_at', 'is', null).executeTakeFirst()
  }

  activeEmail(pageId: number, email: string) {
    return this.db.selectFrom('subscribers').selectAll().where('page_id', '=', pageId).where('kind', '=', 'email').where('email', '=', email).where('unsubscribed_at', 'is', null).executeTakeFirst()
  }

  /** The active webhook, Slack or Teams subscriber of this URL on the page. */
  activeUrl(pageId: number, url: string) {
    return this.db.selectFrom('subscribers').selectAll().where('page_id', '=', pageId).where('kind', '<>', 'email').where('url', '=', url).where('unsubscribed_at', 'is', null).executeTakeFirst()
  }

  async activeAddresses(pageId: number): Promise<Set<string>> {
    const rows = await this.db.selectFrom('subscribers').select(['email', 'url']).where('page_id', '=', pageId).where('unsubscribed_at', 'is', null).execute()
    return new Set(rows.map((r) => r.email ?? r.url ?? ''))
  }

  /** Active subscribers that count against the plan: confirmed ones, and pending ones whose link still works. */
  async countTowardsLimit(pageId: number, now: number): Promise<number> {
    const row = await this.db
      .selectFrom('subscribers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('page_id', '=', pageId)
      .where('unsubscribed_at', 'is', null)
      .where((eb) => eb.or([eb('confirmed_at', 'is not', null), eb('confirm_expires_at', '>', now)]))
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  async counts(pageId: number) {
    const row = await this.db
      .selectFrom('subscribers')
      // count(case …), not sum(boolean): PostgreSQL has no sum over booleans.
      .select([
        sql<number>`count(case when kind = 'email' and confirmed_at is not null then 1 end)`.as('email'),
        // Pending: addresses and chat channels a visitor gave that have not confirmed yet.
        sql<number>`count(case when kind <> 'webhook' and confirmed_at is null then 1 end)`.as('pending'),
        // Webhooks and confirmed Slack or Teams channels.
        sql<number>`count(case when kind <> 'email' and (kind = 'webhook' or confirmed_at is not null) then 1 end)`.as('webhook'),
      ])
      .where('page_id', '=', pageId)
      .where('unsubscribed_at', 'is', null)
      .executeTakeFirstOrThrow()
    return { email: Number(row.email ?? 0), pending: Number(row.pending ?? 0), webhook: Number(row.webhook ?? 0) }
  }

  /** Active subscribers of a page, oldest first, from after `afterId`. */
  listActive(pageId: number, options: { afterId?: number; limit?: number } = {}) {
    let query = this.db.selectFrom('subscribers').selectAll().where('page_id', '=', pageId).where('unsubscribed_at', 'is', null)
    if (options.afterId !== undefined) query = query.where('id', '>', options.afterId)
    query = query.orderBy('id')
    if (options.limit !== undefined) query = query.limit(options.limit)
    return query.execute()
  }

  /** The newest subscriber of a page, active or not (one step down the (page_id, id) index). */
  async newestSubscriberId(pageId: number): Promise<number | undefined> {
    const row = await this.db.selectFrom('subscribers').select('id').where('page_id', '=', pageId).orderBy('id', 'desc').limit(1).executeTakeFirst()
    return row?.id
  }

  /** Who hears a page's events, after `afterId` up to `uptoId`, oldest first, at most `limit`. */
  recipientsBetween(pageId: number, afterId: number, uptoId: number, limit: number) {
    return this.db
      .selectFrom('subscribers')
      .select(['id', 'kind', 'email', 'url', 'component_ids', 'source', 'manage_key', 'language'])
      .where('page_id', '=', pageId)
      .where('id', '>', afterId)
      .where('id', '<=', uptoId)
      .where('unsubscribed_at', 'is', null)
      .where((eb) => eb.or([eb('kind', '=', 'webhook'), eb('confirmed_at', 'is not', null)]))
      .orderBy('id')
      .limit(limit)
      .execute()
  }

  /** The languages a page's active subscribers chose (NULL: the page's default, left out). */
  async languages(pageId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('subscribers').select('language').distinct().where('page_id', '=', pageId).where('unsubscribed_at', 'is', null).where('language', 'is not', null).execute()
    return rows.map((r) => r.language!)
  }

  async insertFanout(row: Insertable<SubscriberFanoutsTable>): Promise<void> {
    await this.db.insertInto('subscriber_fanouts').values(row).execute()
  }

  /** The oldest pending fan-out, or the one with `id`. */
  fanout(id?: number) {
    let query = this.db.selectFrom('subscriber_fanouts').selectAll()
    if (id !== undefined) query = query.where('id', '=', id)
    return query.orderBy('id').limit(1).executeTakeFirst()
  }

  /** Moves a fan-out's progress from `from` to `to`; false when someone else moved it first. */
  async advanceFanout(id: number, from: number, to: number): Promise<boolean> {
    const result = await this.db.updateTable('subscriber_fanouts').set({ last_subscriber_id: to }).where('id', '=', id).where('last_subscriber_id', '=', from).executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  /** Drops a finished fan-out; false when it was no longer there at `from` (someone else finished it). */
  async finishFanout(id: number, from: number): Promise<boolean> {
    const result = await this.db.deleteFrom('subscriber_fanouts').where('id', '=', id).where('last_subscriber_id', '=', from).executeTakeFirst()
    return Number(result.numDeletedRows) === 1
  }

  async pendingFanouts(): Promise<number> {
    const row = await this.db.selectFrom('subscriber_fanouts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    return Number(row.n)
  }

  async incident(incidentId: number, updateId: number | undefined) {
    const incident = await this.db.selectFrom('incidents').selectAll().where('id', '=', incidentId).executeTakeFirst()
    if (!incident) return undefined
    let updates = this.db.selectFrom('incident_updates').selectAll().where('incident_id', '=', incidentId)
    updates = updateId === undefined ? updates : updates.where('id', '=', updateId)
    const update = await updates.orderBy('at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst()
    const components = await this.db
      .selectFrom('incident_components')
      .innerJoin('components', 'components.id', 'incident_components.component_id')
      .select(['components.id', 'components.name', 'components.status'])
      .where('incident_id', '=', incidentId)
      .execute()
    return { incident, update, components }
  }

  async maintenance(maintenanceId: number) {
    const maintenance = await this.db.selectFrom('maintenances').selectAll().where('id', '=', maintenanceId).executeTakeFirst()
    if (!maintenance) return undefined
    const components = await this.db
      .selectFrom('maintenance_components')
      .innerJoin('components', 'components.id', 'maintenance_components.component_id')
      .select(['components.id', 'components.name', 'components.status'])
      .where('maintenance_id', '=', maintenanceId)
      .execute()
    return { maintenance, components }
  }
}
