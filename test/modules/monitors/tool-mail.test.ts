/**
 * Issue 16 end to end over the wire: an SSL monitor against a local TLS server whose certificate
 * has 29 days left, and a DNSBL monitor whose address a local DNS zone lists, both run by the real
 * scheduler and recorder; the owner's verified email channel gets the mail through real SMTP.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { formatDateTime } from '../../../src/lib/human-time.ts'
import { DAY_MS } from '../../../src/lib/time.ts'
import { MonitorScheduler } from '../../../src/modules/monitors/run/scheduler.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { startDnsServer, testDeps, type DnsAnswer, type TestDnsServer } from './fixtures.ts'
import { makeChainPki, startTlsServer, type ChainPki, type Listening } from './tool-fixtures.ts'

const HOST = 'expiring.test'
const ADDRESS = 'alerts@ops.example'
let smtp: SmtpHarness
let ctx: TestContext
let key: string
let pki: ChainPki
let tls: Listening
let dns: TestDnsServer
const zone: Record<string, DnsAnswer[]> = {}

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
const drain = () => ctx.app.services.outboxWorker.drain()

beforeAll(async () => {
  smtp = await startSmtp()
  pki = makeChainPki(HOST)
  tls = await startTlsServer(pki.valid.cert + pki.intermediate, pki.valid.key)
  dns = await startDnsServer(zone)
  // 29.5 days before the certificate ends: the first run sees 29 days left.
  ctx = await createTestContext({ env: { ...smtp.env }, now: pki.valid.notAfter - 29.5 * DAY_MS })
  ;({ key } = await ctx.createOwner('pro'))
})
afterAll(async () => {
  await ctx.close()
  await Promise.all([tls.close(), dns.close(), smtp.close()])
})

/** An email channel hearing the tool events, verified through the link of its mail. */
async function verifiedEmailChannel(): Promise<void> {
  const created = await api('/notification-channels', {
    method: 'POST',
    json: { type: 'email', name: 'Certificates', address: ADDRESS, events: ['certificate.expiring', 'dnsbl.listed'] },
  })
  expect(created.status).toBe(201)
  await drain()
  const mail = await smtp.waitFor((m) => m.to === ADDRESS && m.subject.startsWith('Confirm your address'))
  const link = /https:\/\/lantern\.test\/user\/notifications\/verify\?token=[^\s"<]+/.exec(mail.text)![0]
  const confirmed = await ctx.request('/user/notifications/verify', {
    method: 'POST',
    headers: { origin: 'https://lantern.test', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: new URL(link).searchParams.get('token')! }).toString(),
  })
  expect(confirmed.status).toBe(200)
  expect((await json(created)).data.id).toBeGreaterThan(0)
}

async function createMonitor(body: Record<string, unknown>): Promise<number> {
  const response = await api('/monitors', { method: 'POST', json: { retries: 0, ...body } })
  if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`)
  return (await json(response)).data.id
}

/** One turn of the real scheduler with the clock at the monitors' next run: runs, then writes them. */
async function runScheduler(): Promise<void> {
  const services = ctx.app.services
  const rows = await ctx.database.db.selectFrom('monitors').select('next_run_at').execute()
  const due = Math.max(ctx.clock.now(), ...rows.map((row) => row.next_run_at))
  ctx.clock.set(due)
  const checkDeps = testDeps({ allowPrivate: ['127.0.0.1/32'], names: { [HOST]: ['127.0.0.1'] }, clock: ctx.clock, trustedCa: pki.root, dnsServers: [dns.address] })
  const scheduler = new MonitorScheduler({ repo: services.monitorsRepo, recorder: services.monitorRecorder, clock: ctx.clock, checkDeps, flushEveryMs: 0 })
  await scheduler.tick()
  await scheduler.settle()
}

describe('tool monitor mails over SMTP', () => {
  test('a certificate with 29 days left and a listed address: one mail each to the verified channel', async () => {
    await verifiedEmailChannel()
    const sslId = await createMonitor({ name: 'cert', type: 'ssl', target: `${HOST}:${tls.port}` })
    const blId = await createMonitor({ name: 'bl', type: 'dnsbl', target: '192.0.2.77', zones: ['bl.test'], interval_seconds: 3600 })
    zone['77.2.0.192.bl.test'] = [{ type: 'A', address: '127.0.0.2' }]

    await runScheduler()
    const checked = await ctx.database.db.selectFrom('monitors').select(['id', 'last_check_at']).where('id', 'in', [sslId, blId]).execute()
    expect(checked.every((row) => row.last_check_at !== null)).toBe(true)
    await drain()

    const expiring = await smtp.waitFor((m) => m.to === ADDRESS && m.subject.includes(HOST))
    expect(expiring.subject).toBe(`[Lantern] Certificate of ${HOST} expires in 29 days`)
    expect(expiring.text).toContain(`Valid until ${formatDateTime(pki.valid.notAfter)}`)
    const listed = await smtp.waitFor((m) => m.to === ADDRESS && m.subject.includes('bl.test'))
    expect(listed.subject).toBe('[Lantern] 192.0.2.77 is listed on bl.test')

    // Announced once: another run the next hour sends nothing more.
    ctx.clock.advance(3_600_000)
    await runScheduler()
    await drain()
    expect(smtp.mails.filter((m) => m.to === ADDRESS && !m.subject.startsWith('Confirm'))).toHaveLength(2)
  })
})
