import type { Db } from '../../db/client.ts'
import { findPublicPageByDomain, findPublicPageBySlug } from '../status-pages/public-lookup.ts'

/** What the status site reads itself: the page a host shows (its appearance comes from branding/). */
export class StatusSiteRepo {
  constructor(private readonly db: Db) {}

  findSiteBySlug(slug: string) {
    return findPublicPageBySlug(this.db, slug)
  }

  findSiteByDomain(domain: string) {
    return findPublicPageByDomain(this.db, domain)
  }
}
