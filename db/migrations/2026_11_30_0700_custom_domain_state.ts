import { sql, type Kysely } from 'kysely'

/**
 * A custom domain's verification: public links use the domain only once the server has seen it
 * resolve to this instance (`custom_domain_state` verified), and keep checking it on a schedule.
 * Domains set before this change start as pending, unchecked: the first scheduled check decides,
 * and until then links use `<slug>.<STATUS_DOMAIN>`, which always works.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('status_pages').addColumn('custom_domain_state', 'text').execute()
  await db.schema.alterTable('status_pages').addColumn('custom_domain_checked_at', 'integer').execute()
  await db.schema.alterTable('status_pages').addColumn('custom_domain_verified_at', 'integer').execute()
  await db.schema.alterTable('status_pages').addColumn('custom_domain_reason', 'text').execute()
  await sql`UPDATE status_pages SET custom_domain_state = 'pending' WHERE custom_domain IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['custom_domain_reason', 'custom_domain_verified_at', 'custom_domain_checked_at', 'custom_domain_state']) {
    await db.schema.alterTable('status_pages').dropColumn(column).execute()
  }
}
