import { sql, type Kysely } from 'kysely'

/**
 * Automatic incidents (issue 15 items 1–2, src/modules/auto-incidents):
 * - `auto_incident_settings`: the three settings of a page (Auto Incidents, Auto Incident Notify,
 *   Auto Resolve); no row means all off.
 * - `auto_incident_components`: the components opted in, with when (the plan limit keeps the
 *   oldest N working after a downgrade).
 * - `incidents` learns where an incident came from: `source` manual|auto, the component an
 *   automatic one watches, when a person first changed it (`acknowledged_at`: from then on it is
 *   theirs), whether the automation resolved it, and since when the component was down.
 * - At most ONE open automatic incident per component, enforced by a partial unique index, so
 *   concurrent result batches cannot open two.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('auto_incident_settings')
    .addColumn('page_id', 'integer', (c) => c.primaryKey().references('status_pages.id').onDelete('cascade'))
    .addColumn('auto_incidents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notify', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auto_resolve', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('auto_incident_components')
    .addColumn('component_id', 'integer', (c) => c.primaryKey().references('components.id').onDelete('cascade'))
    .addColumn('enabled_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema.alterTable('incidents').addColumn('source', 'text', (c) => c.notNull().defaultTo('manual')).execute()
  await db.schema
    .alterTable('incidents')
    .addColumn('auto_component_id', 'integer', (c) => c.references('components.id').onDelete('set null'))
    .execute()
  await db.schema.alterTable('incidents').addColumn('acknowledged_at', 'integer').execute()
  await db.schema.alterTable('incidents').addColumn('auto_resolved', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('incidents').addColumn('auto_down_since', 'integer').execute()
  await sql`CREATE UNIQUE INDEX incidents_one_open_auto ON incidents (auto_component_id) WHERE source = 'auto' AND resolved_at IS NULL`.execute(db)
  await db.schema.createIndex('incidents_auto_component').on('incidents').columns(['auto_component_id', 'id']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('incidents_auto_component').execute()
  await db.schema.dropIndex('incidents_one_open_auto').execute()
  for (const column of ['auto_down_since', 'auto_resolved', 'acknowledged_at', 'auto_component_id', 'source']) {
    await db.schema.alterTable('incidents').dropColumn(column).execute()
  }
  await db.schema.dropTable('auto_incident_components').execute()
  await db.schema.dropTable('auto_incident_settings').execute()
}
