import type { Kysely } from 'kysely'

/**
 * SSL and DNSBL monitors (issue 16): per monitor, the last full report (what the screens and the
 * report endpoint show) and what has been announced, so each event goes out once: the certificate
 * last seen (fingerprint, the latest notAfter seen) with the expiry thresholds already mailed for it,
 * and the (address, zone) pairs currently listed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('monitor_tool_states')
    .addColumn('monitor_id', 'integer', (c) => c.primaryKey().references('monitors.id').onDelete('cascade'))
    .addColumn('report_json', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'integer', (c) => c.notNull())
    .addColumn('cert_fingerprint', 'text')
    .addColumn('cert_not_after', 'integer')
    .addColumn('expiry_notified', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('listed_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('monitor_tool_states').execute()
}
