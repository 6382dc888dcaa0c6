/**
 * Announces maintenance windows as they start and end ("maintenance.started" / "maintenance.ended"),
 * each exactly once: a row in maintenance_notices (primary key window + phase) is written in the
 * same transaction as the event, so two sweepers (two workers, a restart) cannot announce twice.
 *
 * Runs on the injected clock: main.ts calls `sweep()` every 30 s next to the other intervals;
 * tests call it after moving their ManualClock. A window is announced late rather than never when
 * the sweeper was down, for up to a day (older transitions stay silent: no storm after an upgrade
 * or a long outage). A window recorded after it ended announces nothing.
 */
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Notifier } from '../notify/contract.ts'

/** How late a start or end is still announced. */
export const ANNOUNCE_LATE_MS = 24 * 3600_000
/** The interval main.ts runs the sweeper at. */
export const SWEEP_INTERVAL_MS = 30_000

export class MaintenanceSweeper {
  constructor(
    private readonly db: Db,
    private readonly notifier: Notifier,
    private readonly clock: Clock,
  ) {}

  /** Announces every start and end due at the clock's now; answers how many it announced. */
  async sweep(): Promise<number> {
    const now = this.clock.now()
    const since = now - ANNOUNCE_LATE_MS
    const notYet = (phase: 'started' | 'ended') =>
      sql<boolean>`not exists (select 1 from maintenance_notices n where n.maintenance_id = maintenances.id and n.phase = ${phase})`
    const starting = await this.db
      .selectFrom('maintenances')
      .select(['id', 'page_id', 'notify_subscribers'])
      .where('start_at', '<=', now)
      .where('start_at', '>', since)
      .where('end_at', '>', now)
      .where(notYet('started'))
      .orderBy('start_at')
      .execute()
    const ending = await this.db
      .selectFrom('maintenances')
      .select(['id', 'page_id', 'notify_subscribers'])
      .where('end_at', '<=', now)
      .where('end_at', '>', since)
      .whereRef('end_at', '>', 'created_at')
      .where(notYet('ended'))
      .orderBy('end_at')
      .execute()
    let announced = 0
    for (const [phase, rows] of [['started', starting], ['ended', ending]] as const) {
      for (const row of rows) {
        const done = await this.db.transaction().execute(async (trx) => {
          const inserted = await trx
            .insertInto('maintenance_notices')
            .values({ maintenance_id: row.id, phase, at: now })
            .onConflict((oc) => oc.doNothing())
            .executeTakeFirst()
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false
          await this.notifier.emit(trx, { kind: `maintenance.${phase}`, pageId: row.page_id, maintenanceId: row.id, notifySubscribers: row.notify_subscribers === 1, at: now })
          return true
        })
        if (done) announced++
      }
    }
    return announced
  }
}
