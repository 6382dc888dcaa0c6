import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { NotificationChannelsTable } from './tables.ts'

export type ChannelRow = Selectable<NotificationChannelsTable>

export class ChannelsRepo {
  constructor(readonly db: Db) {}

  transaction<T>(work: (repo: ChannelsRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new ChannelsRepo(trx)))
  }

  listByOwner(ownerId: number) {
    return this.db.selectFrom('notification_channels').selectAll().where('owner_id', '=', ownerId).orderBy('name').orderBy('id').execute()
  }

  countByOwner(ownerId: number) {
    return this.db.selectFrom('notification_channels').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow()
  }

  find(id: number) {
    return this.db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirst()
  }

  insert(row: Insertable<NotificationChannelsTable>) {
    return this.db.insertInto('notification_channels').values(row).returningAll().executeTakeFirstOrThrow()
  }

  update(id: number, changes: Updateable<NotificationChannelsTable>) {
    return this.db.updateTable('notification_channels').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
  }

  /**
   * A delivery to the channel succeeded at `at`: a webhook or chat channel whose test was asked for
   * (and not undone by a change of where it sends) becomes verified. One conditional statement, in
   * the outbox's transaction, so a concurrent change of the URL is never overwritten.
   */
  async verifyByTest(id: number, at: number): Promise<void> {
    await this.db
      .updateTable('notification_channels')
      .set({ verified_at: at })
      .where('id', '=', id)
      .where('type', '!=', 'email')
      .where('verified_at', 'is', null)
      .where('test_requested_at', 'is not', null)
      .where('test_requested_at', '<=', at)
      .execute()
  }

  delete(id: number) {
    return this.db.deleteFrom('notification_channels').where('id', '=', id).execute()
  }

  /** The attached pages of the given channels. */
  pagesOf(channelIds: readonly number[]) {
    if (channelIds.length === 0) return Promise.resolve([])
    return this.db
      .selectFrom('notification_channel_pages')
      .innerJoin('status_pages', 'status_pages.id', 'notification_channel_pages.page_id')
      .select(['notification_channel_pages.channel_id', 'status_pages.id', 'status_pages.name'])
      .where('notification_channel_pages.channel_id', 'in', channelIds)
      .orderBy('status_pages.name')
      .execute()
  }

  async setPages(channelId: number, pageIds: readonly number[]) {
    await this.db.deleteFrom('notification_channel_pages').where('channel_id', '=', channelId).execute()
    if (pageIds.length === 0) return
    await this.db.insertInto('notification_channel_pages').values(pageIds.map((pageId) => ({ channel_id: channelId, page_id: pageId }))).execute()
  }

  /** The owner of a page (fan-out of page events). */
  async pageOwner(pageId: number): Promise<number | undefined> {
    const row = await this.db.selectFrom('status_pages').select('owner_id').where('id', '=', pageId).executeTakeFirst()
    return row?.owner_id
  }

  /**
   * The owner's channels that may receive events of `pageId` (null: events without a page, which
   * go to channels on "all pages"): enabled, verified, not disabled by the outbox.
   */
  listening(ownerId: number, pageId: number | null) {
    let query = this.db
      .selectFrom('notification_channels')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('enabled', '=', 1)
      .where('verified_at', 'is not', null)
      .where('disabled_at', 'is', null)
    query =
      pageId === null
        ? query.where('all_pages', '=', 1)
        : query.where((eb) =>
            eb.or([
              eb('all_pages', '=', 1),
              eb.exists(
                eb.selectFrom('notification_channel_pages').select('page_id')
                  .whereRef('notification_channel_pages.channel_id', '=', 'notification_channels.id')
                  .where('notification_channel_pages.page_id', '=', pageId),
              ),
            ]),
          )
    return query.orderBy('id').execute()
  }

  /** The owner's channels that may receive anything: enabled, verified, not disabled by the outbox. */
  active(ownerId: number) {
    return this.db
      .selectFrom('notification_channels')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('enabled', '=', 1)
      .where('verified_at', 'is not', null)
      .where('disabled_at', 'is', null)
      .orderBy('id')
      .execute()
  }

  /** Per channel of the owner, which of `monitorIds` it hears: those that picked it, or all when it takes every monitor. */
  async monitorListeners(ownerId: number, monitorIds: readonly number[]): Promise<Map<number, Set<number>>> {
    const heard = new Map<number, Set<number>>()
    const add = (channelId: number, monitorId: number) => {
      let set = heard.get(channelId)
      if (!set) heard.set(channelId, (set = new Set()))
      set.add(monitorId)
    }
    const everyMonitor = await this.db.selectFrom('notification_channels').select('id').where('owner_id', '=', ownerId).where('all_monitors', '=', 1).execute()
    for (const row of everyMonitor) for (const monitorId of monitorIds) add(row.id, monitorId)
    const picked = await this.db
      .selectFrom('monitor_alert_channels')
      .innerJoin('notification_channels', 'notification_channels.id', 'monitor_alert_channels.channel_id')
      .select(['monitor_alert_channels.channel_id', 'monitor_alert_channels.monitor_id'])
      .where('notification_channels.owner_id', '=', ownerId)
      .where('monitor_alert_channels.monitor_id', 'in', monitorIds)
      .execute()
    for (const row of picked) add(row.channel_id, row.monitor_id)
    return heard
  }

  /** Which of `pageIds` are pages of the owner. */
  ownedPages(ownerId: number, pageIds: readonly number[]) {
    if (pageIds.length === 0) return Promise.resolve([])
    return this.db.selectFrom('status_pages').select('id').where('owner_id', '=', ownerId).where('id', 'in', pageIds).execute()
  }

  /** The account told about the team's channels: its first owner. */
  accountEmail(teamId: number) {
    return this.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('id', '=', (eb) => eb.selectFrom('team_members').select((m) => m.fn.min<number>('user_id').as('id')).where('team_id', '=', teamId).where('role', '=', 'owner'))
      .executeTakeFirst()
  }
}
