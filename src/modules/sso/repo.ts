/** The SQL of single sign-on: sign-ins on their way (single use) and linked provider accounts. */
import type { Db } from '../../db/client.ts'

export class SsoRepo {
  constructor(private readonly db: Db) {}

  async insertLogin(row: { tokenHash: string; state: string; nonce: string; codeVerifier: string; next: string; now: number; expiresAt: number }): Promise<void> {
    await this.db
      .insertInto('sso_logins')
      .values({ token_hash: row.tokenHash, state: row.state, nonce: row.nonce, code_verifier: row.codeVerifier, next_path: row.next, created_at: row.now, expires_at: row.expiresAt })
      .execute()
  }

  /** Takes the sign-in of this cookie out in one statement: a second request with it finds nothing. */
  takeLogin(tokenHash: string) {
    return this.db.deleteFrom('sso_logins').where('token_hash', '=', tokenHash).returningAll().executeTakeFirst()
  }

  async deleteLapsedLogins(now: number): Promise<void> {
    await this.db.deleteFrom('sso_logins').where('expires_at', '<=', now).execute()
  }

  findIdentity(issuer: string, subject: string) {
    return this.db.selectFrom('sso_identities').selectAll().where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst()
  }

  async insertIdentity(row: { issuer: string; subject: string; userId: number; email: string; now: number }): Promise<void> {
    await this.db
      .insertInto('sso_identities')
      .values({ issuer: row.issuer, subject: row.subject, user_id: row.userId, email: row.email, created_at: row.now, last_sign_in_at: row.now })
      .execute()
  }

  async touchIdentity(id: number, now: number): Promise<void> {
    await this.db.updateTable('sso_identities').set({ last_sign_in_at: now }).where('id', '=', id).execute()
  }
}
