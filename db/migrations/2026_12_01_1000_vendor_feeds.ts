import type { Kysely } from 'kysely'

/**
 * Vendor components: a component may follow a third party's public Statuspage-v2 summary, read on
 * a schedule. One row per fed component; deleting the component deletes its feed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vendor_feeds')
    .addColumn('component_id', 'integer', (c) => c.primaryKey().references('components.id').onDelete('cascade'))
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('vendor_component', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('reason', 'text')
    .addColumn('vendor_name', 'text')
    .addColumn('incidents_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('checked_at', 'integer')
    .addColumn('next_check_at', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('vendor_feeds_due').on('vendor_feeds').column('next_check_at').execute()
  await db.schema.createIndex('vendor_feeds_page').on('vendor_feeds').column('page_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('vendor_feeds').execute()
}
