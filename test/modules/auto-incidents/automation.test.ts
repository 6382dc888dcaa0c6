/**
 * Automatic incidents end to end: a local target driven down and up, the real scheduler and
 * recorder on the ManualClock, incidents read back through the API.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { formatDateTime } from '../../../src/lib/human-time.ts'
import { sql } from 'kysely'
import { json } from '../../helpers/context.ts'
import { startRig, type Rig } from './driving.ts'
import { isUniqueViolationOn } from '../../../src/db/errors.ts'

let rig: Rig

beforeAll(async () => {
  rig = await startRig()
})
afterAll(async () => {
  await rig.close()
})

const ON = { auto_incidents: true, auto_incident_notify: true, auto_resolve: true }

/** A page with one monitored component that has automatic incidents on, up and running. */
async function watched(name: string, settings: Record<string, unknown> = ON) {
  const pageId = await rig.page(`${name} page`)
  const componentId = await rig.component(pageId, name)
  const path = `/${encodeURIComponent(name)}-${crypto.randomUUID().slice(0, 6)}`
  const monitorId = await rig.monitor(componentId, path)
  const response = await rig.automation(pageId, { ...settings, component_ids: [componentId] })
  expect(response.status).toBe(200)
  await rig.step()
  return { pageId, componentId, path, monitorId }
}

const automaticOf = (list: any[], componentId: number) => list.filter((i) => i.source === 'auto' && i.automatic.component_id === componentId)

describe('opening and resolving', () => {
  test('confirmed down opens one incident; it stays one while down; confirmed up resolves it with the recovery time and outage length', async () => {
    const { pageId, componentId, path } = await watched('API Gateway')
    rig.target.set(path, 'down')
    await rig.step()
    // One failure is not confirmed (2 needed): nothing yet.
    expect(automaticOf(await rig.incidents(pageId), componentId)).toHaveLength(0)
    await rig.step()
    const downAt = rig.ctx.clock.now()
    let list = automaticOf(await rig.incidents(pageId), componentId)
    expect(list).toHaveLength(1)
    const incident = list[0]
    expect(incident).toMatchObject({
      title: 'API Gateway is experiencing issues',
      state: 'investigating',
      resolved_at: null,
      components: [{ id: componentId, name: 'API Gateway' }],
      automatic: { component_id: componentId, acknowledged_at: null, auto_resolved: false },
    })
    expect(incident.updates[0].message).toContain('API Gateway is down')
    // Down for a while: still exactly one.
    await rig.step(5)
    list = automaticOf(await rig.incidents(pageId), componentId)
    expect(list).toHaveLength(1)
    expect(list[0].state).toBe('investigating')

    // It shows wherever incidents do: the public status JSON of the page.
    const page = (await json(await rig.ctx.request(`/user/api/v1/status-pages/${pageId}`, { key: rig.key }))).data
    const publicJson = await (await rig.ctx.request(`/api/v2/summary.json`, { headers: { host: new URL(page.url).host } })).text()
    expect(publicJson).toContain('API Gateway is experiencing issues')

    rig.target.set(path, 'up')
    await rig.step()
    expect(automaticOf(await rig.incidents(pageId), componentId)[0].state).toBe('investigating')
    await rig.step()
    const upAt = rig.ctx.clock.now()
    list = automaticOf(await rig.incidents(pageId), componentId)
    expect(list).toHaveLength(1)
    const resolved = list[0]
    expect(resolved.state).toBe('resolved')
    expect(Date.parse(resolved.resolved_at)).toBe(upAt)
    expect(resolved.automatic.auto_resolved).toBe(true)
    const last = resolved.updates.at(-1)
    expect(last.state).toBe('resolved')
    const minutes = (upAt - downAt) / 60_000
    expect(last.message).toBe(`API Gateway recovered at ${formatDateTime(upAt)} after ${minutes} min.`)
  })

  test('with Auto Resolve off, a recovery adds an update and leaves the incident open', async () => {
    const { pageId, componentId, path } = await watched('Billing', { ...ON, auto_resolve: false })
    rig.target.set(path, 'down')
    await rig.step(2)
    rig.target.set(path, 'up')
    await rig.step(2)
    const [incident] = automaticOf(await rig.incidents(pageId), componentId)
    expect(incident.state).toBe('investigating')
    expect(incident.resolved_at).toBeNull()
    expect(incident.updates.at(-1).message).toMatch(/^Billing recovered at .* after 2 min\. The incident stays open/)
  })

  test('nothing opens while the page has Auto Incidents off or the component is not chosen', async () => {
    const { pageId, componentId, path } = await watched('Quiet', { ...ON, auto_incidents: false })
    const other = await rig.component(pageId, 'Not chosen')
    const otherPath = `/not-chosen-${crypto.randomUUID().slice(0, 6)}`
    await rig.monitor(other, otherPath)
    await rig.step()
    rig.target.set(path, 'down')
    rig.target.set(otherPath, 'down')
    await rig.step(3)
    expect(await rig.incidents(pageId)).toHaveLength(0)
    // The monitors did go down: the component shows it, but no incident was opened.
    const components = (await json(await rig.ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { key: rig.key }))).data
    expect(components.map((c: any) => c.status)).toEqual(['down', 'down'])
    expect(componentId).toBeGreaterThan(0)
  })
})

