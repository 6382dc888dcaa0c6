import { sql, type Kysely } from 'kysely'
import { createTrigger, dropTrigger } from '../../src/db/engine.ts'

/**
 * page_check_minutes: the check minute buckets of a page's components summed per page and UTC
 * minute, so the status JSON's `rtm` reads its 60 (at most 240) rows by primary key instead of
 * summing 20 components × 60 buckets per cold read (a temp B-tree for the GROUP BY: about half
 * the cost of a cold status JSON, measured). Kept in step by triggers, so every write path
 * (ingest, retention pruning, deletions through foreign-key cascades) keeps it right; rows whose
 * checks drop to 0 are deleted so pruning leaves nothing behind.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('page_check_minutes')
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('minute', 'integer', (c) => c.notNull())
    .addColumn('checks', 'integer', (c) => c.notNull())
    .addColumn('timed_checks', 'integer', (c) => c.notNull())
    .addColumn('response_ms_sum', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_check_minutes_pk', ['page_id', 'minute'])
    .modifyEnd(sql`without rowid`)
    .execute()

  await createTrigger(db, {
    name: 'check_minutes_added',
    timing: 'AFTER INSERT',
    table: 'check_minutes',
    body: `INSERT INTO page_check_minutes (page_id, minute, checks, timed_checks, response_ms_sum)
      SELECT c.page_id, NEW.minute, NEW.checks, NEW.timed_checks, NEW.response_ms_sum FROM components c WHERE c.id = NEW.component_id
      ON CONFLICT (page_id, minute) DO UPDATE SET
        checks = page_check_minutes.checks + excluded.checks, timed_checks = page_check_minutes.timed_checks + excluded.timed_checks,
        response_ms_sum = page_check_minutes.response_ms_sum + excluded.response_ms_sum;`,
  })
  // An upsert into an existing bucket (a second batch into the same minute) is an UPDATE.
  await createTrigger(db, {
    name: 'check_minutes_changed',
    timing: 'AFTER UPDATE',
    table: 'check_minutes',
    body: `UPDATE page_check_minutes SET
        checks = checks - OLD.checks + NEW.checks, timed_checks = timed_checks - OLD.timed_checks + NEW.timed_checks,
        response_ms_sum = response_ms_sum - OLD.response_ms_sum + NEW.response_ms_sum
      WHERE page_id = (SELECT page_id FROM components WHERE id = NEW.component_id) AND minute = NEW.minute;`,
  })
  await createTrigger(db, {
    name: 'check_minutes_removed',
    timing: 'AFTER DELETE',
    table: 'check_minutes',
    body: `UPDATE page_check_minutes SET
        checks = checks - OLD.checks, timed_checks = timed_checks - OLD.timed_checks, response_ms_sum = response_ms_sum - OLD.response_ms_sum
      WHERE page_id = (SELECT page_id FROM components WHERE id = OLD.component_id) AND minute = OLD.minute;
      DELETE FROM page_check_minutes WHERE page_id = (SELECT page_id FROM components WHERE id = OLD.component_id) AND minute = OLD.minute AND checks <= 0;`,
  })
  // A deleted component's buckets go through the foreign-key cascade after its row is gone, when
  // check_minutes_removed can no longer find its page: take them out of the page first.
  await createTrigger(db, {
    name: 'components_removed_check_minutes',
    timing: 'BEFORE DELETE',
    table: 'components',
    body: `UPDATE page_check_minutes SET
        checks = page_check_minutes.checks - m.checks, timed_checks = page_check_minutes.timed_checks - m.timed_checks,
        response_ms_sum = page_check_minutes.response_ms_sum - m.response_ms_sum
      FROM (SELECT minute, checks, timed_checks, response_ms_sum FROM check_minutes WHERE component_id = OLD.id) AS m
      WHERE page_check_minutes.page_id = OLD.page_id AND page_check_minutes.minute = m.minute;
      DELETE FROM page_check_minutes WHERE page_id = OLD.page_id AND checks <= 0;`,
  })

  // Pages that already have buckets.
  await sql`INSERT INTO page_check_minutes (page_id, minute, checks, timed_checks, response_ms_sum)
    SELECT c.page_id, m.minute, sum(m.checks), sum(m.timed_checks), sum(m.response_ms_sum)
    FROM check_minutes m JOIN components c ON c.id = m.component_id GROUP BY c.page_id, m.minute`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTrigger(db, 'components_removed_check_minutes', 'components')
  for (const trigger of ['check_minutes_removed', 'check_minutes_changed', 'check_minutes_added']) await dropTrigger(db, trigger, 'check_minutes')
  await db.schema.dropTable('page_check_minutes').execute()
}
