import { sql, type Kysely } from 'kysely'

// Times are integer milliseconds since the Unix epoch (UTC): cheap to compare and to sum.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) =>
      c.notNull().check(sql`plan in ('free', 'pro', 'growth', 'business', 'oss_hero', 'enterprise')`),
    )
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('last_used_at', 'integer')
    .addColumn('revoked_at', 'integer')
    .execute()
  await db.schema.createIndex('api_keys_user_id').on('api_keys').column('user_id').execute()

  await db.schema
    .createTable('status_pages')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('custom_domain', 'text', (c) => c.unique())
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('public').check(sql`visibility in ('public', 'private')`))
    .addColumn('blocked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('status_pages_owner_id').on('status_pages').column('owner_id').execute()

  await db.schema
    .createTable('components')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('site').check(sql`type in ('site', 'api', 'dns')`))
    .addColumn('group_name', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('up').check(sql`status in ('up', 'degraded', 'down')`))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('components_page_id').on('components').columns(['page_id', 'position']).execute()

  await db.schema
    .createTable('component_status_history')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('component_id', 'integer', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('up', 'degraded', 'down')`))
    .addColumn('at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('component_status_history_component_at')
    .on('component_status_history')
    .columns(['component_id', 'at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['component_status_history', 'components', 'status_pages', 'api_keys', 'users']) {
    await db.schema.dropTable(table).execute()
  }
}