describe('one open automatic incident per component', () => {
  test('concurrent result batches of several monitors of one component open exactly one incident', async () => {
    const pageId = await rig.page('Race page')
    const componentId = await rig.component(pageId, 'Race')
    const monitorIds: number[] = []
    for (let i = 0; i < 6; i++) monitorIds.push(await rig.monitor(componentId, `/race-${i}`))
    expect((await rig.automation(pageId, { ...ON, component_ids: [componentId] })).status).toBe(200)
    const services = rig.ctx.app.services
    const fail = { outcome: 'fail' as const, responseTimeMs: 5, message: 'HTTP 500', attempts: 1 }
    // Six batches at once, each confirming one monitor down (a new monitor's first result stands).
    const rows = await services.monitorsRepo.findMany(monitorIds)
    await Promise.all(rows.map((row) => services.monitorRecorder.record([{ kind: 'run', monitorId: row.id, scheduledAt: row.next_run_at, result: fail }])))
    const open = automaticOf(await rig.incidents(pageId), componentId).filter((i) => i.resolved_at === null)
    expect(open).toHaveLength(1)
  })

  test('the database refuses a second open automatic incident, whatever the code checks', async () => {
    const pageId = await rig.page('Index page')
    const componentId = await rig.component(pageId, 'Indexed')
    const incidents = rig.ctx.app.services.incidents
    const opening = { pageId, componentId, title: 'Indexed is experiencing issues', message: 'x', notifySubscribers: false }
    // openAutomatic checks nothing before inserting: only the partial unique index stands between them.
    const results = await Promise.all(Array.from({ length: 8 }, () => incidents.openAutomatic(opening)))
    expect(results.filter((r) => r !== undefined)).toHaveLength(1)
    // Straight SQL cannot add one either.
    const db = rig.ctx.database.db
    const insert = sql`INSERT INTO incidents (page_id, title, state, started_at, created_at, updated_at, source, auto_component_id)
      VALUES (${pageId}, 'dup', 'investigating', 1, 1, 1, 'auto', ${componentId})`
    const refused = await insert.execute(db).then(() => undefined, (error: unknown) => error)
    expect(isUniqueViolationOn(refused, 'incidents', 'auto_component_id')).toBe(true)
    // A resolved one does not count: a new one may open after it.
    const open = results.find((r) => r !== undefined)!
    await db.updateTable('incidents').set({ resolved_at: 2, state: 'resolved' }).where('id', '=', open.id).execute()
    expect(await incidents.openAutomatic(opening)).toBeDefined()
  })
})
