import type { Kysely } from 'kysely'

/**
 * Descriptions in Markdown: a status page's (shown under its name) and a component's (shown under
 * the component's name, and in the Statuspage-style JSON). Pages and components made before have
 * none, which shows nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('status_pages').addColumn('description', 'text', (col) => col.notNull().defaultTo('')).execute()
  await db.schema.alterTable('components').addColumn('description', 'text', (col) => col.notNull().defaultTo('')).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('components').dropColumn('description').execute()
  await db.schema.alterTable('status_pages').dropColumn('description').execute()
}
