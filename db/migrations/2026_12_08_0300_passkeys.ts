import type { Kysely } from 'kysely'

/**
 * Passkeys (WebAuthn credentials) as a second factor and as a password-free sign-in.
 * `passkeys`: a user's credentials, each with its id as the authenticator gave it (base64url,
 * unique: one credential belongs to one account), its COSE public key (base64url; public, so not
 * hashed), the last signature counter seen, the transports the browser reported, the name the user
 * gave it, and when it was added and last used. `passkey_challenges`: the random challenge of one
 * ceremony (adding a passkey, signing in with one, or the second step of a sign-in), single-use and
 * valid 5 minutes; kept in the database so a ceremony started on one server ends on another.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('sign_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('last_used_at', 'integer')
    .execute()
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute()
  await db.schema
    .createTable('passkey_challenges')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('challenge', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('passkey_challenges_expiry').on('passkey_challenges').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('passkey_challenges').execute()
  await db.schema.dropTable('passkeys').execute()
}
