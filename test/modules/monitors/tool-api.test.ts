/**
 * The monitors API with the ssl and dnsbl types: creation with their defaults, 400s that name the
 * field and store nothing, the report endpoint (chain and OCSP hidden on the free plan) and the
 * OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DAY_MS } from '../../../src/lib/time.ts'
import { definitionOf } from '../../../src/modules/monitors/service.ts'
import { toSpec } from '../../../src/modules/monitors/definition.ts'
import { runCheck } from '../../../src/modules/monitors/kinds/index.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { testDeps } from './fixtures.ts'
import { makeChainPki, startTlsServer, type ChainPki, type Listening } from './tool-fixtures.ts'

const HOST = 'api-ssl.test'
let ctx: TestContext
let pki: ChainPki
let server: Listening
let free: string
let paid: string

beforeAll(async () => {
  pki = makeChainPki(HOST)
  server = await startTlsServer(pki.valid.cert + pki.intermediate, pki.valid.key)
  ctx = await createTestContext({ now: pki.valid.notAfter - 20 * DAY_MS })
  ;({ key: free } = await ctx.createOwner('free'))
  ;({ key: paid } = await ctx.createOwner('pro'))
})
afterAll(async () => {
  await server.close()
  await ctx.close()
})

const create = (key: string, body: Record<string, unknown>) => ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: body })
const count = async (key: string) => (await json(await ctx.request('/user/api/v1/monitors', { key }))).meta.count as number

describe('creating ssl and dnsbl monitors', () => {
  test('ssl: defaults to every 6 hours and port 443; SMTP ports keep their port', async () => {
    const response = await create(free, { name: 'site cert', type: 'ssl', target: 'example.com' })
    expect(response.status).toBe(201)
    expect((await json(response)).data).toMatchObject({ type: 'ssl', target: 'example.com', interval_seconds: 21_600 })
    const smtp = await json(await create(paid, { name: 'mx cert', type: 'ssl', target: 'mx.example.com:587' }))
    const row = (await ctx.app.services.monitorsRepo.find(smtp.data.id))!
    expect(toSpec(definitionOf(row))).toMatchObject({ type: 'ssl', host: 'mx.example.com', port: 587 })
  })

  test('dnsbl: hourly by default, zones kept', async () => {
    const response = await create(paid, { name: 'ip', type: 'dnsbl', target: '192.0.2.1', zones: ['bl.example.org'] })
    expect(response.status).toBe(201)
    expect((await json(response)).data).toMatchObject({ type: 'dnsbl', interval_seconds: 3_600, options: { zones: ['bl.example.org'] } })
  })

  test('bad input is a 400 naming the field, and nothing is stored', async () => {
    const before = await count(paid)
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'dnsbl', target: '192.0.2.1', interval_seconds: 600 }, 'interval_seconds: a dnsbl monitor runs at most hourly'],
      [{ type: 'dnsbl', target: 'not a name' }, 'target: must be an IP address or a domain name'],
      [{ type: 'dnsbl', target: '192.0.2.1', zones: ['dnsbl.sorbs.net'] }, 'zones: dnsbl.sorbs.net is decommissioned'],
      [{ type: 'dnsbl', target: '192.0.2.1', zones: ['bad zone!'] }, 'zones: "bad zone!" is not a zone name'],
      [{ type: 'dnsbl', target: '192.0.2.1', zones: 'bl.example.org' }, 'zones must be a list'],
      [{ type: 'ssl', target: 'example.com', starttls: 'yes' }, 'starttls must be true or false'],
      [{ type: 'ssl', target: '169.254.169.254' }, 'target: 169.254.169.254 is a cloud metadata address'],
      [{ type: 'ssl', target: 'example.com', tls_fail_below_days: 20, tls_degraded_below_days: 10 }, 'tls_fail_below_days: must not be above the warning threshold'],
    ]
    for (const [body, message] of cases) {
      const response = await create(paid, { name: 'x', ...body })
      expect({ body, status: response.status }).toEqual({ body, status: 400 })
      expect((await json(response)).error).toContain(message)
    }
    expect(await count(paid)).toBe(before)
  })
})

describe('the report endpoint', () => {
  async function checkedMonitor(key: string): Promise<number> {
    const id = (await json(await create(key, { name: 'cert', type: 'ssl', target: `${HOST}:${server.port}` }))).data.id
    const row = (await ctx.app.services.monitorsRepo.find(id))!
    const deps = testDeps({ allowPrivate: ['127.0.0.1/32'], names: { [HOST]: ['127.0.0.1'] }, clock: ctx.clock, trustedCa: pki.root })
    const result = await runCheck(toSpec(definitionOf(row))!, deps)
    await ctx.app.services.monitorRecorder.record([{ kind: 'run', monitorId: id, scheduledAt: row.next_run_at, result: { ...result, attempts: 1 } }])
    return id
  }

  test('null before the first run; a paid owner sees the chain and the OCSP note; a free owner does not', async () => {
    const fresh = (await json(await create(paid, { name: 'later', type: 'ssl', target: 'example.net' }))).data.id
    expect(await json(await ctx.request(`/user/api/v1/monitors/${fresh}/report`, { key: paid }))).toEqual({ data: null })

    const paidId = await checkedMonitor(paid)
    const paidReport = (await json(await ctx.request(`/user/api/v1/monitors/${paidId}/report`, { key: paid }))).data.report
    expect(paidReport).toMatchObject({ kind: 'ssl', verdict: 'pass', days_left: 20, host_covered: true, key_type: 'ec', chain: { complete: true }, ocsp: { status: 'unavailable' } })
    expect(paidReport.chain.certificates.map((c: { subject: string }) => c.subject)).toEqual([HOST, 'Lantern Test Intermediate', 'Lantern Test Root'])

    const freeId = await checkedMonitor(free)
    const freeReport = (await json(await ctx.request(`/user/api/v1/monitors/${freeId}/report`, { key: free }))).data.report
    expect(freeReport).toMatchObject({ kind: 'ssl', verdict: 'pass', days_left: 20, chain: null, ocsp: null })
  })

  test("another owner's monitor is a 404; a bad id a 400", async () => {
    const id = await checkedMonitor(paid)
    expect((await ctx.request(`/user/api/v1/monitors/${id}/report`, { key: free })).status).toBe(404)
    expect((await ctx.request('/user/api/v1/monitors/abc/report', { key: free })).status).toBe(400)
  })

  test('the OpenAPI document lists the route, the report model and the new types', async () => {
    const doc = await json(await ctx.request('/swagger/json'))
    expect(doc.paths['/user/api/v1/monitors/{id}/report']?.get).toBeDefined()
    expect(doc.components.schemas.MonitorToolReport).toBeDefined()
    const body = doc.paths['/user/api/v1/monitors'].post.requestBody.content['application/json'].schema
    expect(JSON.stringify(body)).toContain('"dnsbl"')
    expect(JSON.stringify(body)).toContain('starttls')
  })
})
