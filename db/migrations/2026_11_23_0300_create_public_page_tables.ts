import { sql, type Kysely } from 'kysely'

// Public status pages: how a page looks (palette, custom CSS, favicon, logo), who may read a private
// page (argon2id password, a hashed read-only embed token) and the visitors' gate sessions.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('page_appearance')
    .addColumn('page_id', 'integer', (c) => c.primaryKey().references('status_pages.id').onDelete('cascade'))
    .addColumn('palette_json', 'text')
    .addColumn('custom_css', 'text')
    .addColumn('favicon', 'blob')
    .addColumn('favicon_type', 'text', (c) => c.check(sql`favicon_type in ('png', 'jpeg', 'svg', 'ico')`))
    .addColumn('logo', 'blob')
    .addColumn('logo_type', 'text', (c) => c.check(sql`logo_type in ('png', 'jpeg', 'svg', 'ico')`))
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('page_access')
    .addColumn('page_id', 'integer', (c) => c.primaryKey().references('status_pages.id').onDelete('cascade'))
    .addColumn('password_hash', 'text')
    .addColumn('embed_token_hash', 'text', (c) => c.unique())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('page_access_sessions')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('page_access_sessions_page_id').on('page_access_sessions').column('page_id').execute()
  await db.schema.createIndex('page_access_sessions_expires_at').on('page_access_sessions').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['page_access_sessions', 'page_access', 'page_appearance']) await db.schema.dropTable(table).execute()
}
