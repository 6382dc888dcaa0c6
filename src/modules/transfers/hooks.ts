/**
 * Work in the accept transaction that belongs to other features' tables (registered in services.ts
 * with `transfers.onPageMoved`).
 */
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { PageMove } from './service.ts'

/**
 * The previous owner's notification channels stop covering the page: their links to it go
 * (`notification_channel_pages`, the channels feature). Channels for "all pages" follow the
 * page's owner, so they let go by themselves. The new owner attaches their own channels.
 */
export async function detachPageFromOwnerChannels(db: Db, move: PageMove): Promise<void> {
  await sql`delete from notification_channel_pages where page_id = ${move.pageId}
    and channel_id in (select id from notification_channels where owner_id = ${move.fromOwnerId})`.execute(db)
}
