import type { Kysely } from 'kysely'

/**
 * A postmortem on an incident: Markdown written after it is resolved, kept as a draft until
 * published (`postmortem_published_at`), when the page, the incident's page and the feeds show it.
 * Incidents from before have none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('incidents').addColumn('postmortem', 'text').execute()
  await db.schema.alterTable('incidents').addColumn('postmortem_updated_at', 'integer').execute()
  await db.schema.alterTable('incidents').addColumn('postmortem_published_at', 'integer').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['postmortem_published_at', 'postmortem_updated_at', 'postmortem']) {
    await db.schema.alterTable('incidents').dropColumn(column).execute()
  }
}
