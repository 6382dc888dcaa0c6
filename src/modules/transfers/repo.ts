/**
 * The SQL of page transfers. `transaction` hands out a repo on the transaction, so the accept runs
 * its conditional update, the slot check and the owner change on one connection, atomically.
 */
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { Role } from '../plans/roles.ts'
import type { TransferStatus } from './tables.ts'

/** What the slot check needs to know about the page's monitors. */
export interface PageMonitorStats {
  count: number
  /** The shortest interval among them (seconds), null without monitors. */
  shortestIntervalSeconds: number | null
}

const transferColumns = [
  'page_transfers.id',
  'page_transfers.page_id',
  'page_transfers.from_user_id',
  'page_transfers.to_email_lower',
  'page_transfers.to_user_id',
  'page_transfers.status',
  'page_transfers.created_at',
  'page_transfers.expires_at',
  'page_transfers.decided_at',
] as const

export class TransfersRepo {
  constructor(readonly db: Db) {}

  transaction<T>(work: (repo: TransfersRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new TransfersRepo(trx)))
  }

  private select() {
    return this.db
      .selectFrom('page_transfers')
      .innerJoin('status_pages', 'status_pages.id', 'page_transfers.page_id')
      .innerJoin('users as from_user', 'from_user.id', 'page_transfers.from_user_id')
      .select(transferColumns)
      .select(['status_pages.name as page_name', 'status_pages.slug as page_slug', 'status_pages.owner_id as page_owner_id', 'from_user.email as from_email'])
  }

  findById(id: number) {
    return this.select().where('page_transfers.id', '=', id).executeTakeFirst()
  }

  findByTokenHash(tokenHash: string) {
    return this.select().where('page_transfers.token_hash', '=', tokenHash).executeTakeFirst()
  }

  findPendingForPage(pageId: number) {
    return this.select().where('page_transfers.page_id', '=', pageId).where('page_transfers.status', '=', 'pending').executeTakeFirst()
  }

  /** Pending transfers whose time ran out (the sweeper), oldest first, a bounded batch. */
  listOverdue(now: number, limit: number) {
    return this.select().where('page_transfers.status', '=', 'pending').where('page_transfers.expires_at', '<=', now).orderBy('page_transfers.expires_at').limit(limit).execute()
  }

  async insert(row: { pageId: number; fromUserId: number; toEmail: string; toUserId: number | null; tokenHash: string; now: number; expiresAt: number }): Promise<number> {
    const inserted = await this.db
      .insertInto('page_transfers')
      .values({
        page_id: row.pageId,
        from_user_id: row.fromUserId,
        to_email_lower: row.toEmail,
        to_user_id: row.toUserId,
        token_hash: row.tokenHash,
        status: 'pending',
        created_at: row.now,
        expires_at: row.expiresAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return inserted.id
  }

  /**
   * Moves a pending transfer to `status`; only while it is still pending (and, unless it is being
   * expired, not past its expiry). True when this call made the change: of two racing decisions
   * exactly one gets true.
   */
  async decide(id: number, status: Exclude<TransferStatus, 'pending'>, now: number): Promise<boolean> {
    let query = this.db.updateTable('page_transfers').set({ status, decided_at: now }).where('id', '=', id).where('status', '=', 'pending')
    query = status === 'expired' ? query.where('expires_at', '<=', now) : query.where('expires_at', '>', now)
    const result = await query.executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  /** The role of `userId` in team `teamId`, or undefined when they are not a member. */
  async roleIn(teamId: number, userId: number): Promise<Role | undefined> {
    return (await this.db.selectFrom('team_members').select('role').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst())?.role
  }

  findUserIdByEmail(email: string) {
    return this.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()
  }

  findPage(id: number) {
    return this.db.selectFrom('status_pages').select(['id', 'owner_id', 'name', 'custom_domain', 'visibility']).where('id', '=', id).executeTakeFirst()
  }

  /** The page's monitors: placed on the page itself or on one of its components. */
  private pageMonitors(pageId: number) {
    return this.db
      .selectFrom('monitors')
      .where((eb) => eb.or([eb('page_id', '=', pageId), eb('component_id', 'in', eb.selectFrom('components').select('id').where('page_id', '=', pageId))]))
  }

  async pageMonitorStats(pageId: number): Promise<PageMonitorStats> {
    const row = await this.pageMonitors(pageId)
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<number | null>('interval_s').as('shortest')])
      .executeTakeFirstOrThrow()
    return { count: Number(row.n), shortestIntervalSeconds: row.shortest === null ? null : Number(row.shortest) }
  }

  async countComponents(pageId: number): Promise<number> {
    const row = await this.db.selectFrom('components').select((eb) => eb.fn.countAll<number>().as('n')).where('page_id', '=', pageId).executeTakeFirstOrThrow()
    return Number(row.n)
  }

  async countMonitorsOfOwner(ownerId: number): Promise<number> {
    const row = await this.db.selectFrom('monitors').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /** Components with automatic incidents on (opted in, paused or not) over all the owner's pages. */
  async countAutoIncidentComponentsOfOwner(ownerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('auto_incident_components as aic')
      .innerJoin('components', 'components.id', 'aic.component_id')
      .innerJoin('status_pages', 'status_pages.id', 'components.page_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status_pages.owner_id', '=', ownerId)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  async countAutoIncidentComponentsOfPage(pageId: number): Promise<number> {
    const row = await this.db
      .selectFrom('auto_incident_components as aic')
      .innerJoin('components', 'components.id', 'aic.component_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('components.page_id', '=', pageId)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /** Confirmed, active subscribers of the page (they move with it, by page id): shown in the offer, checked on accept. */
  async countSubscribers(pageId: number): Promise<number> {
    const row = await this.db
      .selectFrom('subscribers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('page_id', '=', pageId)
      .where('unsubscribed_at', 'is', null)
      .where('confirmed_at', 'is not', null)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /** The owner change itself: owner columns only, no rows copied (components, history, domain… go by page id). */
  async moveOwnership(pageId: number, toOwnerId: number, now: number): Promise<{ monitors: number }> {
    await this.db.updateTable('status_pages').set({ owner_id: toOwnerId, updated_at: now }).where('id', '=', pageId).execute()
    // updated_at tells the scheduler to load the monitors again (their owner's plan applies now).
    const moved = await this.db
      .updateTable('monitors')
      .set({ owner_id: toOwnerId, updated_at: now })
      .where((eb) => eb.or([eb('page_id', '=', pageId), eb('component_id', 'in', eb.selectFrom('components').select('id').where('page_id', '=', pageId))]))
      .executeTakeFirst()
    return { monitors: Number(moved.numUpdatedRows) }
  }

  /** Share links the old owner made give read access to analytics: they end with the transfer. */
  async revokeShareTokens(pageId: number, now: number): Promise<void> {
    await this.db.updateTable('analytics_share_tokens').set({ revoked_at: now }).where('page_id', '=', pageId).where('revoked_at', 'is', null).execute()
  }
}
