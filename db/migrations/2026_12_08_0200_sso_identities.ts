import type { Kysely } from 'kysely'

/**
 * Single sign-on with OpenID Connect. `sso_identities` links a provider's account (issuer and
 * subject, the pair the provider promises never to reuse) to a Lantern account; a sign-in finds
 * the account by this pair first. `sso_logins` holds a sign-in between leaving for the provider
 * and coming back: its state, nonce and PKCE verifier, found by the SHA-256 of the browser's
 * cookie, used once and lapsing after minutes. (The teams table has had `sso_domain` and
 * `sso_role` since the teams migration: a team's claimed email domain and the role it gives.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sso_identities')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'integer', (c) => c.notNull())
    .addUniqueConstraint('sso_identities_issuer_subject', ['issuer', 'subject'])
    .execute()
  await db.schema.createIndex('sso_identities_user').on('sso_identities').column('user_id').execute()
  await db.schema
    .createTable('sso_logins')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('next_path', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('sso_logins_expiry').on('sso_logins').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sso_logins').execute()
  await db.schema.dropTable('sso_identities').execute()
}
