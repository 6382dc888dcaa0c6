/**
 * Email-auth monitors through the real app: created over the API, run by the scheduler against a
 * local DNS zone, the report kept, and `email_auth.changed` emitted once per change, in the
 * recorder's transaction, never for a run whose DNS failed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { NotifyEvent } from '../../../src/modules/notify/contract.ts'
import { runMonitor } from '../../../src/modules/monitors/run/index.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { schedulerFor } from '../monitors/scheduling.ts'
import { dkimRecord, emailAuthZone, startZoneServer, type ZoneServer } from './zone.ts'

let ctx: TestContext
let key: string
let otherKey: string
let server: ZoneServer
const zone = emailAuthZone({ k2048: dkimRecord(2048), k1024: dkimRecord(1024), k512: dkimRecord(512) })
const events: NotifyEvent[] = []

beforeAll(async () => {
  server = await startZoneServer(zone)
  ctx = await createTestContext()
  ;({ key } = await ctx.createOwner('pro'))
  ;({ key: otherKey } = await ctx.createOwner('pro'))
  // A fan-out that records what the notifier hands out (the channels' fan-out sits here in production).
  // The report's own events; the monitor's state changes (monitor.*) are the alerts' tests' business.
  ctx.app.services.notifier.use(async (_db, group) => {
    events.push(...group.filter((e) => !e.kind.startsWith('monitor.')))
  })
})
afterAll(async () => {
  await ctx.close()
  await server.close()
})

const create = (body: Record<string, unknown>, as = key) => ctx.request('/user/api/v1/monitors', { method: 'POST', key: as, json: body })

/** Runs every due monitor once with the real engine, asking the test zone. */
async function runDue(): Promise<void> {
  const deps = { ...ctx.app.services.checkDeps, dnsServers: [server.address] }
  const scheduler = schedulerFor(ctx, { run: (spec, policy, sleep) => runMonitor(spec, deps, policy, sleep) })
  await scheduler.tick()
  await scheduler.settle()
}

describe('email_auth monitors', () => {
  test('validation: a domain and selectors, field-named 400s', async () => {
    const bad = await create({ name: 'Mail', type: 'email_auth', target: 'not a domain' })
    expect(bad.status).toBe(400)
    expect((await json(bad)).error).toStartWith('target:')
    const badSelector = await create({ name: 'Mail', type: 'email_auth', target: 'good.test', dkim_selectors: ['ok', 'no spaces'] })
    expect(badSelector.status).toBe(400)
    expect((await json(badSelector)).error).toStartWith('dkim_selectors:')
  })

  test('runs, keeps the report, and emits email_auth.changed once per change', async () => {
    zone['watch.test'] = zone['good.test']!.filter((a) => a.type === 'TXT')
    zone['_dmarc.watch.test'] = [{ type: 'TXT', data: ['v=DMARC1; p=reject; rua=mailto:d@watch.test'] }]
    zone['s2048._domainkey.watch.test'] = zone['s2048._domainkey.good.test']!
    const created = await create({ name: 'Mail auth', type: 'email_auth', target: 'watch.test', dkim_selectors: ['s2048'] })
    expect(created.status).toBe(201)
    const monitor = (await json(created)).data
    expect(monitor).toMatchObject({ type: 'email_auth', interval_seconds: 21_600, retries: 0, options: { dkim_selectors: ['s2048'] } })
    const reportPath = `/user/api/v1/monitors/${monitor.id}/email-auth`
    expect((await json(await ctx.request(reportPath, { key }))).data).toBeNull()

    ctx.clock.advance(21_600_000)
    await runDue()
    const first = (await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}`, { key }))).data
    expect(first).toMatchObject({ last_outcome: 'ok', last_message: 'SPF pass · DKIM pass · DMARC pass' })
    const report = (await json(await ctx.request(reportPath, { key }))).data
    expect(report).toMatchObject({ summary: 'SPF pass, DKIM pass, DMARC pass', report: { domain: 'watch.test', dkim: { selectors: [{ selector: 's2048', bits: 2048, key_type: 'rsa' }] } } })
    expect(events).toHaveLength(0)

    // The owner loosens DMARC to p=none: one notice with before and after.
    zone['_dmarc.watch.test'] = [{ type: 'TXT', data: ['v=DMARC1; p=none; rua=mailto:d@watch.test'] }]
    ctx.clock.advance(21_600_000)
    await runDue()
    expect(events).toEqual([
      { kind: 'email_auth.changed', pageId: null, ownerId: expect.any(Number), monitorId: monitor.id, domain: 'watch.test', summary: 'SPF pass, DKIM pass, DMARC pass → SPF pass, DKIM pass, DMARC warning', at: ctx.clock.now() },
    ])
    const second = (await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}`, { key }))).data
    expect(second.last_outcome).toBe('degraded')

    // Same again: no notice. The DNS failing after its retries: no notice, the report stays.
    ctx.clock.advance(21_600_000)
    await runDue()
    server.servfail('watch.test', 3)
    ctx.clock.advance(21_600_000)
    await runDue()
    expect(events).toHaveLength(1)
    const afterError = (await json(await ctx.request(reportPath, { key }))).data
    expect(afterError.summary).toBe('SPF pass, DKIM pass, DMARC warning')
    const third = (await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}`, { key }))).data
    expect(third.last_message).toContain('SPF error')
  })

  test("another owner's monitor is a 404; a monitor of another type too", async () => {
    const list = (await json(await ctx.request('/user/api/v1/monitors', { key }))).data as Array<{ id: number; type: string }>
    const mine = list.find((m) => m.type === 'email_auth')!
    expect((await ctx.request(`/user/api/v1/monitors/${mine.id}/email-auth`, { key: otherKey })).status).toBe(404)
    const tcp = (await json(await create({ name: 'Port', type: 'tcp', target: 'example.com:25' }))).data
    expect((await ctx.request(`/user/api/v1/monitors/${tcp.id}/email-auth`, { key })).status).toBe(404)
  })
})
