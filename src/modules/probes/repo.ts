/** SQL of probes: the instance's probe tokens and the monitors assigned to a region. */
import type { Selectable } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { ProbeTokensTable } from './tables.ts'

export type ProbeTokenRow = Selectable<ProbeTokensTable>

export class ProbesRepo {
  constructor(readonly db: Db) {}

  async insertToken(values: { region: string; publicId: string; secretHash: string; now: number }): Promise<ProbeTokenRow> {
    return this.db
      .insertInto('probe_tokens')
      .values({ region: values.region, public_id: values.publicId, secret_hash: values.secretHash, created_at: values.now })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  findActiveToken(publicId: string): Promise<ProbeTokenRow | undefined> {
    return this.db.selectFrom('probe_tokens').selectAll().where('public_id', '=', publicId).where('revoked_at', 'is', null).executeTakeFirst()
  }

  listTokens(): Promise<ProbeTokenRow[]> {
    return this.db.selectFrom('probe_tokens').selectAll().orderBy('id').execute()
  }

  async revokeToken(id: number, now: number): Promise<ProbeTokenRow | undefined> {
    await this.db.updateTable('probe_tokens').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute()
    return this.db.selectFrom('probe_tokens').selectAll().where('id', '=', id).executeTakeFirst()
  }

  async touchToken(id: number, now: number): Promise<void> {
    await this.db.updateTable('probe_tokens').set({ last_used_at: now }).where('id', '=', id).execute()
  }

  /** Regions with at least one token that is not revoked. */
  async liveRegions(): Promise<string[]> {
    const rows = await this.db.selectFrom('probe_tokens').select('region').distinct().where('revoked_at', 'is', null).orderBy('region').execute()
    return rows.map((row) => row.region)
  }

  /** Enabled monitors whose regions may include `region` (the caller checks the parsed list; names hold no LIKE wildcards). */
  candidates(region: string) {
    return this.db
      .selectFrom('monitors')
      .selectAll()
      .where('enabled', '=', 1)
      .where('regions_json', 'like', `%"${region}"%`)
      .orderBy('id')
      .execute()
  }
}
