import { sql, type Kysely } from 'kysely'

/**
 * The notification outbox (issue 14): every mail, webhook and chat message is a row written in
 * the same transaction as the change that caused it; the worker (src/modules/notify/worker.ts)
 * delivers due rows with retries. `lease_until` marks a row a worker has claimed and is sending.
 * `outbox_targets` keeps, per receiver, the dead deliveries in a row (20 disable it) and the last
 * result the owner screens show.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload_json', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'integer', (c) => c.notNull())
    .addColumn('lease_until', 'integer')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'integer')
    .execute()
  // The worker's one question: which queued rows are due. Sent and dead rows stay out of the index.
  await sql`CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'queued'`.execute(db)
  await db.schema.createIndex('outbox_target').on('outbox').columns(['target', 'id']).execute()

  await db.schema
    .createTable('outbox_targets')
    .addColumn('target', 'text', (c) => c.primaryKey())
    .addColumn('consecutive_dead', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_at', 'integer')
    .addColumn('last_result', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_at', 'integer')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('outbox_targets').execute()
  await db.schema.dropTable('outbox').execute()
}
