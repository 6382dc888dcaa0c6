/** The SQL of two-factor sign-in: the authenticator's secret, recovery codes, pending sign-ins. */
import type { Db } from '../../db/client.ts'

export class TwoFactorRepo {
  constructor(readonly db: Db) {}

  findFactor(userId: number) {
    return this.db.selectFrom('totp_factors').selectAll().where('user_id', '=', userId).executeTakeFirst()
  }

  /** A new, unconfirmed secret in place of an unconfirmed one (a confirmed one stays: false). */
  async replaceUnconfirmed(userId: number, secret: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('totp_factors').select('confirmed_at').where('user_id', '=', userId).executeTakeFirst()
      if (existing?.confirmed_at != null) return false
      await trx.deleteFrom('totp_factors').where('user_id', '=', userId).execute()
      await trx.insertInto('totp_factors').values({ user_id: userId, secret, created_at: now, confirmed_at: null }).execute()
      return true
    })
  }

  /** Confirms the factor with the step just typed and stores new recovery codes, in one transaction. */
  confirm(userId: number, step: number, codeHashes: string[], now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable('totp_factors')
        .set({ confirmed_at: now, last_step: step })
        .where('user_id', '=', userId)
        .where('confirmed_at', 'is', null)
        .where('last_step', '<', step)
        .executeTakeFirst()
      if (Number(done.numUpdatedRows) !== 1) return false
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute()
      await trx.insertInto('recovery_codes').values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null }))).execute()
      return true
    })
  }

  /** Records `step` as used, only if it is later than every step used before (false: a replay). */
  async useStep(userId: number, step: number): Promise<boolean> {
    const done = await this.db
      .updateTable('totp_factors')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is not', null)
      .where('last_step', '<', step)
      .executeTakeFirst()
    return Number(done.numUpdatedRows) === 1
  }

  /** Spends an unused recovery code (false: unknown or used). */
  async useRecoveryCode(userId: number, codeHash: string, now: number): Promise<boolean> {
    const done = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst()
    return Number(done.numUpdatedRows) === 1
  }

  async unusedRecoveryCodes(userId: number): Promise<number> {
    const row = await this.db.selectFrom('recovery_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow()
    return Number(row.n)
  }

  async removeAll(userId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('totp_factors').where('user_id', '=', userId).execute()
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute()
      await trx.deleteFrom('two_factor_challenges').where('user_id', '=', userId).execute()
    })
  }

  async insertChallenge(userId: number, tokenHash: string, now: number, expiresAt: number): Promise<void> {
    await this.db.deleteFrom('two_factor_challenges').where('expires_at', '<=', now).execute()
    await this.db.insertInto('two_factor_challenges').values({ user_id: userId, token_hash: tokenHash, created_at: now, expires_at: expiresAt }).execute()
  }

  findChallenge(tokenHash: string, now: number) {
    return this.db.selectFrom('two_factor_challenges').select(['id', 'user_id', 'token_hash']).where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst()
  }

  async deleteChallenge(id: number): Promise<boolean> {
    const done = await this.db.deleteFrom('two_factor_challenges').where('id', '=', id).executeTakeFirst()
    return Number(done.numDeletedRows) === 1
  }
}
