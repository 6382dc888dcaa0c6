import { sql, type Kysely } from 'kysely'
import { engineOf } from '../../src/db/engine.ts'
import { rebuildSqliteTable } from '../../src/db/sqlite-rebuild.ts'

/**
 * Teams: what an account owned now belongs to a team, and people act in a team with a role.
 *
 * Every existing account gets a personal team with the same id, its plan, and itself as the owner,
 * so `owner_id` of pages, templates, monitors, channels and import mappings keeps its value and
 * only its foreign key moves from `users` to `teams`. Tool checks, corrections and transfers stay
 * a person's. API keys act in the team they were made in, with a role (every key from before is
 * its owner's, as it could do everything). `users.plan` stays as it was (the down migration
 * restores from it) but nothing reads it any more: the plan is the team's.
 *
 * The audit log has no foreign keys to people or pages: a row outlives what it names.
 */
const OWNED_TABLES = ['status_pages', 'incident_templates', 'monitors', 'notification_channels', 'import_mappings'] as const
const ROLES = "('owner', 'admin', 'editor', 'responder', 'viewer')"
const PLANS = "('free', 'pro', 'growth', 'business', 'oss_hero', 'enterprise')"

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull().check(sql.raw(`plan in ${PLANS}`)))
    // The account whose personal team this is: it cannot be deleted, left or handed over.
    .addColumn('personal_of', 'integer', (c) => c.unique().references('users.id').onDelete('cascade'))
    .addColumn('require_two_factor', 'integer', (c) => c.notNull().defaultTo(0))
    // Users who sign in through SSO with an address of this domain join with `sso_role`.
    .addColumn('sso_domain', 'text', (c) => c.unique())
    .addColumn('sso_role', 'text', (c) => c.check(sql.raw(`sso_role in ${ROLES}`)))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql.raw(`role in ${ROLES}`)))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute()
  await db.schema.createIndex('team_members_user_id').on('team_members').column('user_id').execute()

  await db.schema
    .createTable('team_invitations')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql.raw(`role in ${ROLES}`)))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('accepted_at', 'integer')
    .addColumn('revoked_at', 'integer')
    .execute()
  await db.schema.createIndex('team_invitations_team_id').on('team_invitations').columns(['team_id', 'email']).execute()

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull().check(sql`actor_kind in ('person', 'api_key', 'sso', 'probe', 'system')`))
    .addColumn('actor_user_id', 'integer')
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('page_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('object_type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('client', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('audit_log_team_time').on('audit_log').columns(['team_id', 'created_at']).execute()
  await db.schema.createIndex('audit_log_team_page_time').on('audit_log').columns(['team_id', 'page_id', 'created_at']).execute()
  await db.schema.createIndex('audit_log_time').on('audit_log').column('created_at').execute()

  await sql`INSERT INTO teams (id, name, plan, personal_of, require_two_factor, created_at) SELECT id, email, plan, id, 0, created_at FROM users`.execute(db)
  await sql`INSERT INTO team_members (team_id, user_id, role, created_at) SELECT id, id, 'owner', created_at FROM users`.execute(db)
  // Explicit ids do not move PostgreSQL's identity sequence (SQLite's AUTOINCREMENT follows by itself).
  // The next team gets MAX(id) + 1 (1 on an empty database: `false` means not yet handed out).
  if (engineOf(db) === 'postgres') await sql`SELECT setval(pg_get_serial_sequence('teams', 'id'), COALESCE((SELECT MAX(id) FROM teams), 0) + 1, false)`.execute(db)

  // No foreign keys on the two added columns (SQLite cannot drop a column that has one): deleting
  // a team deletes its keys and clears its sessions' choice in the same transaction.
  await db.schema.alterTable('api_keys').addColumn('team_id', 'integer').execute()
  await db.schema.alterTable('api_keys').addColumn('role', 'text', (c) => c.notNull().defaultTo('owner').check(sql.raw(`role in ${ROLES}`))).execute()
  await sql`UPDATE api_keys SET team_id = user_id`.execute(db)
  // The team a browser acts in; null until it chooses (its first team).
  await db.schema.alterTable('sessions').addColumn('team_id', 'integer').execute()

  for (const table of OWNED_TABLES) await pointOwner(db, table, 'users', 'teams')
}

export async function down(db: Kysely<any>): Promise<void> {
  // Back to one owner per thing: what a shared team owned goes to the team's first owner.
  for (const table of OWNED_TABLES) {
    await sql`UPDATE ${sql.table(table)} SET owner_id = (
      SELECT MIN(m.user_id) FROM team_members m WHERE m.team_id = ${sql.ref(`${table}.owner_id`)} AND m.role = 'owner')
      WHERE owner_id NOT IN (SELECT id FROM users)`.execute(db)
    await sql`DELETE FROM ${sql.table(table)} WHERE owner_id IS NULL`.execute(db)
    await pointOwner(db, table, 'teams', 'users')
  }
  await db.schema.alterTable('sessions').dropColumn('team_id').execute()
  await db.schema.alterTable('api_keys').dropColumn('role').execute()
  await db.schema.alterTable('api_keys').dropColumn('team_id').execute()
  await db.schema.dropTable('audit_log').execute()
  await db.schema.dropTable('team_invitations').execute()
  await db.schema.dropTable('team_members').execute()
  await db.schema.dropTable('teams').execute()
}

async function pointOwner(db: Kysely<any>, table: string, from: string, to: string): Promise<void> {
  if (engineOf(db) === 'postgres') {
    const found = await sql<{ conname: string }>`
      SELECT conname FROM pg_constraint
      WHERE conrelid = ${table}::regclass AND contype = 'f' AND pg_get_constraintdef(oid) LIKE 'FOREIGN KEY (owner_id)%'`.execute(db)
    for (const row of found.rows) await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.id(row.conname)}`.execute(db)
    await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.id(`${table}_owner_id_fkey`)} FOREIGN KEY (owner_id) REFERENCES ${sql.table(to)} (id) ON DELETE CASCADE`.execute(db)
    return
  }
  await rebuildSqliteTable(db, table, (definition) => {
    const reference = `"owner_id" integer not null references "${from}" ("id") on delete cascade`
    if (!definition.includes(reference)) throw new Error(`${table}: its definition has no ${reference}`)
    return definition.replace(reference, `"owner_id" integer not null references "${to}" ("id") on delete cascade`)
  })
}
