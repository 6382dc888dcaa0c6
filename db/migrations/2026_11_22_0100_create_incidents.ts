import { sql, type Kysely } from 'kysely'

// Incidents with their affected components and update timeline, incident templates per owner, and
// maintenance windows with their affected components. Times are epoch milliseconds (UTC).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('incidents')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('investigating', 'identified', 'monitoring', 'resolved')`),
    )
    .addColumn('started_at', 'integer', (c) => c.notNull())
    .addColumn('resolved_at', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('incidents_page_state').on('incidents').columns(['page_id', 'state']).execute()

  await db.schema
    .createTable('incident_components')
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('component_id', 'integer', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('incident_components_pk', ['incident_id', 'component_id'])
    .execute()
  await db.schema.createIndex('incident_components_component').on('incident_components').column('component_id').execute()

  await db.schema
    .createTable('incident_updates')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('investigating', 'identified', 'monitoring', 'resolved')`),
    )
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('incident_updates_incident_at').on('incident_updates').columns(['incident_id', 'at']).execute()

  await db.schema
    .createTable('incident_templates')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('incident_templates_owner').on('incident_templates').column('owner_id').execute()

  await db.schema
    .createTable('maintenances')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start_at', 'integer', (c) => c.notNull())
    .addColumn('end_at', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addCheckConstraint('maintenances_window', sql`end_at > start_at`)
    .execute()
  await db.schema.createIndex('maintenances_page_end').on('maintenances').columns(['page_id', 'end_at']).execute()

  await db.schema
    .createTable('maintenance_components')
    .addColumn('maintenance_id', 'integer', (c) => c.notNull().references('maintenances.id').onDelete('cascade'))
    .addColumn('component_id', 'integer', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('maintenance_components_pk', ['maintenance_id', 'component_id'])
    .execute()
  await db.schema.createIndex('maintenance_components_component').on('maintenance_components').column('component_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'maintenance_components',
    'maintenances',
    'incident_templates',
    'incident_updates',
    'incident_components',
    'incidents',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
