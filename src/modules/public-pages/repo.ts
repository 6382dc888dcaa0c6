import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import { findPublicPageByDomain, findPublicPageBySlug } from '../status-pages/public-lookup.ts'
import type { ImageType } from './tables.ts'

export class PublicPagesRepo {
  constructor(private readonly db: Db) {}

  findSiteBySlug(slug: string) {
    return findPublicPageBySlug(this.db, slug)
  }

  findSiteByDomain(domain: string) {
    return findPublicPageByDomain(this.db, domain)
  }

  findAppearance(pageId: number) {
    return this.db.selectFrom('page_appearance').selectAll().where('page_id', '=', pageId).executeTakeFirst()
  }

  /** Appearance without the image bytes, with their sizes and a digest source. */
  findAppearanceMeta(pageId: number) {
    return this.db
      .selectFrom('page_appearance')
      .select([
        'palette_json',
        'custom_css',
        'favicon_type',
        'logo_type',
        'updated_at',
        sql<number | null>`length(favicon)`.as('favicon_size'),
        sql<number | null>`length(logo)`.as('logo_size'),
      ])
      .where('page_id', '=', pageId)
      .executeTakeFirst()
  }

  async upsertAppearance(
    pageId: number,
    changes: Partial<{
      palette_json: string | null
      custom_css: string | null
      favicon: Uint8Array | null
      favicon_type: ImageType | null
      logo: Uint8Array | null
      logo_type: ImageType | null
    }>,
    now: number,
  ): Promise<void> {
    await this.db
      .insertInto('page_appearance')
      .values({ page_id: pageId, ...changes, updated_at: now })
      .onConflict((oc) => oc.column('page_id').doUpdateSet({ ...changes, updated_at: now }))
      .execute()
  }

  findAccess(pageId: number) {
    return this.db.selectFrom('page_access').selectAll().where('page_id', '=', pageId).executeTakeFirst()
  }

  findAccessByEmbedToken(tokenHash: string) {
    return this.db.selectFrom('page_access').select('page_id').where('embed_token_hash', '=', tokenHash).executeTakeFirst()
  }

  async upsertAccess(pageId: number, changes: Partial<{ password_hash: string | null; embed_token_hash: string | null }>, now: number) {
    await this.db
      .insertInto('page_access')
      .values({ page_id: pageId, ...changes, updated_at: now })
      .onConflict((oc) => oc.column('page_id').doUpdateSet({ ...changes, updated_at: now }))
      .execute()
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

  findPageOwner(pageId: number) {
    return this.db
      .selectFrom('status_pages')
      .innerJoin('users', 'users.id', 'status_pages.owner_id')
      .select(['status_pages.id', 'status_pages.owner_id', 'users.plan'])
      .where('status_pages.id', '=', pageId)
      .executeTakeFirst()
  }
}
