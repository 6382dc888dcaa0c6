/**
 * A misconfigured monitor never becomes a public outage, through the real server: a monitor on
 * `http://localhost:PORT/` saved while the instance allowed private targets, then every run refused
 * once MONITOR_PRIVATE_TARGETS is off (as after a restart without it). Nothing public changes (page,
 * badges, status JSON, v2 JSON, uptime), no incident opens, no delivery is queued, and the owner's
 * API says misconfigured with the reason and the fix. Turned back on, the next run leaves the state;
 * and the same set-up does go down, open an incident and queue deliveries for a real outage (so the
 * "nothing changed" checks could fail).
 *
 * Also: the save-time resolution of host names (injected resolver), through the API.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { listenTestContext, type ListeningContext } from '../../helpers/listening.ts'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { schedulerFor } from './scheduling.ts'
import { switchablePrivateTargets, testDeps } from './fixtures.ts'

const NOW = Date.UTC(2026, 10, 24, 9, 0, 0)

describe('a misconfigured monitor end to end', () => {
  let server: ListeningContext
  let target: ReturnType<typeof Bun.serve>
  let hub: ChatHub
  let answer = 200
  const deps = switchablePrivateTargets(true)
  let key: string
  let slug: string
  let pageId: number
  let componentId: number
  let monitorId: number
  let scheduler: ReturnType<typeof schedulerFor>

  const api = (path: string, init: RequestInit & { json?: unknown } = {}) => server.ctx.request(`/user/api/v1${path}`, { key, ...init })
  const run = async (times = 1) => {
    for (let i = 0; i < times; i++) {
      server.ctx.clock.advance(60_000)
      await scheduler.tick()
      await scheduler.settle()
    }
  }
  /** What is queued for delivery: outbox rows (channels, mail) and subscriber fan-outs (expanded later by the worker). */
  const queued = async () => {
    const db = server.ctx.database.db
    const outbox = (await db.selectFrom('outbox').select(['target']).execute()).map((row) => row.target)
    const fanouts = (await db.selectFrom('subscriber_fanouts').select(['event_kind']).execute()).map((row) => `subscribers:${row.event_kind}`)
    return [...outbox, ...fanouts]
  }
  /** Every public read of the page, as visitors and embeds get them (cache on, as in production). */
  const publicReads = async () => {
    const site = server.statusHost(slug)
    const page = await (await fetch(site)).text()
    const summary = await (await fetch(`${site}/api/v2/summary.json`)).json()
    const status = await (await fetch(`${server.base}/api/embed/status?slug=${slug}&upd=7`)).json()
    return {
      banner: /All systems operational|Major outage|Partial outage|Degraded performance/.exec(page)?.[0],
      percents: [...page.matchAll(/(\d+(?:\.\d+)?) ?%/g)].map((m) => m[1]).join(' '),
      badge: await (await fetch(`${server.base}/badge/${slug}.svg`)).text(),
      uptimeBadge: await (await fetch(`${server.base}/badge/${slug}/uptime.svg`)).text(),
      statusJson: { overall: status.overall, upd: status.upd },
      v2: { indicator: summary.status.indicator, components: summary.components.map((c: { name: string; status: string }) => [c.name, c.status]) },
    }
  }

  beforeAll(async () => {
    target = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(answer === 200 ? 'ok' : 'broken', { status: answer }) })
    // SMTP on (nothing listens: nothing is sent, but subscriber mails would be queued).
    server = await listenTestContext({ now: NOW, checkDeps: deps, env: { SMTP_URL: 'smtp://127.0.0.1:9' } })
    scheduler = schedulerFor(server.ctx, { perHostCap: 100, globalCap: 100 })
    ;({ key } = await server.ctx.createOwner('enterprise'))
    slug = `misconf-${crypto.randomUUID().slice(0, 6)}`
    pageId = (await server.ctx.createPage(key, { name: 'Misconf', slug })).id
    componentId = (await json(await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name: 'Website' } }))).data.id
    expect((await api(`/status-pages/${pageId}/auto-incidents`, { method: 'PATCH', json: { auto_incidents: true, auto_incident_notify: true, auto_resolve: true, component_ids: [componentId] } })).status).toBe(200)
    expect((await api(`/status-pages/${pageId}/subscribers`, { method: 'POST', json: { email: 'visitor@example.com', consent: true } })).status).toBe(201)
    // The owner's webhook, verified by a test send (it hears events only once verified).
    hub = await startChatHub()
    const channel = await api('/notification-channels', { method: 'POST', json: { type: 'webhook', name: 'Ops', url: `${hub.url}/hook`, secret: 'a-webhook-secret-of-enough-length', page_ids: [pageId] } })
    expect(channel.status).toBe(201)
    expect((await api(`/notification-channels/${(await json(channel)).data.id}/test`, { method: 'POST' })).status).toBe(202)
    await server.ctx.app.services.outboxWorker.drain()
    expect((await json(await api('/notification-channels'))).data[0].verified).toBe(true)
    // Saved while the instance allowed private targets (MONITOR_PRIVATE_TARGETS=1) ...
    const created = await api('/monitors', { method: 'POST', json: { name: 'Site', type: 'http', target: `http://localhost:${target.port}/`, interval_seconds: 60, retries: 0, component_id: componentId } })
    expect(created.status).toBe(201)
    monitorId = (await json(created)).data.id
    // ... and the instance now runs without it.
    deps.setAllowPrivate(false)
  })
  afterAll(async () => {
    await scheduler.stop()
    target.stop(true)
    await server.close()
    await hub.close()
  })

  test('every run refused: nothing public changes, no incident, no delivery; the owner is told why and how to fix it', async () => {
    // An hour of history first, so the uptime figures have something to show.
    server.ctx.clock.advance(3_600_000)
    const before = await publicReads()
    expect(before.percents).toContain('100')
    expect(before.banner).toBe('All systems operational')
    const queuedBefore = await queued()

    await run(5)

    const monitor = (await json(await api(`/monitors/${monitorId}`))).data
    expect(monitor.state).toBe('misconfigured')
    expect(monitor.state_reason).toBe(
      'localhost resolves to 127.0.0.1, a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it). Fix: monitor an address reachable from the internet, or let this instance reach loopback and private addresses with MONITOR_PRIVATE_TARGETS=1 (then restart it).',
    )
    const results = (await json(await api(`/monitors/${monitorId}/results`))).data
    expect(results.map((r: { outcome: string }) => r.outcome)).toEqual(Array(5).fill('misconfigured'))
    expect((await json(await api(`/monitors/${monitorId}/state-changes`))).data.map((c: { state: string }) => c.state)).toEqual(['pending', 'misconfigured'])
    // Misconfigured time is not monitored time: no uptime figure, no downtime.
    expect((await json(await api(`/monitors/${monitorId}/availability?period=7d`))).data).toMatchObject({ uptime_percent: null, downtime_seconds: 0, incidents: 0 })

    expect((await json(await api(`/components/${componentId}`))).data.status).toBe('up')
    expect((await json(await api(`/components/${componentId}/history`))).data.map((c: { status: string }) => c.status)).toEqual(['up'])
    expect(await publicReads()).toEqual(before)
    expect((await json(await api(`/incidents?status_page_id=${pageId}`))).data).toEqual([])
    expect(await queued()).toEqual(queuedBefore)
  })

  test('with the setting back on, the next run leaves the state; a real outage then does go public', async () => {
    deps.setAllowPrivate(true)
    await run()
    expect((await json(await api(`/monitors/${monitorId}`))).data).toMatchObject({ state: 'up', state_reason: null })

    // The control: the same page, monitor and automation, a real failure.
    answer = 500
    await run(2)
    expect((await json(await api(`/monitors/${monitorId}`))).data.state).toBe('down')
    const after = await publicReads()
    expect(after.banner).toBe('Major outage')
    expect(after.statusJson.overall).toBe('major_outage')
    expect((await json(await api(`/incidents?status_page_id=${pageId}`))).data).toHaveLength(1)
    const deliveries = await queued()
    expect(deliveries).toContain('subscribers:incident.opened')
    expect(deliveries.some((t) => t.startsWith('channel:'))).toBe(true)
  })
})

