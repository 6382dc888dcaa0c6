/** Kysely queries of the analytics feature: status and response-time roll-ups, page views and share tokens. */
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { ComponentStatus } from '../components/tables.ts'
import { BLOCK_DAYS, blockSpans, type DailyStatusRow } from './rollup.ts'
import type { ComponentResponseDailyTable, PageResponseDailyTable } from './tables.ts'

export class AnalyticsRepo {
  constructor(readonly db: Db) {}

  // ---- status roll-ups (written inside the component write's transaction) ----

  cursor(componentId: number) {
    return this.db.selectFrom('component_status_cursor').selectAll().where('component_id', '=', componentId).executeTakeFirst()
  }

  componentPageId(componentId: number) {
    return this.db.selectFrom('components').select('page_id').where('id', '=', componentId).executeTakeFirst()
  }

  dailyRow(componentId: number, day: number) {
    return this.db
      .selectFrom('component_status_daily')
      .selectAll()
      .where('component_id', '=', componentId)
      .where('day', '=', day)
      .executeTakeFirst()
  }

  async replaceDailyFrom(componentId: number, pageId: number, fromDay: number, rows: readonly DailyStatusRow[]) {
    await this.db.deleteFrom('component_status_daily').where('component_id', '=', componentId).where('day', '>=', fromDay).execute()
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500).map((row) => ({ component_id: componentId, page_id: pageId, ...row }))
      await this.db.insertInto('component_status_daily').values(chunk).execute()
    }
  }

  /** Rewrites the component's 16-day blocks from `fromDay`'s block on, from its daily rows. */
  async refreshBlocksFrom(componentId: number, fromDay: number) {
    const firstBlock = Math.floor(fromDay / BLOCK_DAYS)
    const days = await this.db
      .selectFrom('component_status_daily')
      .select(['day', 'longest_down_ms', 'shortest_down_ms'])
      .where('component_id', '=', componentId)
      .where('day', '>=', firstBlock * BLOCK_DAYS)
      .orderBy('day')
      .execute()
    await this.db.deleteFrom('component_status_blocks').where('component_id', '=', componentId).where('block', '>=', firstBlock).execute()
    const blocks = blockSpans(days).map((block) => ({ component_id: componentId, ...block }))
    for (let i = 0; i < blocks.length; i += 500) await this.db.insertInto('component_status_blocks').values(blocks.slice(i, i + 500)).execute()
  }

  upsertCursor(cursor: { componentId: number; pageId: number; firstDay: number; status: ComponentStatus; since: number }) {
    return this.db
      .insertInto('component_status_cursor')
      .values({
        component_id: cursor.componentId,
        page_id: cursor.pageId,
        first_day: cursor.firstDay,
        status: cursor.status,
        since: cursor.since,
      })
      .onConflict((oc) =>
        oc.column('component_id').doUpdateSet({ first_day: cursor.firstDay, status: cursor.status, since: cursor.since, page_id: cursor.pageId }),
      )
      .execute()
  }

  // ---- response-time roll-ups (written inside the checks write's transaction) ----

  componentPageIds(componentIds: readonly number[]) {
    return this.db.selectFrom('components').select(['id', 'page_id']).where('id', 'in', componentIds).execute()
  }

  /** The pages' daily rows from `fromDay` to `toDay` (every page, every day in the range), for a write. */
  pagesResponseDays(pageIds: readonly number[], fromDay: number, toDay: number) {
    return this.db
      .selectFrom('page_response_daily')
      .select(['page_id', 'day', 'n', 'sum_ms', 'hist'])
      .where('page_id', 'in', pageIds)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .execute()
  }

  async putPageResponseDays(rows: readonly PageResponseDailyTable[]) {
    for (let i = 0; i < rows.length; i += 200) {
      await this.db
        .insertInto('page_response_daily')
        .values(rows.slice(i, i + 200))
        .onConflict((oc) => oc.columns(['page_id', 'day']).doUpdateSet((eb) => ({ n: eb.ref('excluded.n'), sum_ms: eb.ref('excluded.sum_ms'), hist: eb.ref('excluded.hist') })))
        .execute()
    }
  }

  responseCursors(componentIds: readonly number[]) {
    return this.db.selectFrom('component_response_cursor').selectAll().where('component_id', 'in', componentIds).execute()
  }

  /** The components' rows from `fromDay` to `toDay`. */
  componentResponseDays(componentIds: readonly number[], fromDay: number, toDay: number) {
    return this.db
      .selectFrom('component_response_daily')
      .selectAll()
      .where('component_id', 'in', componentIds)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .execute()
  }

  async putComponentResponseDays(rows: readonly ComponentResponseDailyTable[]) {
    for (let i = 0; i < rows.length; i += 200) {
      await this.db
        .insertInto('component_response_daily')
        .values(rows.slice(i, i + 200))
        .onConflict((oc) =>
          oc.columns(['component_id', 'day']).doUpdateSet((eb) => ({
            n: eb.ref('excluded.n'),
            sum_ms: eb.ref('excluded.sum_ms'),
            hist: eb.ref('excluded.hist'),
            cum_n: eb.ref('excluded.cum_n'),
            cum_sum_ms: eb.ref('excluded.cum_sum_ms'),
            cum_hist: eb.ref('excluded.cum_hist'),
          })),
        )
        .execute()
    }
  }

  async putResponseCursors(cursors: ReadonlyArray<{ componentId: number; pageId: number; firstDay: number; lastDay: number }>) {
    for (let i = 0; i < cursors.length; i += 200) {
      await this.db
        .insertInto('component_response_cursor')
        .values(cursors.slice(i, i + 200).map((cursor) => ({ component_id: cursor.componentId, page_id: cursor.pageId, first_day: cursor.firstDay, last_day: cursor.lastDay })))
        .onConflict((oc) =>
          oc.column('component_id').doUpdateSet((eb) => ({ first_day: eb.ref('excluded.first_day'), last_day: eb.ref('excluded.last_day'), page_id: eb.ref('excluded.page_id') })),
        )
        .execute()
    }
  }

  // ---- reports ----

  findPage(pageId: number) {
    return this.db.selectFrom('status_pages').select(['id', 'owner_id', 'name', 'slug', 'blocked']).where('id', '=', pageId).executeTakeFirst()
  }

  async ownerPlanOfPage(pageId: number) {
    const row = await this.db
      .selectFrom('status_pages')
      .innerJoin('teams', 'teams.id', 'status_pages.owner_id')
      .select('teams.plan')
      .where('status_pages.id', '=', pageId)
      .executeTakeFirst()
    return row?.plan
  }

  firstPageOfOwner(ownerId: number) {
    return this.db
      .selectFrom('status_pages')
      .select(['id', 'name', 'slug'])
      .where('owner_id', '=', ownerId)
      .where('blocked', '=', 0)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst()
  }

  pagesOfOwner(ownerId: number) {
    return this.db.selectFrom('status_pages').select(['id', 'name', 'slug', 'blocked']).where('owner_id', '=', ownerId).orderBy('id').execute()
  }

  componentsOfPage(pageId: number) {
    return this.db
      .selectFrom('components')
      .select(['id', 'name', 'group_name', 'status'])
      .where('page_id', '=', pageId)
      .orderBy('position')
      .orderBy('id')
      .execute()
  }

  cursorsOfPage(pageId: number) {
    return this.db.selectFrom('component_status_cursor').selectAll().where('page_id', '=', pageId).execute()
  }

  /** The rows of (component, day) pairs asked for, in one query. */
  async dailyRowsAt(pairs: ReadonlyArray<{ componentId: number; day: number }>) {
    if (pairs.length === 0) return []
    return this.db
      .selectFrom('component_status_daily')
      .select(['component_id', 'day', 'cum_up_ms', 'cum_degraded_ms', 'cum_down_ms', 'cum_outages'])
      .where((eb) => eb.or(pairs.map((p) => eb.and([eb('component_id', '=', p.componentId), eb('day', '=', p.day)]))))
      .execute()
  }

  pageStatusDays(pageId: number, fromDay: number, toDay: number) {
    return this.db
      .selectFrom('page_status_daily')
      .select(['day', 'up_ms', 'degraded_ms', 'down_ms', 'outages'])
      .where('page_id', '=', pageId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .orderBy('day')
      .execute()
  }

  responseCursorsOfPage(pageId: number) {
    return this.db.selectFrom('component_response_cursor').selectAll().where('page_id', '=', pageId).execute()
  }

  /** The response-time running totals of (component, day) pairs asked for, in one query. */
  async responseRowsAt(pairs: ReadonlyArray<{ componentId: number; day: number }>) {
    if (pairs.length === 0) return []
    return this.db
      .selectFrom('component_response_daily')
      .select(['component_id', 'day', 'cum_n', 'cum_sum_ms', 'cum_hist'])
      .where((eb) => eb.or(pairs.map((p) => eb.and([eb('component_id', '=', p.componentId), eb('day', '=', p.day)]))))
      .execute()
  }

  pageResponseDays(pageId: number, fromDay: number, toDay: number) {
    return this.db
      .selectFrom('page_response_daily')
      .select(['day', 'n', 'sum_ms', 'hist'])
      .where('page_id', '=', pageId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .execute()
  }

  pageViewDays(pageId: number, fromDay: number, toDay: number) {
    return this.db
      .selectFrom('page_view_daily')
      .select(['day', 'views', 'uniques', 'incident_views', 'incident_uniques'])
      .where('page_id', '=', pageId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .orderBy('day')
      .execute()
  }

  // ---- page views ----

  salt(day: number) {
    return this.db.selectFrom('page_view_salts').select('salt').where('day', '=', day).executeTakeFirst()
  }

  async insertSalt(day: number, salt: string): Promise<string> {
    await this.db.insertInto('page_view_salts').values({ day, salt }).onConflict((oc) => oc.column('day').doNothing()).execute()
    return (await this.salt(day))!.salt
  }

  /** Forgets the salts and visitor hashes of days before `day`: old hashes can no longer be linked to anyone. */
  async forgetBefore(day: number) {
    await this.db.deleteFrom('page_view_salts').where('day', '<', day).execute()
    await this.db.deleteFrom('page_view_visitors').where('day', '<', day).execute()
  }

  /** Inserts visitor hashes, returning only those not seen before (the new unique visitors). */
  async insertVisitors(rows: ReadonlyArray<{ day: number; page_id: number; kind: number; hash: string }>) {
    const fresh: Array<{ day: number; page_id: number; kind: number }> = []
    for (let i = 0; i < rows.length; i += 200) {
      fresh.push(
        ...(await this.db
          .insertInto('page_view_visitors')
          .values(rows.slice(i, i + 200))
          .onConflict((oc) => oc.doNothing())
          .returning(['day', 'page_id', 'kind'])
          .execute()),
      )
    }
    return fresh
  }

  addPageViews(row: { page_id: number; day: number; views: number; uniques: number; incident_views: number; incident_uniques: number }) {
    return this.db
      .insertInto('page_view_daily')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['page_id', 'day']).doUpdateSet({
          views: sql`page_view_daily.views + excluded.views`,
          uniques: sql`page_view_daily.uniques + excluded.uniques`,
          incident_views: sql`page_view_daily.incident_views + excluded.incident_views`,
          incident_uniques: sql`page_view_daily.incident_uniques + excluded.incident_uniques`,
        }),
      )
      .execute()
  }

  /** Pages among `ids` with an unresolved incident or a maintenance window in progress at `now`. */
  pagesWithActiveIncident(ids: readonly number[], now: number) {
    return this.db
      .selectFrom('status_pages')
      .select('id')
      .where('id', 'in', [...ids])
      .where((eb) =>
        eb.or([
          eb.exists(
            eb
              .selectFrom('incidents')
              .select('incidents.id')
              .whereRef('incidents.page_id', '=', 'status_pages.id')
              .where('incidents.resolved_at', 'is', null)
              .where('incidents.state', '!=', 'resolved')
              .where('incidents.started_at', '<=', now),
          ),
          eb.exists(
            eb
              .selectFrom('maintenances')
              .select('maintenances.id')
              .whereRef('maintenances.page_id', '=', 'status_pages.id')
              .where('maintenances.start_at', '<=', now)
              .where('maintenances.end_at', '>', now),
          ),
        ]),
      )
      .execute()
  }

  existingPageIds(ids: readonly number[]) {
    if (ids.length === 0) return Promise.resolve([])
    return this.db.selectFrom('status_pages').select('id').where('id', 'in', [...ids]).execute()
  }

  transaction<T>(work: (repo: AnalyticsRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new AnalyticsRepo(trx)))
  }

  // ---- share tokens ----

  insertToken(token: { pageId: number; publicId: string; secretHash: string; label: string; readOnly: boolean; now: number; expiresAt: number | null }) {
    return this.db
      .insertInto('analytics_share_tokens')
      .values({
        page_id: token.pageId,
        public_id: token.publicId,
        secret_hash: token.secretHash,
        label: token.label,
        read_only: token.readOnly ? 1 : 0,
        created_at: token.now,
        expires_at: token.expiresAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  tokensOfPage(pageId: number) {
    return this.db.selectFrom('analytics_share_tokens').selectAll().where('page_id', '=', pageId).orderBy('id', 'desc').execute()
  }

  countTokensOfPage(pageId: number) {
    return this.db
      .selectFrom('analytics_share_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('page_id', '=', pageId)
      .executeTakeFirstOrThrow()
  }

  tokenByPublicId(publicId: string) {
    return this.db.selectFrom('analytics_share_tokens').selectAll().where('public_id', '=', publicId).executeTakeFirst()
  }

  revokeToken(pageId: number, tokenId: number, now: number) {
    return this.db
      .updateTable('analytics_share_tokens')
      .set({ revoked_at: sql`coalesce(revoked_at, ${now})` })
      .where('id', '=', tokenId)
      .where('page_id', '=', pageId)
      .returningAll()
      .executeTakeFirst()
  }

  countTokenUse(tokenId: number, now: number) {
    return this.db
      .updateTable('analytics_share_tokens')
      .set({ usage_count: sql`usage_count + 1`, last_used_at: now })
      .where('id', '=', tokenId)
      .execute()
  }
}
