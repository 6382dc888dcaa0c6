import type { Kysely } from 'kysely'

/**
 * Corrections of a component's status history: the owner replaced the recorded status of a span
 * [from_at, to_at) with the status it really had (after a false outage, for instance). Each row
 * keeps who did it and when, the reason, and what was replaced (`replaced_json`: the status in
 * force when the span began and every change inside it), so the change can be read back and
 * reasoned about. The history itself is rewritten (and its roll-ups refreshed) in the same
 * transaction as this row. The author's email is kept as text: the record outlives an account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('component_status_corrections')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('component_id', 'integer', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addColumn('from_at', 'integer', (c) => c.notNull())
    .addColumn('to_at', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('user_email', 'text', (c) => c.notNull())
    .addColumn('replaced_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('component_status_corrections_component').on('component_status_corrections').columns(['component_id', 'created_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('component_status_corrections').execute()
}
