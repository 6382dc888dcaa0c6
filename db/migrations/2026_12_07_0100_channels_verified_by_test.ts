import { sql, type Kysely } from 'kysely'

/**
 * Webhook and chat channels are verified by the outbox when their test send succeeds (the worker's
 * onTargetSent hook). Before, they were marked only when the channel was next read, and until then
 * the alert fan-out skipped them: a channel whose test succeeded (the target's last result is a
 * success at or after the test was asked for) but that nobody looked at since is verified now, at
 * the time of that success.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const succeeded = sql`
    FROM outbox_targets
    WHERE outbox_targets.target = 'channel:' || notification_channels.id
      AND outbox_targets.last_result = 'sent'
      AND outbox_targets.last_at >= notification_channels.test_requested_at`
  await sql`
    UPDATE notification_channels SET verified_at = (SELECT outbox_targets.last_at ${succeeded})
    WHERE verified_at IS NULL AND type <> 'email' AND test_requested_at IS NOT NULL
      AND EXISTS (SELECT 1 ${succeeded})`.execute(db)
}

/** Data only: which channels were verified this way is not kept, and they stay verified. */
export async function down(): Promise<void> {}
