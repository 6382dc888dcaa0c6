/**
 * The subscriber part of `bun run bench notify` (scenarios run by notify.bench.ts):
 *
 * - one incident update with notify_subscribers on a page with N confirmed email subscribers
 *   (NOTIFY_BENCH_MAILS, 1,000): the outbox rows written (budget 1 s) and delivered to the SMTP
 *   harness (budget 5 s), timed by notify.bench.ts like its other scenarios;
 * - `requestTimes`: the incident update's own time (service call, its transaction with the fan-out)
 *   on a page with 0 and with N subscribers, median of a few runs each, and their ratio.
 *
 * The incident service emits the event itself once the producers (branch channels) are in; before
 * that the update is followed by the same emit in a transaction, and the output says which.
 */
import type { Db } from '../../src/db/client.ts'
import type { User } from '../../src/modules/accounts/service.ts'
import type { Services } from '../../src/services.ts'
import type { NotifyBench, NotifyScenario } from './notify.bench.ts'

async function pageWithSubscribers(services: Services, db: Db, count: number, slug: string): Promise<{ owner: User; incidentId: number; pageId: number }> {
  const owner = await services.accounts.createUser({ email: `${slug}@bench.test`, password: 'correct horse battery', plan: 'enterprise' })
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

let producerSeen: boolean | undefined

/** The update as the API makes it; the emit by hand only while the incident service does not emit. */
async function incidentUpdate(services: Services, db: Db, target: { owner: User; incidentId: number; pageId: number }, round: number): Promise<void> {
  const before = producerSeen === false ? 0 : await subscriberRows(db)
  // notify_subscribers is in the incident API once the producers are merged; extra keys are ignored before.
  const input = { message: `Still looking (${round}).`, ...({ notify_subscribers: true } as object) }
  const incident = await services.incidents.addUpdate(target.owner, target.incidentId, input)
  if (producerSeen === undefined) producerSeen = (await subscriberRows(db)) > before
  if (producerSeen) return
  const update = incident.updates[incident.updates.length - 1]!
  await db.transaction().execute((trx) =>
    services.notifier.emit(trx, { kind: 'incident.updated', pageId: target.pageId, incidentId: target.incidentId, updateId: update.id, notifySubscribers: true, at: services.clock.now() }),
  )
}

export const SUBSCRIBER_SCENARIOS: NotifyScenario[] = [
  {
    name: 'one incident update with notify_subscribers → a mail per subscriber',
    async prepare({ services, db, mails }: NotifyBench) {
      return pageWithSubscribers(services, db, mails, 'subscribers')
    },
    async queue({ services, db }: NotifyBench, prepared) {
      const before = await subscriberRows(db)
      await incidentUpdate(services, db, prepared as Awaited<ReturnType<typeof pageWithSubscribers>>, 0)
      const queued = (await subscriberRows(db)) - before
      console.log(`  (the event came from ${producerSeen ? 'the incident service itself' : 'an emit after the update: the producers are not merged yet'})`)
      return queued
    },
  },
]

const ROUNDS = 7
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Median time of an incident update on a page without subscribers and on one with `mails`. */
export async function requestTimes({ services, db, mails }: NotifyBench): Promise<void> {
  const empty = await pageWithSubscribers(services, db, 0, 'nobody')
  const full = await pageWithSubscribers(services, db, mails, 'everybody')
  const time = async (target: typeof empty) => {
    const runs: number[] = []
    for (let round = 1; round <= ROUNDS; round++) {
      const start = performance.now()
      await incidentUpdate(services, db, target, round)
      runs.push(performance.now() - start)
    }
    return median(runs)
  }
  await time(empty) // warm-up
  const emptyMs = await time(empty)
  const fullMs = await time(full)
  console.log(
    `incident update (median of ${ROUNDS}): ${emptyMs.toFixed(1)} ms with 0 subscribers, ${fullMs.toFixed(1)} ms with ${mails} ` +
      `(${(fullMs / emptyMs).toFixed(2)}×; the difference is writing ${mails} outbox rows in its transaction, ${((fullMs - emptyMs) / mails * 1000).toFixed(0)} µs each)`,
  )
}
