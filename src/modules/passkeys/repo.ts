/** The SQL of passkeys: a user's credentials and the single-use challenges of their ceremonies. */
import type { Db } from '../../db/client.ts'

export type ChallengePurpose = 'register' | 'sign-in' | 'second-factor'

export class PasskeysRepo {
  constructor(readonly db: Db) {}

  list(userId: number) {
    return this.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute()
  }

  async count(userId: number): Promise<number> {
    const row = await this.db.selectFrom('passkeys').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()
    return Number(row.n)
  }

  find(userId: number, id: number) {
    return this.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()
  }

  findByCredential(credentialId: string) {
    return this.db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst()
  }

  async insert(row: { userId: number; credentialId: string; publicKey: string; signCount: number; transports: string; name: string; now: number }): Promise<number> {
    const inserted = await this.db
      .insertInto('passkeys')
      .values({ user_id: row.userId, credential_id: row.credentialId, public_key: row.publicKey, sign_count: row.signCount, transports: row.transports, name: row.name, created_at: row.now, last_used_at: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    return inserted.id
  }

  async rename(userId: number, id: number, name: string): Promise<boolean> {
    const done = await this.db.updateTable('passkeys').set({ name }).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()
    return Number(done.numUpdatedRows) === 1
  }

  async remove(userId: number, id: number): Promise<boolean> {
    const done = await this.db.deleteFrom('passkeys').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()
    return Number(done.numDeletedRows) === 1
  }

  async removeAll(userId: number): Promise<void> {
    await this.db.deleteFrom('passkeys').where('user_id', '=', userId).execute()
  }

  /**
   * Records a use with the authenticator's new counter, only if the counter is still the one the
   * check read (false: another sign-in with the same passkey got in between, a cloned authenticator).
   */
  async markUsed(id: number, seenCount: number, newCount: number, now: number): Promise<boolean> {
    const done = await this.db.updateTable('passkeys').set({ sign_count: newCount, last_used_at: now }).where('id', '=', id).where('sign_count', '=', seenCount).executeTakeFirst()
    return Number(done.numUpdatedRows) === 1
  }

  /** `browserHash`: a sign-in's, the hash of the asking browser's cookie value (service.ts signInOptions). */
  async insertChallenge(challenge: string, purpose: ChallengePurpose, userId: number | null, now: number, expiresAt: number, browserHash: string | null = null): Promise<void> {
    await this.db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute()
    await this.db.insertInto('passkey_challenges').values({ challenge, purpose, user_id: userId, browser_hash: browserHash, expires_at: expiresAt }).execute()
  }

  /**
   * Spends a live challenge of `purpose`: its row once, then never again (undefined: unknown, used
   * or expired). The caller compares the browser hash, so a challenge answered from another browser
   * is spent too.
   */
  takeChallenge(challenge: string, purpose: ChallengePurpose, now: number) {
    return this.db
      .deleteFrom('passkey_challenges')
      .where('challenge', '=', challenge)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now)
      .returning(['user_id', 'browser_hash'])
      .executeTakeFirst()
  }
}
