import type { Kysely } from 'kysely'

/**
 * One outage, one chat message: when the first message of an outage reaches a chat service that
 * can edit messages (Discord webhooks with `?wait=true`, Telegram's sendMessage), the outbox worker
 * keeps what the service's answer names it by (`refs_json`: Discord's message `id`, Telegram's
 * `message_id`) under the receiver and the outage (`thread_key`); the outage's later messages edit
 * that message instead of posting another. Kept 30 days at most. Nothing from before has one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('outbox_threads')
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('thread_key', 'text', (c) => c.notNull())
    .addColumn('refs_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('outbox_threads_pk', ['target', 'thread_key'])
    .execute()
  await db.schema.createIndex('outbox_threads_created').on('outbox_threads').column('created_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('outbox_threads').execute()
}
