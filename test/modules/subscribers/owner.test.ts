/**
 * The owner's side of page subscribers through the management API: add (consent, no opt-in),
 * list with counts, remove, CSV import (all or nothing) and export (formula cells escaped), the
 * plan limit, private pages, other owners' ids, webhook subscribers at the chat hub (and a dead
 * one unsubscribed), and mail off.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { subscriberLimit } from '../../../src/modules/plans/matrix.ts'
import { emit, outboxCount, siteUrl } from './helpers.ts'

let smtp: SmtpHarness
let hub: ChatHub
let ctx: TestContext
let key: string
let owner: Owner
let pageId: number

beforeAll(async () => {
  smtp = await startSmtp()
  hub = await startChatHub()
  ctx = await createTestContext({ env: { ...smtp.env, MONITOR_PRIVATE_TARGETS: '1' } })
  ;({ key, user: owner } = await ctx.createOwner('pro'))
  pageId = (await ctx.createPage(key, { slug: 'owned', name: 'Owned' })).id
})
afterAll(async () => {
  await ctx.close()
  await smtp.close()
  await hub.close()
})

const base = (id = pageId) => `/user/api/v1/status-pages/${id}/subscribers`
const add = (body: Record<string, unknown>, id = pageId, apiKey = key) => ctx.request(base(id), { method: 'POST', key: apiKey, json: body })
const list = async (id = pageId) => json(await ctx.request(`${base(id)}?limit=1000`, { key }))
const importCsv = (csv: string, id = pageId, apiKey = key) => ctx.request(`${base(id)}/import`, { method: 'POST', key: apiKey, json: { csv, consent: true } })

async function incident(page: number, who: Owner = owner, componentIds: number[] = []) {
  const created = await ctx.app.services.incidents.create(who, { status_page_id: page, title: 'Database slow', message: 'We are on it.', component_ids: componentIds })
  await emit(ctx, { kind: 'incident.opened', pageId: page, incidentId: created.id, notifySubscribers: true, at: ctx.clock.now() })
  return created
}

describe('add, list, remove', () => {
  test('the owner adds a subscriber with consent: confirmed at once, no confirmation mail', async () => {
    const mailsBefore = await outboxCount(ctx)
    const response = await add({ email: 'Added@Example.com', consent: true })
    expect(response.status).toBe(201)
    const { data } = await json(response)
    expect(data).toMatchObject({ kind: 'email', email: 'added@example.com', status: 'confirmed', source: 'owner', component_ids: null })
    expect(await outboxCount(ctx)).toBe(mailsBefore)
    expect((await add({ email: 'added@example.com', consent: true })).status).toBe(409)
    const body = await list()
    expect(body.counts).toEqual({ email: 1, pending: 0, webhook: 0, limit: 1000 })
    expect(body.data.map((s: { email: string }) => s.email)).toEqual(['added@example.com'])
  })

  test('without consent, with a bad address or an unknown component: 400 and nothing added', async () => {
    expect((await add({ email: 'no-consent@example.com', consent: false })).status).toBe(400)
    expect((await add({ email: 'no-consent@example.com' })).status).toBe(400)
    expect((await add({ email: 'nope', consent: true })).status).toBe(400)
    expect((await add({ kind: 'webhook', url: 'ftp://example.com/x', consent: true })).status).toBe(400)
    expect((await add({ email: 'comp@example.com', component_ids: [987654], consent: true })).status).toBe(400)
    expect((await add({ email: 42, consent: true })).status).toBe(400)
    for (const query of ['limit=1.5', 'limit=0', 'limit=1001', 'after=1.5', 'after=-1']) expect((await ctx.request(`${base()}?${query}`, { key })).status).toBe(400)
    expect((await list()).data.length).toBe(1)
  })

  test('remove: gone from the list and from the mail', async () => {
    const { data } = await json(await add({ email: 'removed@example.com', consent: true }))
    const removed = await ctx.request(`${base()}/${data.id}`, { method: 'DELETE', key })
    expect(removed.status).toBe(200)
    expect((await ctx.request(`${base()}/${data.id}`, { method: 'DELETE', key })).status).toBe(404)
    expect((await list()).data.some((s: { email: string }) => s.email === 'removed@example.com')).toBe(false)
    await incident(pageId)
    await ctx.app.services.outboxWorker.drain()
    await smtp.waitFor((m) => m.to === 'added@example.com' && m.subject.includes('Database slow'))
    expect(smtp.mails.some((m) => m.to === 'removed@example.com')).toBe(false)
  })

  test("another owner's page or subscriber ids answer 404 and change nothing", async () => {
    const other = await ctx.createOwner('pro')
    const theirPage = (await ctx.createPage(other.key, { slug: 'theirs', name: 'Theirs' })).id
    const theirs = (await json(await add({ email: 'their@example.com', consent: true }, theirPage, other.key))).data.id
    expect((await ctx.request(base(theirPage), { key })).status).toBe(404)
    expect((await add({ email: 'intruder@example.com', consent: true }, theirPage)).status).toBe(404)
    expect((await importCsv('email\nintruder@example.com\n', theirPage)).status).toBe(404)
    expect((await ctx.request(`${base(theirPage)}/export`, { key })).status).toBe(404)
    expect((await ctx.request(`${base(theirPage)}/${theirs}`, { method: 'DELETE', key })).status).toBe(404)
    // Something that is no id names no subscriber: 404 too, not a 400.
    expect((await ctx.request(`${base()}/not-an-id`, { method: 'DELETE', key })).status).toBe(404)
    // Their subscriber through my page id: still 404.
    expect((await ctx.request(`${base()}/${theirs}`, { method: 'DELETE', key })).status).toBe(404)
    const still = await json(await ctx.request(base(theirPage), { key: other.key }))
    expect(still.data.map((s: { email: string }) => s.email)).toEqual(['their@example.com'])
  })
})

describe('CSV', () => {
  test('import then export round-trips, with formula-like cells escaped', async () => {
    const page = (await ctx.createPage(key, { slug: 'csv', name: 'CSV' })).id
    const csv = 'email,components\r\n=cmd@example.com,\r\n"plain@example.com",\r\n+sum@example.com,\r\n'
    const imported = await importCsv(csv, page)
    expect(imported.status).toBe(200)
    expect((await json(imported)).data).toEqual({ imported: 3, skipped: 0 })
    const exported = await ctx.request(`${base(page)}/export`, { key })
    expect(exported.status).toBe(200)
    expect(exported.headers.get('content-type')).toContain('text/csv')
    const text = await exported.text()
    expect(text).toContain("'=cmd@example.com")
    expect(text).toContain("'+sum@example.com")
    expect(text.split('\r\n').some((line) => line.startsWith('=') || line.includes(',=') || line.includes(',+'))).toBe(false)
    // Into another page: the same addresses, the escape taken off again.
    const copy = (await ctx.createPage(key, { slug: 'csv-copy', name: 'CSV copy' })).id
    expect((await json(await importCsv(text, copy))).data).toEqual({ imported: 3, skipped: 0 })
    const emails = (await list(copy)).data.map((s: { email: string }) => s.email).sort()
    expect(emails).toEqual(['+sum@example.com', '=cmd@example.com', 'plain@example.com'])
    // The same file again: everything skipped, nothing doubled.
    expect((await json(await importCsv(text, copy))).data).toEqual({ imported: 0, skipped: 3 })
  })

  test('one bad row: every error by line, nothing imported', async () => {
    const page = (await ctx.createPage(key, { slug: 'csv-bad', name: 'CSV bad' })).id
    const response = await importCsv('email\ngood@example.com\nnot-an-address\ngood@example.com\n', page)
    expect(response.status).toBe(400)
    const { error } = await json(response)
    expect(error).toContain('line 3: email is not a valid address')
    expect(error).toContain('line 4: good@example.com appears twice')
    expect((await list(page)).data.length).toBe(0)
    expect((await importCsv('name\nx\n', page)).status).toBe(400)
    expect((await importCsv('email\n"open quote\n', page)).status).toBe(400)
    expect((await ctx.request(`${base(page)}/import`, { method: 'POST', key, json: { csv: 'email\na@example.com\n', consent: false } })).status).toBe(400)
  })

  test('the plan limit: an import that would pass it is refused whole', async () => {
    const free = await ctx.createOwner('free')
    const page = (await ctx.createPage(free.key, { slug: 'free-page', name: 'Free' })).id
    const limit = subscriberLimit('free')!
    const rows = Array.from({ length: limit + 1 }, (_, i) => `reader${i}@example.com`).join('\n')
    const refused = await importCsv(`email\n${rows}\n`, page, free.key)
    expect(refused.status).toBe(403)
    expect((await json(refused)).error).toContain(`allows ${limit} subscribers`)
    expect((await json(await ctx.request(base(page), { key: free.key }))).counts.email).toBe(0)
    const fits = Array.from({ length: limit }, (_, i) => `reader${i}@example.com`).join('\n')
    expect((await importCsv(`email\n${fits}\n`, page, free.key)).status).toBe(200)
    expect((await add({ email: 'one-more@example.com', consent: true }, page, free.key)).status).toBe(403)
  })
})

describe('webhooks, private pages, mail off', () => {
  test('a webhook subscriber gets Statuspage-shaped JSON; a dead one is unsubscribed', async () => {
    const page = (await ctx.createPage(key, { slug: 'hooks', name: 'Hooks' })).id
    const hook = (await json(await add({ kind: 'webhook', url: `${hub.url}/subscriber`, consent: true }, page))).data
    expect(hook).toMatchObject({ kind: 'webhook', status: 'confirmed' })
    const created = await incident(page)
    await ctx.app.services.outboxWorker.drain()
    const [received] = await hub.waitFor('/subscriber', 1)
    expect(received!.headers.get('content-type')).toBe('application/json')
    const body = received!.json()
    expect(body.incident).toMatchObject({ id: String(created.id), name: 'Database slow', status: 'investigating', shortlink: `https://hooks.status.test/incidents/${created.id}` })
    expect(body.incident.incident_updates[0]).toMatchObject({ body: 'We are on it.', status: 'investigating' })
    expect(body.page).toMatchObject({ id: 'hooks', name: 'Hooks' })
    expect(body.meta.unsubscribe).toStartWith('https://hooks.status.test/unsubscribe?token=')

    // The outbox gives up on the target: the subscriber is unsubscribed, in the worker's transaction.
    await ctx.database.db.transaction().execute((trx) => ctx.app.services.subscribers.disableTarget(trx, `subscriber:${hook.id}`))
    expect((await list(page)).counts.webhook).toBe(0)
  })

  test('maintenance events reach mail and webhook subscribers, as Statuspage-shaped maintenance', async () => {
    const page = (await ctx.createPage(key, { slug: 'windows', name: 'Windows' })).id
    await add({ kind: 'webhook', url: `${hub.url}/windows`, consent: true }, page)
    await add({ email: 'windows@example.com', consent: true }, page)
    const window = await ctx.app.services.maintenances.create(owner, {
      status_page_id: page,
      title: 'Database upgrade',
      start_at: '2026-11-10T02:00:00Z',
      end_at: '2026-11-10T03:00:00Z',
      message: 'Read-only for an hour.',
    })
    await emit(ctx, { kind: 'maintenance.scheduled', pageId: page, maintenanceId: window.id, notifySubscribers: true, at: ctx.clock.now() })
    await ctx.app.services.outboxWorker.drain()
    const [received] = await hub.waitFor('/windows', 1)
    expect(received!.json().incident).toMatchObject({ id: `m${window.id}`, name: 'Database upgrade', impact: 'maintenance', status: 'scheduled', scheduled_for: '2026-11-10T02:00:00.000Z' })
    const mail = await smtp.waitFor((m) => m.to === 'windows@example.com')
    expect(mail.subject).toBe('[Windows] Maintenance scheduled: Database upgrade')
    expect(mail.text).toContain('From 10 Nov 2026, 02:00 UTC to 10 Nov 2026, 03:00 UTC')
    expect(mail.text).toContain('Read-only for an hour.')
  })

  test('a private page has no form and notifies only the subscribers its owner added', async () => {
    const page = await ctx.createPage(key, { slug: 'was-public', name: 'Was public' })
    // A visitor subscribed while the page was public…
    const visitor = 'visitor@example.com'
    await ctx.app.services.subscribers.subscribe(page.id, { email: visitor, componentIds: [] })
    await ctx.database.db.updateTable('subscribers').set({ confirmed_at: ctx.clock.now() }).where('email', '=', visitor).execute()
    await add({ email: 'insider@example.com', consent: true }, page.id)
    // …then the page went private.
    expect((await ctx.request(`/user/api/v1/status-pages/${page.id}`, { method: 'PATCH', key, json: { visibility: 'private' } })).status).toBe(200)
    expect((await ctx.request(siteUrl('was-public', '/subscribe'))).status).toBe(404)
    expect((await ctx.request(siteUrl('was-public', '/subscribe'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://was-public.status.test' }, body: 'email=x%40example.com' })).status).toBe(404)
    await incident(page.id)
    await ctx.app.services.outboxWorker.drain()
    await smtp.waitFor((m) => m.to === 'insider@example.com' && m.subject.includes('Was public'))
    expect(smtp.mails.some((m) => m.to === visitor && m.subject.includes('Database slow'))).toBe(false)
  })

  test('with mail off: no form, no mail rows; webhooks still go out', async () => {
    const off = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
    try {
      const o = await off.createOwner('pro')
      const page = await off.createPage(o.key, { slug: 'quiet', name: 'Quiet' })
      expect(await (await off.request(siteUrl('quiet', '/'))).text()).not.toContain('href="/subscribe"')
      expect((await off.request(siteUrl('quiet', '/subscribe'))).status).toBe(404)
      const addTo = (body: Record<string, unknown>) => off.request(`/user/api/v1/status-pages/${page.id}/subscribers`, { method: 'POST', key: o.key, json: body })
      expect((await addTo({ email: 'someone@example.com', consent: true })).status).toBe(201)
      expect((await addTo({ kind: 'webhook', url: `${hub.url}/quiet`, consent: true })).status).toBe(201)
      const created = await off.app.services.incidents.create(o.user, { status_page_id: page.id, title: 'Quiet incident' })
      await emit(off, { kind: 'incident.opened', pageId: page.id, incidentId: created.id, notifySubscribers: true, at: off.clock.now() })
      // The worker expands the event's pending fan-out into outbox rows before it delivers.
      await off.app.services.outboxWorker.drain()
      const rows = await off.database.db.selectFrom('outbox').select(['kind']).execute()
      expect(rows.map((r) => r.kind)).toEqual(['http'])
    } finally {
      await off.close()
    }
  })
})
