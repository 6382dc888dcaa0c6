import type { Db } from '../../db/client.ts'
import { findPublicPageBySlug } from '../status-pages/public-lookup.ts'

export class EmbedRepo {
  constructor(private readonly db: Db) {}

  /** What the public embeds need to know about a page: its addresses, state and the owner's plan. */
  findPageBySlug(slug: string) {
    return findPublicPageBySlug(this.db, slug)
  }
}
