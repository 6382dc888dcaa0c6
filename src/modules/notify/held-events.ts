/** The Notifier's store of events whose cause is not complete yet (contract.ts `HeldEvents`). */
import type { Db } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import type { HeldEvents, NotifyEvent } from './contract.ts'

export class HeldEventsRepo implements HeldEvents {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async hold(db: Db, key: string, event: NotifyEvent): Promise<void> {
    await db.insertInto('notify_held_events').values({ cause_key: key, event_json: JSON.stringify(event), created_at: this.clock.now() }).execute()
  }

  transaction<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work)
  }

  /** One DELETE … RETURNING: of two flushes of one cause at once, only one gets its events. */
  async take(db: Db, key: string): Promise<NotifyEvent[]> {
    const rows = await db.deleteFrom('notify_held_events').where('cause_key', '=', key).returning(['id', 'event_json']).execute()
    return rows.sort((a, b) => a.id - b.id).map((row) => JSON.parse(row.event_json) as NotifyEvent)
  }

  async heldLongerThan(ms: number, limit: number): Promise<string[]> {
    const before = this.clock.now() - ms
    const rows = await this.db.selectFrom('notify_held_events').select('cause_key').where('created_at', '<', before).groupBy('cause_key').limit(limit).execute()
    return rows.map((row) => row.cause_key)
  }
}
