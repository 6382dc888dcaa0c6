import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { PageAppearanceTable } from './tables.ts'

/** The owner's side of `page_appearance`: palette, custom CSS and images. */
export class BrandingRepo {
  constructor(private readonly db: Db) {}

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

  /** Everything, image bytes included: what the status site shows (BrandingService.publicAppearance). */
  findAppearance(pageId: number) {
    return this.db.selectFrom('page_appearance').selectAll().where('page_id', '=', pageId).executeTakeFirst()
  }

  async upsertAppearance(
    pageId: number,
    changes: Partial<Omit<PageAppearanceTable, 'page_id' | 'updated_at'>>,
    now: number,
  ): Promise<void> {
    await this.db
      .insertInto('page_appearance')
      .values({ page_id: pageId, ...changes, updated_at: now })
      .onConflict((oc) => oc.column('page_id').doUpdateSet({ ...changes, updated_at: now }))
      .execute()
  }
}
