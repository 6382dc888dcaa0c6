/**
 * SSL and DNSBL events: certificate.expiring once per threshold (30, 15, 5) per certificate,
 * certificate.renewed when a later certificate appears, dnsbl.listed / dnsbl.delisted on changes only.
 * Real checks against local servers, the real recorder over real SQLite, time moved by a ManualClock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DAY_MS } from '../../../src/lib/time.ts'
import { runCheck } from '../../../src/modules/monitors/kinds/index.ts'
import { definitionOf } from '../../../src/modules/monitors/service.ts'
import { toSpec } from '../../../src/modules/monitors/definition.ts'
import { dnsblEvents, NOTHING_ANNOUNCED, sslEvents } from '../../../src/modules/monitors/tool-events.ts'
import type { SslReport } from '../../../src/modules/monitors/kinds/spec.ts'
import type { NotifyEvent } from '../../../src/modules/notify/contract.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startDnsServer, testDeps, type DnsAnswer, type TestDnsServer } from './fixtures.ts'
import { makeChainPki, startTlsServer, type ChainPki, type Listening } from './tool-fixtures.ts'

const HOST = 'ssl.test'
let ctx: TestContext
let key: string
let pki: ChainPki
let current: Listening
let renewed: Listening
let dns: TestDnsServer
const zone: Record<string, DnsAnswer[]> = {}
const events: NotifyEvent[] = []

beforeAll(async () => {
  pki = makeChainPki(HOST)
  current = await startTlsServer(pki.valid.cert + pki.intermediate, pki.valid.key)
  renewed = await startTlsServer(pki.renewed.cert + pki.intermediate, pki.renewed.key)
  dns = await startDnsServer(zone)
  ctx = await createTestContext({ now: pki.valid.notAfter - 31.5 * DAY_MS })
  ;({ key } = await ctx.createOwner('pro'))
  // The reports' own events; the monitor's state changes (monitor.*) are the alerts' tests' business.
  ctx.app.services.notifier.use(async (_db, group) => void events.push(...group.filter((e) => !e.kind.startsWith('monitor.'))))
})
afterAll(async () => {
  await Promise.all([current.close(), renewed.close(), dns.close()])
  await ctx.close()
})

async function createMonitor(body: Record<string, unknown>): Promise<number> {
  const response = await ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { retries: 0, ...body } })
  if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`)
  return (await json(response)).data.id
}

/** One real run of the monitor as stored, recorded by the real recorder; the events it caused. */
async function runOnce(id: number, port?: number): Promise<NotifyEvent[]> {
  const services = ctx.app.services
  const row = (await services.monitorsRepo.find(id))!
  const spec = toSpec(definitionOf(row))!
  const runnable = port !== undefined && spec.type === 'ssl' ? { ...spec, port } : spec
  const deps = testDeps({ allowPrivate: ['127.0.0.1/32'], names: { [HOST]: ['127.0.0.1'] }, clock: ctx.clock, trustedCa: pki.root, dnsServers: [dns.address] })
  const result = await runCheck(runnable, deps)
  const before = events.length
  await services.monitorRecorder.record([{ kind: 'run', monitorId: id, scheduledAt: Math.max(row.next_run_at, ctx.clock.now()), result: { ...result, attempts: 1 } }])
  return events.slice(before)
}

