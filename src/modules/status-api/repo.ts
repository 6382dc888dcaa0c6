import type { Db } from '../../db/client.ts'

export class StatusRepo {
  constructor(private readonly db: Db) {}

  /** What public status embeds need about a page: addresses, visibility, name and the owner's plan. */
  findPageBySlug(slug: string) {
    return this.db
      .selectFrom('status_pages')
      .innerJoin('users', 'users.id', 'status_pages.owner_id')
      .select([
        'status_pages.id',
        'status_pages.slug',
        'status_pages.name',
        'status_pages.custom_domain',
        'status_pages.visibility',
        'status_pages.blocked',
        'users.plan',
      ])
      .where('status_pages.slug', '=', slug)
      .executeTakeFirst()
  }

  components(pageId: number) {
    return this.db
      .selectFrom('components')
      .select(['id', 'name', 'type', 'status', 'updated_at'])
      .where('page_id', '=', pageId)
      .orderBy('position')
      .orderBy('id')
      .execute()
  }

  /** Status changes of a component in [from, to), oldest first, preceded by the last change before `from`. */
  async history(componentId: number, from: number, to: number) {
    const [before, within] = await Promise.all([
      this.db
        .selectFrom('component_status_history')
        .select(['status', 'at'])
        .where('component_id', '=', componentId)
        .where('at', '<', from)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .execute(),
      this.db
        .selectFrom('component_status_history')
        .select(['status', 'at'])
        .where('component_id', '=', componentId)
        .where('at', '>=', from)
        .where('at', '<', to)
        .orderBy('at')
        .orderBy('id')
        .execute(),
    ])
    return [...before, ...within]
  }
}
