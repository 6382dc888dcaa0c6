/**
 * The subscriber part of `bun run bench notify` (reports run by notify.bench.ts, each on a fresh
 * database):
 *
 * - `requestTimes`: one incident update with notify_subscribers (the service call, its transaction
 *   with the fan-out) on a page with 0 and with N confirmed email subscribers (NOTIFY_BENCH_MAILS,
 *   1,000), median of a few runs each, and their ratio. The update writes one pending fan-out row,
 *   so the ratio should stay near 1 (it was 15.7× when the fan-out wrote every row in the request).
 * - `fanoutTimes`: the same update with the outbox worker's production loop running (`start()`):
 *   the time until all N outbox rows are queued (the loop expands the pending fan-out; budget 1 s)
 *   and until the local SMTP harness has all N mails (budget 5 s).
 */
import type { Db } from '../../src/db/client.ts'
import type { Owner } from '../../src/modules/accounts/service.ts'
import type { Services } from '../../src/services.ts'
import type { NotifyBench } from './notify.bench.ts'

const QUEUE_BUDGET_MS = 1000
const DELIVER_BUDGET_MS = 5000

interface Target {
  owner: Owner
  incidentId: number
  pageId: number
}

async function pageWithSubscribers(services: Services, db: Db, count: number, slug: string): Promise<Target> {
  const owner = await services.accounts.personalTeamOwner(await services.accounts.createUser({ email: `${slug}@bench.test`, password: 'correct horse battery', plan: 'enterprise' }))
  const page = await services.pages.create(owner, { slug, name: `Bench ${slug}` })
  const now = services.clock.now()
  const rows = Array.from({ length: count }, (_, i) => ({
    page_id: page.id,
    kind: 'email' as const,
    email: `reader${i}@${slug}.test`,
    source: 'import' as const,
    confirmed_at: now,
    manage_key: `bench-key-${i}`,
    created_at: now,
  }))
  for (let i = 0; i < rows.length; i += 1000) await db.insertInto('subscribers').values(rows.slice(i, i + 1000)).execute()
  const incident = await services.incidents.create(owner, { status_page_id: page.id, title: 'API degraded', message: 'Investigating.' })
  return { owner, incidentId: incident.id, pageId: page.id }
}

const subscriberRows = async (db: Db) =>
  Number((await db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('target', 'like', 'subscriber:%').executeTakeFirstOrThrow()).n)

/** The update as the API makes it: the incident service emits the event in its transaction. */
async function incidentUpdate(services: Services, target: Target, round: number): Promise<void> {
  await services.incidents.addUpdate(target.owner, target.incidentId, { message: `Still looking (${round}).`, notify_subscribers: true })
}

const ROUNDS = 15
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const verdict = (ms: number, budget: number) => (ms <= budget ? `within ${budget} ms` : `OVER the ${budget} ms budget`)

/** Median time of an incident update on a page without subscribers and on one with `mails`. */
export async function requestTimes({ services, db, mails }: NotifyBench): Promise<void> {
  const empty = await pageWithSubscribers(services, db, 0, 'nobody')
  const one = await pageWithSubscribers(services, db, 1, 'somebody')
  const full = await pageWithSubscribers(services, db, mails, 'everybody')
  const timed = async (target: Target, round: number) => {
    const start = performance.now()
    await incidentUpdate(services, target, round)
    return performance.now() - start
  }
  // Alternated, so a slower moment of the shared machine weighs on both sides alike.
  const emptyRuns: number[] = []
  const oneRuns: number[] = []
  const fullRuns: number[] = []
  for (let round = -2; round < ROUNDS; round++) {
    const emptyRun = await timed(empty, round)
    const oneRun = await timed(one, round)
    const fullRun = await timed(full, round)
    if (round < 0) continue // warm-up
    emptyRuns.push(emptyRun)
    oneRuns.push(oneRun)
    fullRuns.push(fullRun)
  }
  const [emptyMs, oneMs, fullMs] = [median(emptyRuns), median(oneRuns), median(fullRuns)]
  const rows = await subscriberRows(db)
  console.log(
    `incident update with notify_subscribers (median of ${ROUNDS}): ${emptyMs.toFixed(1)} ms with 0 subscribers, ${oneMs.toFixed(1)} ms with 1, ` +
      `${fullMs.toFixed(1)} ms with ${mails} (${(fullMs / emptyMs).toFixed(2)}× 0, ${(fullMs / oneMs).toFixed(2)}× 1); ` +
      `per-subscriber outbox rows written by the requests: ${rows} (one pending fan-out row each; none on a page that never had a subscriber)`,
  )
}

/** One update with the worker loop running: until all rows are queued, until all mails arrived. */
export async function fanoutTimes({ services, db, mails, smtp }: NotifyBench): Promise<void> {
  const target = await pageWithSubscribers(services, db, mails, 'live')
  await services.outboxWorker.start()
  const received = smtp.mails.length
  const start = performance.now()
  await incidentUpdate(services, target, 0)
  const requestMs = performance.now() - start
  while ((await subscriberRows(db)) < mails) await Bun.sleep(2)
  const queuedMs = performance.now() - start
  await smtp.waitForCount(received + mails, 60_000)
  const deliveredMs = performance.now() - start
  console.log(
    `one incident update → ${mails} subscriber mails, worker loop running: request ${requestMs.toFixed(1)} ms; ` +
      `all ${mails} rows queued after ${queuedMs.toFixed(0)} ms (${verdict(queuedMs, QUEUE_BUDGET_MS)}); ` +
      `all delivered to the SMTP harness after ${deliveredMs.toFixed(0)} ms (${verdict(deliveredMs, DELIVER_BUDGET_MS)})`,
  )
}
