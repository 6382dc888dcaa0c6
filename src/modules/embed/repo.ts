import type { Db } from '../../db/client.ts'

export class EmbedRepo {
  constructor(private readonly db: Db) {}

  /** What the public embeds need to know about a page: its addresses, state and the owner's plan. */
  findPageBySlug(slug: string) {
    return this.db
      .selectFrom('status_pages')
      .innerJoin('users', 'users.id', 'status_pages.owner_id')
      .select([
        'status_pages.id',
        'status_pages.slug',
        'status_pages.custom_domain',
        'status_pages.visibility',
        'status_pages.blocked',
        'users.plan',
      ])
      .where('status_pages.slug', '=', slug)
      .executeTakeFirst()
  }
}
