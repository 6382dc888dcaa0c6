import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import { findPublicPageByDomain } from './public-lookup.ts'
import type { DomainState, Visibility } from './tables.ts'

export interface StatusPageChanges {
  slug?: string
  name?: string
  custom_domain?: string | null
  custom_domain_state?: DomainState | null
  custom_domain_checked_at?: number | null
  custom_domain_verified_at?: number | null
  custom_domain_reason?: string | null
  visibility?: Visibility
  blocked?: number
  language?: string
  time_zone?: string
  description?: string
}

/** What a domain check found, as stored. */
export interface DomainCheckRecord {
  state: DomainState
  reason: string
  checkedAt: number
  verifiedAt: number | null
}

export class StatusPagesRepo {
  constructor(private readonly db: Db) {}

  /** The page a custom domain points to, with its owner's plan (for the TLS `ask` check). */
  findPublicPageByDomain(domain: string) {
    return findPublicPageByDomain(this.db, domain)
  }

  /** Pages with the owner's plan and whether a gate password is set (what the owner's answers show). */
  private pagesWithFacts() {
    return this.db
      .selectFrom('status_pages')
      .innerJoin('teams', 'teams.id', 'status_pages.owner_id')
      .leftJoin('page_access', 'page_access.page_id', 'status_pages.id')
      .selectAll('status_pages')
      .select((eb) => ['teams.plan', eb.case().when('page_access.password_hash', 'is not', null).then(1).else(0).end().as('password_set')])
  }

  listByOwner(ownerId: number) {
    return this.pagesWithFacts().where('status_pages.owner_id', '=', ownerId).orderBy('status_pages.id').execute()
  }

  findById(id: number) {
    return this.pagesWithFacts().where('status_pages.id', '=', id).executeTakeFirst()
  }

  findBySlug(slug: string) {
    return this.db.selectFrom('status_pages').selectAll().where('slug', '=', slug).executeTakeFirst()
  }

  findByCustomDomain(domain: string) {
    return this.db.selectFrom('status_pages').selectAll().where('custom_domain', '=', domain).executeTakeFirst()
  }

  async insert(page: {
    ownerId: number
    slug: string
    name: string
    customDomain: string | null
    visibility: Visibility
    language?: string
    timeZone?: string
    description?: string
    now: number
  }): Promise<number> {
    const row = await this.db
      .insertInto('status_pages')
      .values({
        owner_id: page.ownerId,
        slug: page.slug,
        name: page.name,
        custom_domain: page.customDomain,
        custom_domain_state: page.customDomain === null ? null : 'pending',
        visibility: page.visibility,
        ...(page.language === undefined ? {} : { language: page.language }),
        ...(page.timeZone === undefined ? {} : { time_zone: page.timeZone }),
        ...(page.description === undefined ? {} : { description: page.description }),
        created_at: page.now,
        updated_at: page.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }

  async update(id: number, changes: StatusPageChanges, now: number): Promise<void> {
    await this.db
      .updateTable('status_pages')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .execute()
  }

  delete(id: number) {
    return this.db.deleteFrom('status_pages').where('id', '=', id).execute()
  }

  /** Custom domains last checked at `checkedBy` or before (never checked first), at most `limit`. */
  dueDomains(checkedBy: number, limit: number) {
    return this.db
      .selectFrom('status_pages')
      .select(['id', 'custom_domain', 'custom_domain_state', 'custom_domain_checked_at', 'custom_domain_verified_at', 'slug'])
      .where('custom_domain', 'is not', null)
      .where((eb) => eb.or([eb('custom_domain_checked_at', 'is', null), eb('custom_domain_checked_at', '<=', checkedBy)]))
      .orderBy(sql`coalesce(custom_domain_checked_at, 0)`)
      .orderBy('id')
      .limit(limit)
      .execute()
  }

  /**
   * Takes a due check for this server: true when no other server (or run) took it since it was
   * listed. The claim is the check time itself, so a taken domain is not due for anyone else.
   */
  async claimDomainCheck(id: number, domain: string, lastCheckedAt: number | null, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('status_pages')
      .set({ custom_domain_checked_at: now })
      .where('id', '=', id)
      .where('custom_domain', '=', domain)
      .where('custom_domain_checked_at', lastCheckedAt === null ? 'is' : '=', lastCheckedAt)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  /**
   * Stores what a check of `domain` found; nothing when the page's domain changed meanwhile (the
   * result is about a domain the page no longer has). True when stored.
   */
  async saveDomainCheck(id: number, domain: string, record: DomainCheckRecord): Promise<boolean> {
    const result = await this.db
      .updateTable('status_pages')
      .set({
        custom_domain_state: record.state,
        custom_domain_reason: record.reason,
        custom_domain_checked_at: record.checkedAt,
        custom_domain_verified_at: record.verifiedAt,
      })
      .where('id', '=', id)
      .where('custom_domain', '=', domain)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }
}
