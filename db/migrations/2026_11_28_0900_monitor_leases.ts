import type { Kysely } from 'kysely'

/**
 * Monitor leases: a scheduler claims a due run (lease_owner, lease_until) before it runs it, so with
 * several app servers on one database (PostgreSQL) each run happens once, and a killed server's
 * runs pass to the others when its leases lapse. Writing the result releases the lease.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('lease_owner', 'text').execute()
  await db.schema.alterTable('monitors').addColumn('lease_until', 'integer').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('lease_until').execute()
  await db.schema.alterTable('monitors').dropColumn('lease_owner').execute()
}
