/**
 * `bun run bench notify`: the outbox at 1,000 mails, against a real SMTP server (smtp-server with
 * STARTTLS and login, in this process, on 127.0.0.1).
 *
 * For each scenario: the time to queue the mails (budget 1 s) and the time until the SMTP server
 * has received all of them through `outboxWorker.drain()` (budget 5 s). The baseline is nodemailer
 * alone sending as many mails through the same kind of pool, measured in the same run, so the ratio
 * (outbox ÷ bare nodemailer) means something on a shared, noisy machine. NOTIFY_BENCH_MAILS sets
 * the count.
 *
 * Adding a scenario (e.g. "one incident update → 1,000 subscriber mails"): push an entry onto
 * SCENARIOS. `prepare` (untimed) sets up what it needs; `queue` (timed) does the one action that
 * queues the mails and returns how many it queued.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import type { Db } from '../../src/db/client.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createSmtpSender } from '../../src/modules/notify/smtp-transport.ts'
import { createServices, type Services } from '../../src/services.ts'
import { ManualClock } from '../helpers/clock.ts'
import { startSmtp } from '../helpers/smtp.ts'
import { requestTimes, SUBSCRIBER_SCENARIOS } from './notify-subscribers.ts'

const MAILS = Number(process.env.NOTIFY_BENCH_MAILS ?? 1000)
const QUEUE_BUDGET_MS = 1000
const DELIVER_BUDGET_MS = 5000
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

export interface NotifyBench {
  services: Services
  db: Db
  clock: ManualClock
  mails: number
}

export interface NotifyScenario {
  name: string
  /** Untimed set-up (pages, subscribers…); its value is handed to `queue`. */
  prepare?(bench: NotifyBench): Promise<unknown>
  /** The timed action that queues the mails; returns how many it queued. */
  queue(bench: NotifyBench, prepared: unknown): Promise<number>
}

export const SCENARIOS: NotifyScenario[] = [
  {
    name: `${MAILS} direct mails queued in one transaction`,
    async queue({ services, db, mails }) {
      await db.transaction().execute((trx) =>
        services.outbox.enqueue(
          trx,
          Array.from({ length: mails }, (_, i) => ({
            target: `address:reader${i}@example.com`,
            mail: {
              to: `reader${i}@example.com`,
              subject: `Incident update ${i}`,
              text: `The API is degraded.\nManage your subscription: https://bench.test/m/${i}`,
              headers: { 'List-Unsubscribe': `<https://bench.test/u/${i}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
            },
          })),
        ),
      )
      return mails
    },
  },
]

// The subscriber fan-out's scenario (test/bench/notify-subscribers.ts).
SCENARIOS.push(...SUBSCRIBER_SCENARIOS)

/** Measurements that are not "queue then deliver", each on a fresh database after the scenarios. */
const REPORTS: Array<(bench: NotifyBench) => Promise<void>> = [requestTimes]

async function run(): Promise<void> {
  const smtp = await startSmtp()
  const config = (dir: string) => loadConfig({ ...smtp.env, DATABASE_PATH: join(dir, 'bench.sqlite'), BASE_URL: 'http://bench.test' })
  try {
    // Baseline: nodemailer alone, same pool settings, same server.
    const sender = createSmtpSender(config(tmpdir()).mail)
    const bareStart = performance.now()
    await Promise.all(Array.from({ length: MAILS }, (_, i) => sender.send({ to: `bare${i}@example.com`, subject: `Bare ${i}`, text: 'x', messageId: `<bare.${i}@bench.test>` })))
    await smtp.waitForCount(MAILS, 60_000)
    const bareMs = performance.now() - bareStart
    await sender.close()
    console.log(`bare nodemailer (pool of 5, STARTTLS): ${MAILS} mails in ${bareMs.toFixed(0)} ms (${((MAILS / bareMs) * 1000).toFixed(0)} mails/s)`)

    for (const scenario of SCENARIOS) {
      const dir = mkdtempSync(join(tmpdir(), 'lantern-bench-notify-'))
      const database = openDatabase(join(dir, 'bench.sqlite'))
      try {
        await migrateToLatest(database.db)
        const clock = new ManualClock(NOW)
        const services = createServices({ db: database.db, config: config(dir), clock })
        const bench: NotifyBench = { services, db: database.db, clock, mails: MAILS }
        const prepared = await scenario.prepare?.(bench)
        const received = smtp.mails.length
        const queueStart = performance.now()
        const queued = await scenario.queue(bench, prepared)
        const queueMs = performance.now() - queueStart
        const deliverStart = performance.now()
        const counts = await services.outboxWorker.drain()
        await smtp.waitForCount(received + queued, 60_000)
        const deliverMs = performance.now() - deliverStart
        await services.outboxWorker.stop(0)
        const verdict = (ms: number, budget: number) => (ms <= budget ? `within ${budget} ms` : `OVER the ${budget} ms budget`)
        console.log(
          `${scenario.name}: queued ${queued} in ${queueMs.toFixed(0)} ms (${verdict(queueMs, QUEUE_BUDGET_MS)}); ` +
            `delivered ${counts.sent} (failed ${counts.failed}, dead ${counts.dead}) in ${deliverMs.toFixed(0)} ms (${verdict(deliverMs, DELIVER_BUDGET_MS)}), ` +
            `${((queued / deliverMs) * 1000).toFixed(0)} mails/s, ${(deliverMs / bareMs).toFixed(2)}× bare nodemailer`,
        )
      } finally {
        await database.close()
        rmSync(dir, { recursive: true, force: true })
      }
    }
    for (const report of REPORTS) {
      const dir = mkdtempSync(join(tmpdir(), 'lantern-bench-notify-'))
      const database = openDatabase(join(dir, 'bench.sqlite'))
      try {
        await migrateToLatest(database.db)
        const clock = new ManualClock(NOW)
        const services = createServices({ db: database.db, config: config(dir), clock })
        await report({ services, db: database.db, clock, mails: MAILS })
        await services.outboxWorker.stop(0)
      } finally {
        await database.close()
        rmSync(dir, { recursive: true, force: true })
      }
    }
  } finally {
    await smtp.close()
  }
}

if (import.meta.main) {
  await run()
  process.exit(0)
}
