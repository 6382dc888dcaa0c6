import type { Kysely } from 'kysely'

/**
 * Public error budgets: an SLA target may be shown on the public page and in the status JSON as
 * the period's budget and what is left. Off for every target made before, so nothing an owner set
 * up becomes public without them choosing it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sla_targets').addColumn('public_budget', 'integer', (col) => col.notNull().defaultTo(0)).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sla_targets').dropColumn('public_budget').execute()
}
