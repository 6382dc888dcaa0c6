/**
 * Work in the accept transaction that belongs to other features' tables (registered in services.ts
 * with `transfers.onPageMoved`). Written against the tables those features create on their own
 * branches, and a no-op while a table is not there, so either side can be merged first.
 */
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { PageMove } from './service.ts'

const hasTable = async (db: Db, table: string): Promise<boolean> =>
  (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = ${table}`.execute(db)).rows.length > 0

/**
 * The previous owner's notification channels stop covering the page: their links to it go
 * (`notification_channel_pages`, the channels feature). Channels for "all pages" follow the
 * page's owner, so they let go by themselves. The new owner attaches their own channels.
 */
export async function detachPageFromOwnerChannels(db: Db, move: PageMove): Promise<void> {
  if (!(await hasTable(db, 'notification_channel_pages'))) return
  await sql`delete from notification_channel_pages where page_id = ${move.pageId}
    and channel_id in (select id from notification_channels where owner_id = ${move.fromUserId})`.execute(db)
}