describe('host names are resolved when a monitor is saved', () => {
  let ctx: TestContext
  let key: string
  const names = {
    'intranet.test': ['10.0.0.7'],
    'mixed.test': ['93.184.215.14', '127.0.0.1'],
    'metadata-alias.test': ['169.254.169.254'],
    'public.test': ['93.184.215.14'],
  }

  beforeAll(async () => {
    ctx = await createTestContext({ checkDeps: testDeps({ allowPrivate: false, names }) })
    ;({ key } = await ctx.createOwner('enterprise'))
  })
  afterAll(() => ctx.close())

  const create = (body: Record<string, unknown>) => ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { name: 'm', interval_seconds: 60, ...body } })
  const count = async () => (await json(await ctx.request('/user/api/v1/monitors', { key }))).meta.count

  test('a name that resolves to an address the instance does not reach is refused as the literal is, naming the address and the setting', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'http', target: 'http://intranet.test/health' }, 'target: intranet.test resolves to 10.0.0.7, a private address (MONITOR_PRIVATE_TARGETS=1 allows it)'],
      [{ type: 'keyword', target: 'https://mixed.test/', keyword: 'ok' }, 'target: mixed.test resolves to 127.0.0.1, a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it)'],
      [{ type: 'tcp', target: 'intranet.test:5432' }, 'target: intranet.test resolves to 10.0.0.7, a private address (MONITOR_PRIVATE_TARGETS=1 allows it)'],
      [{ type: 'ssl', target: 'metadata-alias.test' }, 'target: metadata-alias.test resolves to 169.254.169.254, a cloud metadata address'],
      // The literal, as before.
      [{ type: 'http', target: 'http://127.0.0.1:8080/' }, 'target: 127.0.0.1 is a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it)'],
    ]
    const before = await count()
    for (const [body, error] of cases) {
      const response = await create(body)
      expect({ target: body.target, status: response.status, body: await response.json() }).toEqual({ target: body.target, status: 400, body: { error } })
    }
    expect(await count()).toBe(before)
  })

  test('a public name saves without a warning; one that does not resolve yet saves with one', async () => {
    const ok = await create({ type: 'http', target: 'https://public.test/' })
    expect(ok.status).toBe(201)
    expect((await json(ok)).meta).toBeUndefined()
    const later = await create({ type: 'http', target: 'https://not-yet.test/' })
    expect(later.status).toBe(201)
    expect((await json(later)).meta.warnings).toEqual(['target: not-yet.test did not resolve: the name does not exist in DNS (ENOTFOUND); saved anyway, and its runs count as down until the name resolves'])
  })

  test('a change of target is checked as on creation; the refused change leaves the monitor as it was', async () => {
    const id = (await json(await create({ type: 'http', target: 'https://public.test/a' }))).data.id
    const patch = (body: Record<string, unknown>) => ctx.request(`/user/api/v1/monitors/${id}`, { method: 'PATCH', key, json: body })
    const refused = await patch({ target: 'http://intranet.test/' })
    expect(refused.status).toBe(400)
    expect((await json(refused)).error).toBe('target: intranet.test resolves to 10.0.0.7, a private address (MONITOR_PRIVATE_TARGETS=1 allows it)')
    expect((await json(await ctx.request(`/user/api/v1/monitors/${id}`, { key }))).data.target).toBe('https://public.test/a')
    // A rename does not resolve again.
    const renamed = await patch({ name: 'renamed' })
    expect(renamed.status).toBe(200)
    expect((await json(renamed)).meta).toBeUndefined()
    expect((await json(await patch({ target: 'https://not-yet.test/b' }))).meta.warnings).toHaveLength(1)
  })
})
