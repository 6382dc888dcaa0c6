import type { Kysely } from 'kysely'

/**
 * The language a subscriber chose when subscribing (the page's language as they read it: a tag of
 * the shipped locales, src/content/locales/). Their mails and chat messages are in it. Subscribers
 * from before, and those the owner adds or imports, have none (NULL): they get the page's default
 * language.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscribers').addColumn('language', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscribers').dropColumn('language').execute()
}
