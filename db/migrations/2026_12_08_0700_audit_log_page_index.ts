import type { Kysely } from 'kysely'

/**
 * The audit log filtered by a page is read newest first by id: with the page's rows indexed by time
 * the database sorted every row of a busy page for each screenful. Indexed by id, it reads the 51
 * it shows and stops.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('audit_log_team_page_id').on('audit_log').columns(['team_id', 'page_id', 'id']).execute()
  await db.schema.dropIndex('audit_log_team_page_time').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('audit_log_team_page_time').on('audit_log').columns(['team_id', 'page_id', 'created_at']).execute()
  await db.schema.dropIndex('audit_log_team_page_id').execute()
}
