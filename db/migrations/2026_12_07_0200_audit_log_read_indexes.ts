import type { Kysely } from 'kysely'

/**
 * The audit log is read newest first by id (`GET /user/api/v1/team/audit`, the screen), paged by an
 * id cursor, often by one person: one index for the team's rows by id, one for a person's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('audit_log_team_id').on('audit_log').columns(['team_id', 'id']).execute()
  await db.schema.createIndex('audit_log_team_actor_id').on('audit_log').columns(['team_id', 'actor_user_id', 'id']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_team_actor_id').execute()
  await db.schema.dropIndex('audit_log_team_id').execute()
}
