/**
 * Dependencies between monitors, end to end on the real scheduler and recorder (ManualClock) with
 * real HTTP targets: a router whose outage takes down everything behind it sends exactly one
 * alert for the whole tree (the router's), whichever monitor runs first; the children are
 * unreachable, open no incident and leave their component as it was; /metrics and the status JSON
 * say so. Also: the API (parents on create and patch, cycles 400, someone else's monitor 404) and
 * the pure rules (dependencies.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { closesCycle, MAX_WAIT_MS, parentVerdict, stateWithParents, waitUntil, type ParentFacts } from '../../../src/modules/monitors/run/dependencies.ts'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { schedulerFor } from './scheduling.ts'

const METRICS_TOKEN = 'm'.repeat(40)

/** An HTTP target that can be stopped and started again on the same port. */
function startSite() {
  const serve = (port: number) => Bun.serve({ port, hostname: '127.0.0.1', fetch: () => new Response('ok') })
  let server: ReturnType<typeof serve> | undefined = serve(0)
  const port = server.port!
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () => {
      server?.stop(true)
      server = undefined
    },
    start: () => {
      server ??= serve(port)
    },
  }
}

const parent = (over: Partial<ParentFacts> = {}): ParentFacts => ({
  id: 1, name: 'Router', state: 'up', enabled: true, lastCheckAt: 0, lastOutcome: 'ok', nextRunAt: 60_000, intervalMs: 60_000, confirmFailures: 2, runBudgetMs: 10_000, ...over,
})

describe('the rules (pure)', () => {
  const child = { intervalMs: 60_000, confirmFailures: 2 }
  const now = 120_000

  test('a parent down or unreachable makes the child unreachable; a paused one does not', () => {
    expect(parentVerdict([parent({ state: 'down' })], child, now).kind).toBe('unreachable')
    expect(parentVerdict([parent(), parent({ id: 2, state: 'unreachable' })], child, now)).toMatchObject({ kind: 'unreachable', parents: [{ id: 2 }] })
    expect(parentVerdict([parent({ state: 'down', enabled: false, lastCheckAt: now })], child, now).kind).toBe('free')
  })

  test('a parent confirming a failure, or not checked since the child began failing, is waited for, for a bounded time', () => {
    // The child failed at 60 s and now; the parent failed at 100 s and needs one more run.
    expect(parentVerdict([parent({ lastCheckAt: 100_000, lastOutcome: 'fail' })], child, now).kind).toBe('wait')
    expect(waitUntil(parent({ lastCheckAt: 100_000, lastOutcome: 'fail' }), 60_000)).toBe(100_000 + 60_000 + 10_000 + 5_000)
    // The parent checked (ok) after the child's failures began: the child is down on its own.
    expect(parentVerdict([parent({ lastCheckAt: 90_000 })], child, now).kind).toBe('free')
    // Not checked since: wait until its next run is recorded, never past MAX_WAIT_MS.
    expect(parentVerdict([parent({ lastCheckAt: 30_000, nextRunAt: 130_000 })], child, now).kind).toBe('wait')
    expect(parentVerdict([parent({ lastCheckAt: 30_000, nextRunAt: 110_000 })], child, now).kind).toBe('wait')
    expect(parentVerdict([parent({ lastCheckAt: 30_000, nextRunAt: 20_000 })], child, now).kind).toBe('free')
    expect(waitUntil(parent({ lastCheckAt: null, nextRunAt: 10 * MAX_WAIT_MS }), 60_000)).toBe(60_000 + MAX_WAIT_MS)
    // A misconfigured parent measures nothing: nobody waits for it.
    expect(parentVerdict([parent({ state: 'misconfigured', lastCheckAt: 30_000, nextRunAt: 130_000 })], child, now).kind).toBe('free')
  })

  test('the child state: unreachable overrides all but misconfigured; waiting holds a fall into down; leaving unreachable needs a failure of its own', () => {
    const unreachable = { kind: 'unreachable' as const, parents: [parent({ state: 'down' })] }
    const wait = { kind: 'wait' as const, parents: [parent()] }
    const free = { kind: 'free' as const }
    expect(stateWithParents('up', 'down', unreachable, true)).toBe('unreachable')
    expect(stateWithParents('up', 'up', unreachable, false)).toBe('unreachable')
    expect(stateWithParents('up', 'misconfigured', unreachable, false)).toBe('misconfigured')
    expect(stateWithParents('up', 'down', wait, true)).toBe('up')
    expect(stateWithParents('pending', 'down', wait, true)).toBe('pending')
    expect(stateWithParents('down', 'down', wait, true)).toBe('down')
    expect(stateWithParents('up', 'degraded', wait, false)).toBe('degraded')
    expect(stateWithParents('up', 'down', free, true)).toBe('down')
    expect(stateWithParents('unreachable', 'up', free, false)).toBe('up')
    expect(stateWithParents('unreachable', 'down', free, true)).toBe('down')
    expect(stateWithParents('unreachable', 'down', free, false)).toBe('unreachable')
  })

  test('cycles are found through parents of parents', () => {
    const edges = new Map([[2, [3]], [3, [4]], [4, []]])
    expect(closesCycle(4, [2], (id) => edges.get(id) ?? [])).toBe(true)
    expect(closesCycle(1, [2], (id) => edges.get(id) ?? [])).toBe(false)
  })
})

