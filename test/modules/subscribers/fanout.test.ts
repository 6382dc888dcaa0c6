/**
 * The deferred subscriber fan-out (issue 14 benchmark): an incident update writes one pending row,
 * whatever the number of subscribers; the outbox worker expands it in batches, each batch one
 * transaction with its progress. A crash between batches or inside one neither loses nor doubles a
 * row, a pending fan-out survives a restart, and who unsubscribed before the expansion gets nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openConfiguredDatabase } from '../../../src/db/open.ts'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import type { Delivery, OutboxWriter } from '../../../src/modules/notify/contract.ts'
import { EXPAND_BATCH, SubscriberFanoutExpander } from '../../../src/modules/subscribers/expansion.ts'
import { createServices } from '../../../src/services.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'

let smtp: SmtpHarness
let ctx: TestContext
let owner: Owner
let key: string

beforeAll(async () => {
  smtp = await startSmtp()
  ctx = await createTestContext({ env: smtp.env })
  ;({ key, user: owner } = await ctx.createOwner('enterprise'))
})
afterAll(async () => {
  await ctx.close()
  await smtp.close()
})

const db = () => ctx.database.db
/** More than two batches, so a fan-out takes several transactions. */
const MANY = EXPAND_BATCH * 2 + 37

/** A page with `count` confirmed email subscribers (as an import makes them) and an open incident. */
async function pageWith(slug: string, count: number) {
  const page = await ctx.createPage(key, { slug, name: slug })
  const now = ctx.clock.now()
  const rows = Array.from({ length: count }, (_, i) => ({
    page_id: page.id,
    kind: 'email' as const,
    email: `reader${i}@${slug}.test`,
    source: 'import' as const,
    confirmed_at: now,
    manage_key: `key-${slug}-${i}`,
    created_at: now,
  }))
  for (let i = 0; i < rows.length; i += 1000) await db().insertInto('subscribers').values(rows.slice(i, i + 1000)).execute()
  const incident = await ctx.app.services.incidents.create(owner, { status_page_id: page.id, title: `Trouble on ${slug}`, message: 'Looking.' })
  return { pageId: page.id, incidentId: incident.id }
}

const update = (incidentId: number, message: string) => ctx.app.services.incidents.addUpdate(owner, incidentId, { message, notify_subscribers: true })

/** Outbox rows per subscriber target of a page's subscribers. */
async function rowsPerSubscriber(pageId: number): Promise<Map<string, number>> {
  const ids = await db().selectFrom('subscribers').select('id').where('page_id', '=', pageId).execute()
  const targets = new Set(ids.map((s) => `subscriber:${s.id}`))
  const rows = await db().selectFrom('outbox').select(['target', (eb) => eb.fn.countAll<number>().as('n')]).where('target', 'like', 'subscriber:%').groupBy('target').execute()
  return new Map(rows.filter((r) => targets.has(r.target)).map((r) => [r.target, Number(r.n)]))
}

const expander = () => new SubscriberFanoutExpander(db(), ctx.app.services.subscribers, ctx.app.services.outbox)

