/** The SQL of password-reset links; the spend and the new password are one transaction. */
import type { Db } from '../../db/client.ts'

const SWEEP_BATCH = 500

export class PasswordResetsRepo {
  constructor(readonly db: Db) {}

  findUserByEmail(emailLower: string) {
    return this.db.selectFrom('users').select(['id', 'email']).where('email', '=', emailLower).executeTakeFirst()
  }

  /**
   * A new link for the user in `trx` (the caller's transaction, which also writes the mail): every
   * earlier live link of the user is spent, so only the newest one works.
   */
  async replaceLink(trx: Db, link: { userId: number; tokenHash: string; now: number; expiresAt: number }): Promise<void> {
    await trx.updateTable('password_resets').set({ used_at: link.now }).where('user_id', '=', link.userId).where('used_at', 'is', null).execute()
    await trx
      .insertInto('password_resets')
      .values({ user_id: link.userId, token_hash: link.tokenHash, created_at: link.now, expires_at: link.expiresAt, used_at: null })
      .execute()
  }

  /** The account of a live link (not spent, not lapsed at `now`). */
  findLive(tokenHash: string, now: number) {
    return this.db
      .selectFrom('password_resets')
      .innerJoin('users', 'users.id', 'password_resets.user_id')
      .select(['password_resets.user_id', 'users.email', 'password_resets.token_hash'])
      .where('password_resets.token_hash', '=', tokenHash)
      .where('password_resets.used_at', 'is', null)
      .where('password_resets.expires_at', '>', now)
      .executeTakeFirst()
  }

  /**
   * Spends a live link and sets the new password in one transaction: every session of the user
   * ends and every other link of the user is spent. Undefined (nothing changed) when the link is
   * not live: spent by a parallel request, lapsed or unknown.
   */
  spendAndSetPassword(tokenHash: string, passwordHash: string, now: number): Promise<{ userId: number } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const spent = await trx
        .updateTable('password_resets')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst()
      if (!spent) return undefined
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', spent.user_id).execute()
      await trx.deleteFrom('sessions').where('user_id', '=', spent.user_id).execute()
      await trx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', spent.user_id).where('used_at', 'is', null).execute()
      return { userId: spent.user_id }
    })
  }

  /** Deletes up to a batch of links that lapsed before `before`. */
  async sweep(before: number): Promise<void> {
    const ids = await this.db.selectFrom('password_resets').select('id').where('expires_at', '<', before).limit(SWEEP_BATCH).execute()
    if (ids.length > 0) await this.db.deleteFrom('password_resets').where('id', 'in', ids.map((row) => row.id)).execute()
  }
}