let ctx: TestContext
let hub: ChatHub
let key: string
let scheduler: ReturnType<typeof schedulerFor>
const sites = { router: startSite(), app: startSite(), db: startSite(), worker: startSite() }
const ids = { router: 0, app: 0, db: 0, worker: 0 }
let componentId = 0
let pageSlug = ''
let seen = 0

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
async function post(path: string, body: unknown) {
  const response = await api(path, { method: 'POST', json: body })
  if (response.status !== 201 && response.status !== 202) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return (await json(response)).data
}
const monitor = async (id: number) => (await json(await api(`/monitors/${id}`))).data
const states = async () => Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([name, id]) => [name, (await monitor(id)).state])))
async function step(times = 1) {
  for (let i = 0; i < times; i++) {
    ctx.clock.advance(60_000)
    await scheduler.tick()
    await scheduler.settle()
  }
  await ctx.app.services.outboxWorker.drain()
}
/** What the webhook channel (every page, every monitor) received since the last call: event types and their monitor. */
function fresh(): string[] {
  const all = hub.received('/hook')
  const news = all.slice(seen)
  seen = all.length
  return news.map((request) => {
    const payload = request.json()
    return payload.details?.monitor_name ? `${payload.type} ${payload.details.monitor_name}` : payload.type
  })
}
const metricLine = async (state: string) => {
  const text = await (await ctx.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
  return text.split('\n').find((line) => line.startsWith(`lantern_monitors{state="${state}"`))
}

beforeAll(async () => {
  hub = await startChatHub()
  ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1', METRICS_TOKEN } })
  scheduler = schedulerFor(ctx, { perHostCap: 100, globalCap: 100 })
  ;({ key } = await ctx.createOwner('enterprise'))
  const page = await ctx.createPage(key, { name: 'Shop', slug: 'shop-deps' })
  pageSlug = page.slug
  componentId = (await post(`/status-pages/${page.id}/components`, { name: 'Website' })).id
  const automation = await api(`/status-pages/${page.id}/auto-incidents`, { method: 'PATCH', json: { auto_incidents: true, auto_resolve: true, component_ids: [componentId] } })
  expect(automation.status).toBe(200)
  const common = { type: 'http', interval_seconds: 60, retries: 0, confirm_failures: 2, confirm_successes: 1 }
  ids.router = (await post('/monitors', { ...common, name: 'Router', target: sites.router.url })).id
  ids.app = (await post('/monitors', { ...common, name: 'App', target: sites.app.url, component_id: componentId, parents: [ids.router] })).id
  ids.db = (await post('/monitors', { ...common, name: 'Database', target: sites.db.url, parents: [ids.router] })).id
  ids.worker = (await post('/monitors', { ...common, name: 'Worker', target: sites.worker.url, parents: [ids.db] })).id
  const hook = await post('/notification-channels', { type: 'webhook', name: 'Everything', url: `${hub.url}/hook`, all_monitors: true })
  await post(`/notification-channels/${hook.id}/test`, {})
  await ctx.app.services.outboxWorker.drain()
  // A webhook channel counts as verified once its test was delivered (seen when listed).
  expect((await json(await api('/notification-channels'))).data[0].verified).toBe(true)
  await step()
  expect(await states()).toEqual({ router: 'up', app: 'up', db: 'up', worker: 'up' })
  fresh()
})

afterAll(async () => {
  await scheduler.stop()
  for (const site of Object.values(sites)) site.stop()
  await ctx.close()
  await hub.close()
})

describe('the API', () => {
  test('parents are listed, replaced with PATCH and cleared with []', async () => {
    expect((await monitor(ids.app)).parents).toEqual([ids.router])
    expect((await monitor(ids.router)).parents).toEqual([])
    const changed = await api(`/monitors/${ids.worker}`, { method: 'PATCH', json: { parents: [ids.db, ids.router, ids.db] } })
    expect(changed.status).toBe(200)
    expect((await json(changed)).data.parents).toEqual([ids.router, ids.db])
    const back = await api(`/monitors/${ids.worker}`, { method: 'PATCH', json: { parents: [ids.db] } })
    expect((await json(back)).data.parents).toEqual([ids.db])
  })

  test('a cycle is a 400 naming the monitor that closes it, and changes nothing', async () => {
    for (const [id, parents, words] of [
      [ids.router, [ids.worker], '"Worker" depends on this monitor already'],
      [ids.db, [ids.db], 'cannot depend on itself'],
    ] as const) {
      const response = await api(`/monitors/${id}`, { method: 'PATCH', json: { parents } })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toContain(words)
    }
    expect((await monitor(ids.router)).parents).toEqual([])
    expect((await monitor(ids.db)).parents).toEqual([ids.router])
  })

  test("someone else's monitor as a parent is a 404, as their monitor is; a bad list is a 400", async () => {
    const stranger = await ctx.createOwner('enterprise')
    const theirs = (await json(await ctx.request('/user/api/v1/monitors', { key: stranger.key, method: 'POST', json: { name: 'Theirs', type: 'http', target: sites.router.url, interval_seconds: 60, enabled: false } }))).data
    const refused = await api(`/monitors/${ids.app}`, { method: 'PATCH', json: { parents: [theirs.id] } })
    expect(refused.status).toBe(404)
    expect((await json(refused)).error).toBe(`parents: no monitor ${theirs.id} of yours`)
    const created = await api('/monitors', { method: 'POST', json: { name: 'Sneaky', type: 'http', target: sites.app.url, parents: [theirs.id] } })
    expect(created.status).toBe(404)
    expect((await json(await api('/monitors'))).data.map((m: { name: string }) => m.name)).not.toContain('Sneaky')
    // The stranger cannot lean on ours either.
    expect((await ctx.request(`/user/api/v1/monitors/${theirs.id}`, { key: stranger.key, method: 'PATCH', json: { parents: [ids.router] } })).status).toBe(404)
    for (const parents of [['x'], [0], 'all']) expect((await api(`/monitors/${ids.app}`, { method: 'PATCH', json: { parents } })).status).toBe(400)
    expect((await monitor(ids.app)).parents).toEqual([ids.router])
  })
})

describe("the router's outage: one alert for the whole tree", () => {
  test('everything behind the router fails at once: only the router alerts; the rest is unreachable', async () => {
    for (const site of Object.values(sites)) site.stop()
    await step()
    expect(fresh()).toEqual([])
    await step()
    expect(await states()).toEqual({ router: 'down', app: 'unreachable', db: 'unreachable', worker: 'unreachable' })
    expect(fresh()).toEqual(['monitor.down Router'])
    const app = await monitor(ids.app)
    expect(app.state_reason).toBe('"Router" is down')
    expect((await monitor(ids.worker)).state_reason).toBe('"Database" is unreachable')
    // Minutes later: still one alert, no incident, the component as it was.
    await step(3)
    expect(fresh()).toEqual([])
    expect(await states()).toEqual({ router: 'down', app: 'unreachable', db: 'unreachable', worker: 'unreachable' })
    const component = (await json(await api(`/components/${componentId}`))).data
    expect(component.status).toBe('up')
    expect((await json(await api('/incidents'))).data).toEqual([])
    // The status JSON: nothing of the page is out; /metrics counts the unreachable apart.
    const status = await (await ctx.request(`/api/embed/status?slug=${pageSlug}`)).json()
    expect(status.overall).toBe('operational')
    expect(await metricLine('unreachable')).toMatch(/ 3$/)
    expect(await metricLine('down')).toMatch(/ 1$/)
    // The results are still logged: the runs went on.
    const results = (await json(await api(`/monitors/${ids.app}/results?limit=3`))).data
    expect(results.map((r: { outcome: string }) => r.outcome)).toEqual(['fail', 'fail', 'fail'])
    // The downtime log says unreachable; unreachable time is no downtime.
    const changes = (await json(await api(`/monitors/${ids.app}/state-changes`))).data.map((c: { state: string }) => c.state)
    expect(changes.at(-1)).toBe('unreachable')
    expect((await json(await api(`/monitors/${ids.app}/availability`))).data.downtime_seconds).toBe(0)
  })

  test('the router comes back: one recovery message; the children come back without a word', async () => {
    for (const site of Object.values(sites)) site.start()
    await step()
    expect((await monitor(ids.router)).state).toBe('up')
    await step()
    expect(await states()).toEqual({ router: 'up', app: 'up', db: 'up', worker: 'up' })
    expect(fresh()).toEqual(['monitor.up Router'])
  })

  test('a child that fails while its parent is fine alerts on its own', async () => {
    sites.app.stop()
    await step(2)
    expect((await monitor(ids.app)).state).toBe('down')
    expect(fresh()).toEqual(['monitor.down App', 'component.status_changed', 'incident.opened'])
    sites.app.start()
    await step()
    expect((await monitor(ids.app)).state).toBe('up')
    expect(fresh()).toEqual(['monitor.up App', 'component.status_changed', 'incident.resolved'])
  })

  test('a child down before its parent turns unreachable quietly, and its recovery is still told', async () => {
    sites.db.stop()
    await step(2)
    expect((await monitor(ids.db)).state).toBe('down')
    // The worker, behind the database, is unreachable at once.
    expect(await states()).toEqual({ router: 'up', app: 'up', db: 'down', worker: 'unreachable' })
    expect(fresh()).toEqual(['monitor.down Database'])
    sites.router.stop()
    await step(2)
    expect(await states()).toEqual({ router: 'down', app: 'unreachable', db: 'unreachable', worker: 'unreachable' })
    expect(fresh()).toEqual(['monitor.down Router'])
    sites.router.start()
    sites.db.start()
    await step(2)
    expect(await states()).toEqual({ router: 'up', app: 'up', db: 'up', worker: 'up' })
    // The database's outage alerted, so its end is told; the app and worker never alerted.
    expect(fresh().sort()).toEqual(['monitor.up Database', 'monitor.up Router'])
  })
})