const pending = async () => Number((await db().selectFrom('subscriber_fanouts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)

function expectOneEach(rows: Map<string, number>, count: number) {
  expect(rows.size).toBe(count)
  expect([...rows.values()].every((n) => n === 1)).toBe(true)
}

describe('the request writes one row, the worker the rest', () => {
  test('an update on a page with many subscribers writes one pending fan-out and no per-subscriber row', async () => {
    const { pageId, incidentId } = await pageWith('many', MANY)
    await update(incidentId, 'Found it.')
    expect(await pending()).toBe(1)
    expect((await rowsPerSubscriber(pageId)).size).toBe(0)
    // The worker's step (drain() and the loop run it before claiming; the restart test below drains).
    expect(await expander().expand()).toBe(false)
    expect(await pending()).toBe(0)
    expectOneEach(await rowsPerSubscriber(pageId), MANY)
    const mail = await db().selectFrom('outbox').select('payload_json').where('target', 'like', 'subscriber:%').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()
    expect(JSON.parse(mail.payload_json).mail).toMatchObject({ to: `reader${MANY - 1}@many.test`, subject: '[many] Update: Trouble on many' })
  })

  test('a page without subscribers writes no pending row at all', async () => {
    const { incidentId } = await pageWith('nobody', 0)
    await update(incidentId, 'Quiet.')
    expect(await pending()).toBe(0)
  })
})

describe('crash safety', () => {
  test('one batch, a "crash" (a new worker on a new connection), the rest: every subscriber exactly one row', async () => {
    const { pageId, incidentId } = await pageWith('crashy', MANY)
    await update(incidentId, 'Half way.')
    const first = expander()
    const fanout = await db().selectFrom('subscriber_fanouts').select('id').executeTakeFirstOrThrow()
    expect(await first.expandBatch(fanout.id)).toBe(EXPAND_BATCH)
    expect((await rowsPerSubscriber(pageId)).size).toBe(EXPAND_BATCH)

    // The process dies here; another one starts on the same file and its worker's step finishes the job.
    const second = openConfiguredDatabase(ctx.config)
    try {
      const services = createServices({ db: second.db, config: ctx.config, clock: ctx.clock })
      expect(await new SubscriberFanoutExpander(second.db, services.subscribers, services.outbox).expand()).toBe(false)
    } finally {
      await second.close()
    }
    expect(await pending()).toBe(0)
    expectOneEach(await rowsPerSubscriber(pageId), MANY)
  })

  test('a crash inside a batch rolls it back whole: expanding again writes each row once', async () => {
    const { pageId, incidentId } = await pageWith('torn', MANY)
    await update(incidentId, 'Torn.')
    const fanout = await db().selectFrom('subscriber_fanouts').selectAll().executeTakeFirstOrThrow()
    // The real outbox writes its rows, then the process "dies" before the batch's progress is written.
    const real = ctx.app.services.outbox
    const dying: OutboxWriter = {
      mailEnabled: real.mailEnabled,
      async enqueue(trx, deliveries: readonly Delivery[]) {
        await real.enqueue(trx, deliveries)
        throw new Error('killed mid-batch')
      },
    }
    await expect(new SubscriberFanoutExpander(db(), ctx.app.services.subscribers, dying).expandBatch(fanout.id)).rejects.toThrow('killed mid-batch')
    expect((await rowsPerSubscriber(pageId)).size).toBe(0)
    expect((await db().selectFrom('subscriber_fanouts').selectAll().where('id', '=', fanout.id).executeTakeFirstOrThrow()).last_subscriber_id).toBe(fanout.last_subscriber_id)

    await expander().expand()
    expectOneEach(await rowsPerSubscriber(pageId), MANY)
  })

  test('a pending fan-out survives a restart and is delivered by the next process', async () => {
    const restart = await createTestContext({ env: smtp.env })
    try {
      const { user, key: restartKey } = await restart.createOwner('enterprise')
      const page = await restart.createPage(restartKey, { slug: 'restart', name: 'Restart' })
      await restart.request(`/user/api/v1/status-pages/${page.id}/subscribers`, { method: 'POST', key: restartKey, json: { email: 'survivor@example.com', consent: true } })
      const incident = await restart.app.services.incidents.create(user, { status_page_id: page.id, title: 'Before the restart' })
      await restart.app.services.incidents.addUpdate(user, incident.id, { message: 'Still on it.', notify_subscribers: true })
      // The process stops before its worker ran; the row is in the database.
      await restart.app.services.outboxWorker.stop(0)
      await restart.database.close()

      const next = openConfiguredDatabase(restart.config)
      try {
        const services = createServices({ db: next.db, config: restart.config, clock: restart.clock })
        expect(await services.outboxWorker.drain()).toMatchObject({ sent: 1 })
        await services.outboxWorker.stop(0)
      } finally {
        await next.close()
      }
      const mail = await smtp.waitFor((m) => m.to === 'survivor@example.com' && m.subject.includes('Before the restart'))
      expect(mail.text).toContain('Still on it.')
    } finally {
      await restart.close().catch(() => {})
    }
  })
})

describe('who gets it', () => {
  test('unsubscribed before the expansion: nothing; subscribed after the event: nothing', async () => {
    const { pageId, incidentId } = await pageWith('movers', 3)
    await update(incidentId, 'Moving.')
    const [leaver] = await db().selectFrom('subscribers').select('id').where('page_id', '=', pageId).orderBy('id').limit(1).execute()
    await db().updateTable('subscribers').set({ unsubscribed_at: ctx.clock.now(), unsubscribe_reason: 'subscriber' }).where('id', '=', leaver!.id).execute()
    const late = await ctx.request(`/user/api/v1/status-pages/${pageId}/subscribers`, { method: 'POST', key, json: { email: 'late@example.com', consent: true } })
    expect(late.status).toBe(201)
    await expander().expand()
    const rows = await rowsPerSubscriber(pageId)
    expect(rows.size).toBe(2)
    expect(rows.has(`subscriber:${leaver!.id}`)).toBe(false)
    expect(rows.has(`subscriber:${((await late.json()) as { data: { id: number } }).data.id}`)).toBe(false)
  })
})
