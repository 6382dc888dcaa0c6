/**
 * The probe API over the real app: probe-token auth (missing, wrong, revoked → 401), the token and
 * owner credentials never standing in for each other, definitions with ETag, results per item
 * (unassigned monitors rejected and not recorded), batch limits and malformed bodies (400), and the
 * monitors API's `regions` / `regions_required_down` (unknown region and k > n → 400).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { SESSION_COOKIE } from '../../../src/modules/accounts/auth.ts'

let ctx: TestContext
let key: string
let euToken: string
let usToken: string
let componentId: number

beforeAll(async () => {
  ctx = await createTestContext()
  ;({ key } = await ctx.createOwner('pro'))
  const page = await ctx.createPage(key, { slug: 'probe-api', name: 'Probe API' })
  componentId = (await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name: 'Site' } }))).data.id
  euToken = (await ctx.app.services.probes.createToken('eu')).token
  usToken = (await ctx.app.services.probes.createToken('us-east')).token
})
afterAll(() => ctx.close())

const createMonitor = (body: Record<string, unknown>) => ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: body })
const probeGet = (token: string | undefined, headers: Record<string, string> = {}) =>
  ctx.request('/api/v1/probe/monitors', { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } })
const probePost = (token: string, body: unknown) =>
  ctx.request('/api/v1/probe/results', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) })
const result = (monitorId: number, at: number, outcome = 'fail') => ({
  monitor_id: monitorId,
  scheduled_at: new Date(at).toISOString(),
  result: { outcome, response_ms: outcome === 'fail' ? null : 42, status_code: outcome === 'fail' ? null : 200, attempts: 1, message: outcome === 'fail' ? 'connection refused' : 'HTTP 200' },
})

describe('monitor regions in the management API', () => {
  test('default ["local"] and k = 1; set, read back and validate', async () => {
    const plain = (await json(await createMonitor({ name: 'Plain', type: 'http', target: 'https://example.com/' }))).data
    expect(plain.regions).toEqual(['local'])
    expect(plain.regions_required_down).toBe(1)

    const multi = await createMonitor({ name: 'Multi', type: 'http', target: 'https://example.com/m', regions: ['local', 'eu'], regions_required_down: 2 })
    expect(multi.status).toBe(201)
    expect((await json(multi)).data).toMatchObject({ regions: ['local', 'eu'], regions_required_down: 2 })

    const unknown = await createMonitor({ name: 'X', type: 'http', target: 'https://example.com/x', regions: ['local', 'mars'] })
    expect(unknown.status).toBe(400)
    expect((await json(unknown)).error).toContain('unknown region "mars"')

    const tooMany = await createMonitor({ name: 'X', type: 'http', target: 'https://example.com/x', regions: ['local', 'eu'], regions_required_down: 3 })
    expect(tooMany.status).toBe(400)
    expect((await json(tooMany)).error).toContain('regions_required_down 3 is more than the 2 regions')

    const badName = await createMonitor({ name: 'X', type: 'http', target: 'https://example.com/x', regions: ['EU West'] })
    expect(badName.status).toBe(400)
    const empty = await createMonitor({ name: 'X', type: 'http', target: 'https://example.com/x', regions: [] })
    expect(empty.status).toBe(400)
    const ssl = await createMonitor({ name: 'X', type: 'ssl', target: 'example.com', regions: ['eu'] })
    expect(ssl.status).toBe(400)
    expect((await json(ssl)).error).toContain('run on the server only')

    // k > n on a change, too; nothing changed.
    const patched = await ctx.request(`/user/api/v1/monitors/${plain.id}`, { method: 'PATCH', key, json: { regions_required_down: 2 } })
    expect(patched.status).toBe(400)
    expect((await json(await ctx.request(`/user/api/v1/monitors/${plain.id}`, { key }))).data.regions_required_down).toBe(1)
  })

  test('the OpenAPI document has the fields and the probe routes', async () => {
    const doc = await json(await ctx.request('/swagger/json'))
    expect(doc.components.schemas.Monitor.properties.regions).toBeDefined()
    expect(doc.paths['/api/v1/probe/monitors'].get.tags).toEqual(['Probes'])
    expect(doc.paths['/api/v1/probe/results'].post.requestBody).toBeDefined()
    expect(doc.components.securitySchemes.probeToken.scheme).toBe('bearer')
  })
})

describe('probe token auth', () => {
  test('missing, malformed, wrong and revoked tokens answer 401', async () => {
    expect((await probeGet(undefined)).status).toBe(401)
    expect((await probeGet('nonsense')).status).toBe(401)
    // Right shape, right public id, wrong secret.
    const wrong = euToken.slice(0, -4) + (euToken.endsWith('AAAA') ? 'BBBB' : 'AAAA')
    expect((await probeGet(wrong)).status).toBe(401)
    expect((await probeGet(euToken)).status).toBe(200)

    const extra = await ctx.app.services.probes.createToken('ap-south')
    expect((await probeGet(extra.token)).status).toBe(200)
    await ctx.app.services.probes.revokeToken(extra.info.id)
    expect((await probeGet(extra.token)).status).toBe(401)
    expect((await probePost(extra.token, { results: [] })).status).toBe(401)
    // A region whose only token is revoked is no longer offered to monitors.
    expect(await ctx.app.services.monitors.availableRegions()).toEqual(['local', 'eu', 'us-east'])
  })

  test("an owner's API key or session cannot call probe routes; a probe token cannot call owner routes", async () => {
    expect((await probeGet(key)).status).toBe(401)
    const session = await ctx.request('/api/v1/probe/monitors', { headers: { cookie: `${SESSION_COOKIE}=whatever` } })
    expect(session.status).toBe(401)
    expect((await ctx.request('/user/api/v1/monitors', { key: euToken })).status).toBe(401)
    expect((await ctx.request('/user/api/v1/status-pages', { key: euToken })).status).toBe(401)
  })
})

describe('definitions', () => {
  test("only the region's enabled monitors, what the engine needs and no owner data; ETag → 304", async () => {
    const eu = (await json(await createMonitor({ name: 'EU only', type: 'tcp', target: 'example.com:443', regions: ['eu'], retries: 1 }))).data
    const paused = (await json(await createMonitor({ name: 'Paused', type: 'http', target: 'https://example.com/p', regions: ['local', 'eu'], enabled: false }))).data
    const response = await probeGet(euToken)
    expect(response.status).toBe(200)
    const etag = response.headers.get('etag')!
    const body = await json(response)
    expect(body.meta.region).toBe('eu')
    const ids = body.data.map((m: { id: number }) => m.id)
    expect(ids).toContain(eu.id)
    expect(ids).not.toContain(paused.id)
    const mine = body.data.find((m: { id: number }) => m.id === eu.id)
    expect(mine).toEqual({ id: eu.id, spec: expect.objectContaining({ type: 'tcp', host: 'example.com', port: 443 }), interval_seconds: 60, retries: 1, retry_interval_ms: 2000, phase_ms: expect.any(Number) })
    expect(JSON.stringify(body)).not.toMatch(/owner|page|component|name/)

    const again = await probeGet(euToken, { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    // Another region sees none of them.
    expect((await json(await probeGet(usToken))).data.map((m: { id: number }) => m.id)).not.toContain(eu.id)
    // A change changes the ETag.
    await ctx.request(`/user/api/v1/monitors/${eu.id}`, { method: 'PATCH', key, json: { retries: 2 } })
    expect((await probeGet(euToken, { 'if-none-match': etag })).status).toBe(200)
  })
})

describe('results', () => {
  test('recorded per region; the k-of-n aggregate decides; an unassigned monitor is rejected per item and not recorded', async () => {
    const monitor = (await json(await createMonitor({ name: 'K of N', type: 'http', target: 'https://example.com/k', regions: ['local', 'eu'], regions_required_down: 2, confirm_failures: 1, component_id: componentId }))).data
    const local = (await json(await createMonitor({ name: 'Local only', type: 'http', target: 'https://example.com/l' }))).data
    const now = ctx.clock.now()
    const answer = await probePost(euToken, { results: [result(monitor.id, now - 1000), result(local.id, now - 1000), result(999_999, now - 1000)] })
    expect(answer.status).toBe(200)
    const body = (await json(answer)).data
    expect(body.accepted).toBe(1)
    expect(body.rejected).toEqual([
      { index: 1, monitor_id: local.id, error: `monitor ${local.id} is not assigned to region eu` },
      { index: 2, monitor_id: 999_999, error: 'monitor 999999 is not assigned to region eu' },
    ])
    // Nothing recorded for the local-only monitor.
    expect((await json(await ctx.request(`/user/api/v1/monitors/${local.id}/results`, { key }))).data).toEqual([])

    // eu down alone: one of the two regions reports, and it cannot confirm an outage alone.
    const regions = await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}/regions`, { key }))
    expect(regions.data.map((r: { region: string; state: string }) => [r.region, r.state])).toEqual([['local', 'pending'], ['eu', 'down']])
    expect(regions.meta).toEqual({ regions_required_down: 2, state: 'degraded' })
    const results = (await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}/results`, { key }))).data
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({ region: 'eu', outcome: 'fail', message: 'connection refused' })

    // The local region up: 1 of 2 down → up.
    const dueAt = Date.parse(monitor.next_run_at)
    await ctx.app.services.monitorRecorder.record([{ kind: 'run', monitorId: monitor.id, scheduledAt: dueAt, result: { outcome: 'ok', responseTimeMs: 10, message: 'HTTP 200', attempts: 1 } }])
    expect((await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}`, { key }))).data.state).toBe('up')
    // The same batch again is recorded once (a probe's retry after a lost answer).
    await probePost(euToken, { results: [result(monitor.id, now - 1000)] })
    expect((await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}/results`, { key }))).data.filter((r: { region: string }) => r.region === 'eu')).toHaveLength(1)

    // Paused and resumed: every region starts over, like the monitor.
    await ctx.request(`/user/api/v1/monitors/${monitor.id}/pause`, { method: 'POST', key })
    await ctx.request(`/user/api/v1/monitors/${monitor.id}/resume`, { method: 'POST', key })
    const resumed = await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}/regions`, { key }))
    expect(resumed.data.map((r: { state: string }) => r.state)).toEqual(['pending', 'pending'])
    // Fewer regions than k is refused; dropping a region forgets its state.
    const shrink = await ctx.request(`/user/api/v1/monitors/${monitor.id}`, { method: 'PATCH', key, json: { regions: ['eu'] } })
    expect(shrink.status).toBe(400)
    expect((await json(shrink)).error).toContain('regions_required_down 2 is more than the 1 region listed')
  })

  test('batch limits and malformed bodies: 400, nothing recorded', async () => {
    const monitor = (await json(await createMonitor({ name: 'Limits', type: 'http', target: 'https://example.com/b', regions: ['eu'] }))).data
    const now = ctx.clock.now()
    const tooMany = await probePost(euToken, { results: Array.from({ length: 501 }, (_, i) => result(monitor.id, now - 600_000 + i)) })
    expect(tooMany.status).toBe(400)
    expect((await json(tooMany)).error).toContain('at most 500')
    for (const bad of [
      'not json',
      {},
      { results: 'x' },
      { results: [{ monitor_id: monitor.id }] },
      { results: [{ ...result(monitor.id, now), scheduled_at: 'yesterday' }] },
      { results: [{ ...result(monitor.id, now), result: { outcome: 'maybe', response_ms: null, message: '' } }] },
      { results: [{ ...result(monitor.id, now), result: { outcome: 'ok', response_ms: null, message: 'x'.repeat(513) } }] },
    ]) {
      const response = await probePost(euToken, bad)
      expect(response.status).toBe(400)
      expect(typeof (await json(response)).error).toBe('string')
    }
    // Too far ahead or too old: rejected per item.
    const odd = (await json(await probePost(euToken, { results: [result(monitor.id, now + 3_600_000), result(monitor.id, now - 2 * 86_400_000)] }))).data
    expect(odd.accepted).toBe(0)
    expect(odd.rejected.map((r: { error: string }) => r.error)).toEqual(["scheduled_at is in the future: check the probe's clock", 'scheduled_at is older than the 24 hours results are kept'])
    expect((await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}/results`, { key }))).data).toEqual([])
    // 500 is fine.
    const full = await probePost(euToken, { results: Array.from({ length: 500 }, (_, i) => result(monitor.id, now - 600_000 + i * 1000, 'ok')) })
    expect(full.status).toBe(200)
    expect((await json(full)).data.accepted).toBe(500)
  })
})
