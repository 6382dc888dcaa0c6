import type { Db } from '../../db/client.ts'
import { findPublicPageByDomain, findPublicPageBySlug } from '../status-pages/public-lookup.ts'

/** What the status site reads: the page a host shows and its appearance (owned by branding/). */
export class StatusSiteRepo {
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
}
