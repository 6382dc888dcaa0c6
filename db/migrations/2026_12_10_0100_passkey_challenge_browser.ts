import type { Kysely } from 'kysely'

/**
 * The browser a password-free passkey sign-in was begun in: `browser_hash` is the SHA-256 (hex) of
 * the random value the options call put in that browser's `lantern_passkey_sign_in` cookie, so only
 * the same browser can answer the challenge. Only sign-in challenges have one; the others (adding a
 * passkey, the second step) are bound to their account or sign-in cookie and keep NULL. Sign-in
 * challenges from before have none and are refused: they live 5 minutes, the user asks again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('passkey_challenges').addColumn('browser_hash', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('passkey_challenges').dropColumn('browser_hash').execute()
}
