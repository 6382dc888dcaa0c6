import type { Db } from '../../db/client.ts'
import { findPublicPageBySlug } from '../status-pages/public-lookup.ts'

/** Gate passwords, embed tokens and the visitors' sessions of private pages. */
export class PageAccessRepo {
  constructor(private readonly db: Db) {}

  /** The page an embed URL names (for checking its `auth_token`). */
  findPageBySlug(slug: string) {
    return findPublicPageBySlug(this.db, slug)
  }

  findAccess(pageId: number) {
    return this.db.selectFrom('page_access').selectAll().where('page_id', '=', pageId).executeTakeFirst()
  }

  async upsertAccess(pageId: number, changes: Partial<{ password_hash: string | null; embed_token_hash: string | null }>, now: number) {
    await this.db
      .insertInto('page_access')
      .values({ page_id: pageId, ...changes, updated_at: now })
      .onConflict((oc) => oc.column('page_id').doUpdateSet({ ...changes, updated_at: now }))
      .execute()
  }

  /** The same gate password's hash at new settings, only while the stored hash is still `previous`. */
  async rehashPassword(pageId: number, previous: string, passwordHash: string, now: number): Promise<void> {
    await this.db.updateTable('page_access').set({ password_hash: passwordHash, updated_at: now }).where('page_id', '=', pageId).where('password_hash', '=', previous).execute()
  }

  async insertSession(session: { pageId: number; host: string; tokenHash: string; now: number; expiresAt: number }) {
    await this.db
      .insertInto('page_access_sessions')
      .values({
        page_id: session.pageId,
        host: session.host,
        token_hash: session.tokenHash,
        created_at: session.now,
        expires_at: session.expiresAt,
      })
      .execute()
  }

  findSession(tokenHash: string) {
    return this.db
      .selectFrom('page_access_sessions')
      .select(['page_id', 'host', 'expires_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst()
  }

  async deleteSessionsOfPage(pageId: number) {
    await this.db.deleteFrom('page_access_sessions').where('page_id', '=', pageId).execute()
  }

  async deleteExpiredSessions(now: number) {
    await this.db.deleteFrom('page_access_sessions').where('expires_at', '<=', now).execute()
  }
}
