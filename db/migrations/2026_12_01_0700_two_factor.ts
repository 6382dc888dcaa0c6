import type { Kysely } from 'kysely'

/**
 * Two-factor sign-in. `totp_factors`: one authenticator app per user, its base32 secret (the
 * server must compute codes from it, so it cannot be hashed), confirmed once a code was typed, and
 * the last step accepted (a code is never accepted twice). `recovery_codes`: ten single-use codes,
 * stored as SHA-256. `two_factor_challenges`: a sign-in whose password was right and that waits for
 * the second factor (the browser holds the token; only its hash is stored), valid 10 minutes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('totp_factors')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('confirmed_at', 'integer')
    .addColumn('last_step', 'integer', (c) => c.notNull().defaultTo(-1))
    .execute()
  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'integer')
    .execute()
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').columns(['user_id', 'code_hash']).execute()
  await db.schema
    .createTable('two_factor_challenges')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('two_factor_challenges_expiry').on('two_factor_challenges').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('two_factor_challenges').execute()
  await db.schema.dropTable('recovery_codes').execute()
  await db.schema.dropTable('totp_factors').execute()
}
