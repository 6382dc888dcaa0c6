import { sql, type Kysely } from 'kysely'

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

  await sql`CREATE TRIGGER check_minutes_added AFTER INSERT ON check_minutes BEGIN
    INSERT INTO page_check_minutes (page_id, minute, checks, timed_checks, response_ms_sum)
    SELECT c.page_id, NEW.minute, NEW.checks, NEW.timed_checks, NEW.response_ms_sum FROM components c WHERE c.id = NEW.component_id
    ON CONFLICT (page_id, minute) DO UPDATE SET
      checks = checks + excluded.checks, timed_checks = timed_checks + excluded.timed_checks,
      response_ms_sum = response_ms_sum + excluded.response_ms_sum;
  END`.execute(db)
  // An upsert into an existing bucket (a second batch into the same minute) is an UPDATE.
  await sql`CREATE TRIGGER check_minutes_changed AFTER UPDATE ON check_minutes BEGIN
    UPDATE page_check_minutes SET
      checks = checks - OLD.checks + NEW.checks, timed_checks = timed_checks - OLD.timed_checks + NEW.timed_checks,
      response_ms_sum = response_ms_sum - OLD.response_ms_sum + NEW.response_ms_sum
    WHERE page_id = (SELECT page_id FROM components WHERE id = NEW.component_id) AND minute = NEW.minute;
  END`.execute(db)
  await sql`CREATE TRIGGER check_minutes_removed AFTER DELETE ON check_minutes BEGIN
    UPDATE page_check_minutes SET
      checks = checks - OLD.checks, timed_checks = timed_checks - OLD.timed_checks, response_ms_sum = response_ms_sum - OLD.response_ms_sum
    WHERE page_id = (SELECT page_id FROM components WHERE id = OLD.component_id) AND minute = OLD.minute;
    DELETE FROM page_check_minutes WHERE page_id = (SELECT page_id FROM components WHERE id = OLD.component_id) AND minute = OLD.minute AND checks <= 0;
  END`.execute(db)
  // A deleted component's buckets go through the foreign-key cascade after its row is gone, when
  // check_minutes_removed can no longer find its page: take them out of the page first.
  await sql`CREATE TRIGGER components_removed_check_minutes BEFORE DELETE ON components BEGIN
    UPDATE page_check_minutes SET
      checks = page_check_minutes.checks - m.checks, timed_checks = page_check_minutes.timed_checks - m.timed_checks,
      response_ms_sum = page_check_minutes.response_ms_sum - m.response_ms_sum
    FROM (SELECT minute, checks, timed_checks, response_ms_sum FROM check_minutes WHERE component_id = OLD.id) AS m
    WHERE page_check_minutes.page_id = OLD.page_id AND page_check_minutes.minute = m.minute;
    DELETE FROM page_check_minutes WHERE page_id = OLD.page_id AND checks <= 0;
  END`.execute(db)

  // Pages that already have buckets.
  await sql`INSERT INTO page_check_minutes (page_id, minute, checks, timed_checks, response_ms_sum)
    SELECT c.page_id, m.minute, sum(m.checks), sum(m.timed_checks), sum(m.response_ms_sum)
    FROM check_minutes m JOIN components c ON c.id = m.component_id GROUP BY c.page_id, m.minute`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of ['components_removed_check_minutes', 'check_minutes_removed', 'check_minutes_changed', 'check_minutes_added']) {
    await sql`DROP TRIGGER ${sql.id(trigger)}`.execute(db)
  }
  await db.schema.dropTable('page_check_minutes').execute()
}
