import type { Db } from '../../db/client.ts'
import { findPublicPageByDomain } from './public-lookup.ts'
import type { Visibility } from './tables.ts'

export interface StatusPageChanges {
  slug?: string
  name?: string
  custom_domain?: string | null
  visibility?: Visibility
  blocked?: number
}

export class StatusPagesRepo {
  constructor(private readonly db: Db) {}

  /** The page a custom domain points to, with its owner's plan (for the TLS `ask` check). */
  findPublicPageByDomain(domain: string) {
    return findPublicPageByDomain(this.db, domain)
  }

  listByOwner(ownerId: number) {
    return this.db.selectFrom('status_pages').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute()
  }

  findById(id: number) {
    return this.db.selectFrom('status_pages').selectAll().where('id', '=', id).executeTakeFirst()
  }

  findBySlug(slug: string) {
    return this.db.selectFrom('status_pages').selectAll().where('slug', '=', slug).executeTakeFirst()
  }

  findByCustomDomain(domain: string) {
    return this.db.selectFrom('status_pages').selectAll().where('custom_domain', '=', domain).executeTakeFirst()
  }

  insert(page: {
    ownerId: number
    slug: string
    name: string
    customDomain: string | null
    visibility: Visibility
    now: number
  }) {
    return this.db
      .insertInto('status_pages')
      .values({
        owner_id: page.ownerId,
        slug: page.slug,
        name: page.name,
        custom_domain: page.customDomain,
        visibility: page.visibility,
        created_at: page.now,
        updated_at: page.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  update(id: number, changes: StatusPageChanges, now: number) {
    return this.db
      .updateTable('status_pages')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  delete(id: number) {
    return this.db.deleteFrom('status_pages').where('id', '=', id).execute()
  }
}