describe('certificate events through the recorder', () => {
  test('30, 15 and 5 days: one certificate.expiring each; a renewal: one certificate.renewed', async () => {
    const id = await createMonitor({ name: 'cert', type: 'ssl', target: `${HOST}:${current.port}` })
    const [ownerId] = [(await ctx.app.services.monitorsRepo.find(id))!.owner_id]
    expect(await runOnce(id)).toEqual([])
    ctx.clock.advance(2 * DAY_MS) // 29 days left
    const first = await runOnce(id)
    expect(first).toEqual([
      { kind: 'certificate.expiring', pageId: null, ownerId, monitorId: id, host: HOST, daysLeft: 29, notAfter: pki.valid.notAfter, at: ctx.clock.now() },
    ])
    ctx.clock.advance(DAY_MS / 2)
    expect(await runOnce(id)).toEqual([])
    ctx.clock.advance(14.5 * DAY_MS) // 14.5 days left
    expect((await runOnce(id)).map((e) => [e.kind, (e as { daysLeft: number }).daysLeft])).toEqual([['certificate.expiring', 14]])
    expect(await runOnce(id)).toEqual([])
    ctx.clock.advance(10 * DAY_MS) // 4 days left
    expect((await runOnce(id)).map((e) => [e.kind, (e as { daysLeft: number }).daysLeft])).toEqual([['certificate.expiring', 4]])
    ctx.clock.advance(DAY_MS)
    expect(await runOnce(id)).toEqual([])

    // The server now presents the renewed certificate.
    const renewal = await runOnce(id, renewed.port)
    expect(renewal).toEqual([
      { kind: 'certificate.renewed', pageId: null, ownerId, monitorId: id, host: HOST, daysLeft: expect.any(Number), notAfter: pki.renewed.notAfter, at: ctx.clock.now() },
    ])
    expect(await runOnce(id, renewed.port)).toEqual([])

    // The report is kept, and the API shows it (chain and OCSP for the paid owner).
    const report = await json(await ctx.request(`/user/api/v1/monitors/${id}/report`, { key }))
    expect(report.data).toMatchObject({ checked_at: new Date(ctx.clock.now()).toISOString(), report: { kind: 'ssl', verdict: 'pass', chain: { complete: true }, ocsp: { status: 'unavailable' } } })
  })

  test('first seen with 10 days left: one event (not three), and 15 and 30 count as announced', () => {
    const report = { fingerprint256: 'A', validTo: new Date(100 * DAY_MS).toISOString(), daysLeft: 10, host: 'x' } as SslReport
    const monitor = { monitorId: 1, ownerId: 1, pageId: null, target: 'x' }
    const first = sslEvents(NOTHING_ANNOUNCED, report, monitor, 0)
    expect(first.events.map((e) => e.kind)).toEqual(['certificate.expiring'])
    expect(first.state.expiryNotified).toEqual([30, 15])
    // Another certificate expiring no later (a second server behind the name): no renewal, no new countdown.
    const older = sslEvents(first.state, { ...report, fingerprint256: 'B', validTo: new Date(90 * DAY_MS).toISOString(), daysLeft: 3 }, monitor, 0)
    expect(older.events).toEqual([])
    const back = sslEvents(older.state, report, monitor, 0)
    expect(back.events).toEqual([])
  })
})

describe('DNSBL events through the recorder', () => {
  test('listed once, nothing while listed or on a zone error, delisted once', async () => {
    const id = await createMonitor({ name: 'bl', type: 'dnsbl', target: '192.0.2.99', zones: ['bl.test'], interval_seconds: 3600 })
    const name = '99.2.0.192.bl.test'
    expect(await runOnce(id)).toEqual([])
    zone[name] = [{ type: 'A', address: '127.0.0.2' }]
    const listed = await runOnce(id)
    expect(listed.map((e) => ({ kind: e.kind, zone: (e as { zone: string }).zone, target: (e as { target: string }).target }))).toEqual([{ kind: 'dnsbl.listed', zone: 'bl.test', target: '192.0.2.99' }])
    expect(await runOnce(id)).toEqual([])
    zone[name] = [{ type: 'A', address: '127.255.255.254' }]
    expect(await runOnce(id)).toEqual([])
    delete zone[name]
    expect((await runOnce(id)).map((e) => e.kind)).toEqual(['dnsbl.delisted'])
    expect(await runOnce(id)).toEqual([])
  })

  test('an error answer never counts as listed, first run included', () => {
    const report = { kind: 'dnsbl' as const, verdict: 'warning' as const, reasons: [], target: 't', addresses: [], results: [{ address: '192.0.2.1', zone: 'z', status: 'error' as const, codes: [], error: 'x' }] }
    expect(dnsblEvents(NOTHING_ANNOUNCED, report, { monitorId: 1, ownerId: 1, pageId: null, target: 't' }, 0).events).toEqual([])
  })
})
