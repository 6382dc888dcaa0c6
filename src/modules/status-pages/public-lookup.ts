/**
 * The one query every public read path starts from: a page by slug or custom domain, with what a
 * visitor-facing answer needs to decide (visibility, blocked, the owner's plan). Embeds, the status
 * API and the public pages all use it.
 */
import type { Db } from '../../db/client.ts'

const publicPageColumns = [
  'status_pages.id',
  'status_pages.slug',
  'status_pages.name',
  'status_pages.custom_domain',
  'status_pages.custom_domain_state',
  'status_pages.visibility',
  'status_pages.blocked',
  'status_pages.updated_at',
  'status_pages.language',
  'status_pages.time_zone',
  'status_pages.description',
  'teams.plan',
] as const

function findPublicPage(db: Db, column: 'status_pages.slug' | 'status_pages.custom_domain', value: string) {
  return db
    .selectFrom('status_pages')
    .innerJoin('teams', 'teams.id', 'status_pages.owner_id')
    .select(publicPageColumns)
    .where(column, '=', value)
    .executeTakeFirst()
}

export const findPublicPageBySlug = (db: Db, slug: string) => findPublicPage(db, 'status_pages.slug', slug)
export const findPublicPageByDomain = (db: Db, domain: string) => findPublicPage(db, 'status_pages.custom_domain', domain)
