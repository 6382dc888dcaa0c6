import { sql, type Kysely } from 'kysely'

/**
 * Issue 16 items 3–4. `email_auth_reports`: the last answered report of each email-auth monitor
 * (SPF, DKIM, DMARC with reasons) and its one-line summary, which a change notice compares.
 * `tool_checks`: each user's recent one-off lookups (the domain lookup tools); the free plan keeps
 * the newest 3, paid plans up to a sanity cap, trimmed in the insert's transaction.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_auth_reports')
    .addColumn('monitor_id', 'integer', (c) => c.primaryKey().references('monitors.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('report_json', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'integer', (c) => c.notNull())
    .addColumn('changed_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('tool_checks')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tool', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('result_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
  await sql`CREATE INDEX tool_checks_user ON tool_checks (user_id, id DESC)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tool_checks').execute()
  await db.schema.dropTable('email_auth_reports').execute()
}
