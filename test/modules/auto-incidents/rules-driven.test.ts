/**
 * The automation's rules, driven through the real scheduler and recorder: suppression (maintenance,
 * a person's incident, flapping), the takeover, the reopen window, and what the notifier hears
 * (a test fan-out writing outbox rows in the producer's transaction).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { NotifyEvent } from '../../../src/modules/notify/contract.ts'
import { REOPEN_WINDOW_MS } from '../../../src/modules/auto-incidents/rules.ts'
import { json } from '../../helpers/context.ts'
import { startRig, type Rig } from './driving.ts'

let rig: Rig
const heard: NotifyEvent[] = []

beforeAll(async () => {
  rig = await startRig()
  const { notifier, outbox } = rig.ctx.app.services
  // A test fan-out: every incident event becomes one outbox row, in the producer's transaction.
  notifier.use(async (db, group) => {
    for (const event of group) {
      if (!event.kind.startsWith('incident.')) continue
      heard.push(event)
      await outbox.enqueue(db, [{ target: 'address:test@example.com', request: { url: 'https://hooks.example.com/x', headers: {}, body: JSON.stringify(event) } }])
    }
  })
})
afterAll(async () => {
  await rig.close()
})

const ON = { auto_incidents: true, auto_incident_notify: true, auto_resolve: true }
const iso = (ms: number) => new Date(ms).toISOString()

async function watched(name: string, settings: Record<string, unknown> = ON) {
  const pageId = await rig.page(`${name} page`)
  const componentId = await rig.component(pageId, name)
  const path = `/${name.replace(/\W/g, '')}-${crypto.randomUUID().slice(0, 6)}`
  const monitorId = await rig.monitor(componentId, path)
  expect((await rig.automation(pageId, { ...settings, component_ids: [componentId] })).status).toBe(200)
  await rig.step()
  return { pageId, componentId, path, monitorId }
}
const automatic = async (pageId: number) => (await rig.incidents(pageId)).filter((i) => i.source === 'auto')
const post = async (path: string, body: unknown) => {
  const response = await rig.ctx.request(path, { method: 'POST', key: rig.key, json: body })
  expect(response.status).toBe(201)
  return (await json(response)).data
}

describe('suppression', () => {
  test('no automatic incident during an active maintenance of the component', async () => {
    const { pageId, componentId, path } = await watched('Maintained')
    const now = rig.ctx.clock.now()
    await post('/user/api/v1/maintenances', { status_page_id: pageId, title: 'Upgrade', start_at: iso(now - 60_000), end_at: iso(now + 3_600_000), component_ids: [componentId] })
    rig.target.set(path, 'down')
    await rig.step(3)
    expect(await automatic(pageId)).toHaveLength(0)
    // A maintenance of another component of the page does not cover this one.
    const { pageId: p2, componentId: c2, path: path2 } = await watched('Not maintained')
    const other = await rig.component(p2, 'Other')
    await post('/user/api/v1/maintenances', { status_page_id: p2, title: 'Elsewhere', start_at: iso(rig.ctx.clock.now() - 60_000), end_at: iso(rig.ctx.clock.now() + 3_600_000), component_ids: [other] })
    rig.target.set(path2, 'down')
    await rig.step(2)
    expect((await automatic(p2)).map((i) => i.automatic.component_id)).toEqual([c2])
  })

  test("no automatic incident while a person's open incident covers the component (listing it, or page-wide)", async () => {
    const listed = await watched('Covered')
    await post('/user/api/v1/incidents', { status_page_id: listed.pageId, title: 'We know', component_ids: [listed.componentId] })
    rig.target.set(listed.path, 'down')
    const wide = await watched('Page wide')
    await post('/user/api/v1/incidents', { status_page_id: wide.pageId, title: 'Everything is slow' })
    rig.target.set(wide.path, 'down')
    await rig.step(3)
    expect(await automatic(listed.pageId)).toHaveLength(0)
    expect(await automatic(wide.pageId)).toHaveLength(0)
  })

  test('no automatic incident while a monitor of the component is flapping', async () => {
    const { pageId, componentId, path, monitorId } = await watched('Flappy')
    const steady = `/steady-${crypto.randomUUID().slice(0, 6)}`
    await rig.monitor(componentId, steady)
    // 200, 500, 200, 500 … never two failures in a row, so it never confirms down, but it flaps.
    rig.target.set(path, 'alternate')
    let monitor: any
    for (let i = 0; i < 30; i++) {
      await rig.step()
      monitor = (await json(await rig.ctx.request(`/user/api/v1/monitors/${monitorId}`, { key: rig.key }))).data
      if (monitor.flapping) break
    }
    expect(monitor.flapping).toBe(true)
    // The other monitor goes down: the component is down, but one of its monitors flaps.
    rig.target.set(steady, 'down')
    await rig.step(2)
    const components = (await json(await rig.ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { key: rig.key }))).data
    expect(components[0].status).toBe('down')
    expect(await automatic(pageId)).toHaveLength(0)
  })
})

describe('takeover', () => {
  test('once a person posts an update the incident is theirs: a recovery adds an update instead of resolving', async () => {
    const { pageId, path } = await watched('Taken over')
    rig.target.set(path, 'down')
    await rig.step(2)
    const [opened] = await automatic(pageId)
    expect(opened.automatic.acknowledged_at).toBeNull()
    await post(`/user/api/v1/incidents/${opened.id}/updates`, { message: 'We found it: a bad deploy.', state: 'identified' })
    rig.target.set(path, 'up')
    await rig.step(2)
    const [after] = await automatic(pageId)
    expect(after.automatic.acknowledged_at).toBe(iso(rig.ctx.clock.now() - 120_000))
    expect(after.state).toBe('identified')
    expect(after.resolved_at).toBeNull()
    expect(after.updates.at(-1).message).toMatch(/^Taken over recovered at .* after 2 min\./)
    // The person resolves it; nothing reopens it later (only automatic resolves reopen).
    await post(`/user/api/v1/incidents/${opened.id}/updates`, { state: 'resolved', message: 'Fixed.' })
    rig.target.set(path, 'down')
    await rig.step(2)
    const list = await automatic(pageId)
    expect(list).toHaveLength(2)
    expect(list[1].state).toBe('resolved')
    expect(list[0].id).not.toBe(opened.id)
  })
})

describe('reopen window', () => {
  test(`a failure within ${REOPEN_WINDOW_MS / 60_000} min of an automatic resolve reopens the same incident without telling subscribers again`, async () => {
    const { pageId, path } = await watched('Bouncy')
    const before = heard.length
    rig.target.set(path, 'down')
    await rig.step(2)
    rig.target.set(path, 'up')
    await rig.step(2)
    let [incident] = await automatic(pageId)
    expect(incident.state).toBe('resolved')
    // Down again 4 minutes after the resolve (2 runs to confirm): well inside the window.
    rig.target.set(path, 'down')
    await rig.step(2)
    let list = await automatic(pageId)
    expect(list).toHaveLength(1)
    incident = list[0]
    expect(incident.state).toBe('investigating')
    expect(incident.resolved_at).toBeNull()
    expect(incident.automatic.auto_resolved).toBe(false)
    expect(incident.updates.at(-1).message).toMatch(/^Bouncy is failing again, shortly after it recovered at /)
    rig.target.set(path, 'up')
    await rig.step(2)
    list = await automatic(pageId)
    expect(list).toHaveLength(1)
    expect(list[0].state).toBe('resolved')
    // The outage length counts from the reopening, not from the first opening.
    expect(list[0].updates.at(-1).message).toMatch(/ after 2 min\.$/)

    // Subscribers heard one opening and one resolve; the owner's channels hear every step.
    const mine = heard.slice(before).filter((e) => e.pageId === pageId)
    expect(mine.map((e) => [e.kind, (e as { notifySubscribers: boolean }).notifySubscribers])).toEqual([
      ['incident.opened', true],
      ['incident.resolved', true],
      ['incident.updated', false],
      ['incident.resolved', false],
    ])

    // Down again after the window: a new incident.
    rig.ctx.clock.advance(REOPEN_WINDOW_MS)
    rig.target.set(path, 'down')
    await rig.step(2)
    list = await automatic(pageId)
    expect(list).toHaveLength(2)
    expect(list[0].state).toBe('investigating')
  })
})

describe('notifications', () => {
  test('the opening carries notify_subscribers from Auto Incident Notify and writes an outbox row in the same transaction', async () => {
    const quiet = await watched('Quiet notify', { ...ON, auto_incident_notify: false })
    const loud = await watched('Loud notify')
    const before = heard.length
    rig.target.set(quiet.path, 'down')
    rig.target.set(loud.path, 'down')
    await rig.step(2)
    const opened = heard.slice(before).filter((e) => e.kind === 'incident.opened')
    const byPage = new Map(opened.map((e) => [e.pageId, e as { notifySubscribers: boolean; incidentId: number }]))
    expect(byPage.get(quiet.pageId)?.notifySubscribers).toBe(false)
    expect(byPage.get(loud.pageId)?.notifySubscribers).toBe(true)
    const [incident] = await automatic(loud.pageId)
    expect(byPage.get(loud.pageId)?.incidentId).toBe(incident.id)
    const rows = await rig.ctx.database.db.selectFrom('outbox').select(['payload_json']).execute()
    const bodies = rows.map((row) => JSON.parse(JSON.parse(row.payload_json).request.body))
    expect(bodies.some((body) => body.kind === 'incident.opened' && body.incidentId === incident.id && body.notifySubscribers === true)).toBe(true)
  })
})
