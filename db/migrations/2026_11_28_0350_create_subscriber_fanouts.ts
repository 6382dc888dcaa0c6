import type { Kysely } from 'kysely'

/**
 * Pending subscriber fan-outs (issue 14 benchmark): an event for page subscribers writes ONE row
 * here in the producer's transaction, so the request costs the same with 0 or 10,000 subscribers.
 * The outbox worker expands it into per-subscriber outbox rows in batches; `last_subscriber_id`
 * is moved in the same transaction as each batch, so a crash neither loses nor doubles a row.
 * `upto_subscriber_id` is the newest subscriber at the event: later sign-ups do not get it.
 * `payload_json` holds the mail and webhook body rendered once at the event, with a slot for the
 * per-subscriber token.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('subscriber_fanouts')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('event_kind', 'text', (c) => c.notNull())
    .addColumn('payload_json', 'text', (c) => c.notNull())
    .addColumn('upto_subscriber_id', 'integer', (c) => c.notNull())
    .addColumn('last_subscriber_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('subscriber_fanouts').execute()
}
