import type { Kysely } from 'kysely'

/**
 * Visitor languages and time zones: each status page has a default language (a tag of the shipped
 * locales, src/content/locales/) and a time zone (an IANA name) its times are shown in. Pages made
 * before keep what they showed: English, UTC.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('status_pages').addColumn('language', 'text', (col) => col.notNull().defaultTo('en')).execute()
  await db.schema.alterTable('status_pages').addColumn('time_zone', 'text', (col) => col.notNull().defaultTo('UTC')).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('status_pages').dropColumn('time_zone').execute()
  await db.schema.alterTable('status_pages').dropColumn('language').execute()
}
