/**
 * The one snapshot of a page (status-pipeline/service.ts) from its one read (repo.ts): what it holds
 * must be exactly what the incidents, maintenances and checks modules hold, text included (the
 * read builds its lists as JSON inside SQLite), in page order, at a fixed instant.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import type { PageStatusService } from '../../../src/modules/status-pipeline/service.ts'
import { snapshotUptime } from '../../../src/modules/status-pipeline/service.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { minuteMeans } from '../../helpers/minutes.ts'

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0)
const H = 3_600_000
const DAY = 24 * H
const iso = (ms: number) => new Date(ms).toISOString()
/** Text that JSON inside SQLite must carry through unchanged. */
const AWKWARD = 'Quote " back\\slash 🚦 [1] {"a":1} </script> \u2028 null'

let ctx: TestContext
let owner: Owner
let pageStatus: PageStatusService
let pageId: number
const ids = { api: 0, web: 0, dns: 0, incident: 0, inProgress: 0, scheduled: 0 }

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW - 3 * DAY })
  const created = await ctx.createOwner('business')
  owner = created.user
  pageStatus = ctx.app.services.pageStatus
  const { pages, components, incidents, maintenances } = ctx.app.services
  pageId = (await pages.create(owner, { slug: 'snap', name: 'Snap' })).id
  ids.api = (await components.create(owner, pageId, { name: 'API', group: 'Core' })).id
  ids.web = (await components.create(owner, pageId, { name: AWKWARD, type: 'site' })).id
  ids.dns = (await components.create(owner, pageId, { name: 'DNS', type: 'dns', group: 'Core' })).id
  ctx.clock.set(NOW)
  // Web was down for 6 hours yesterday; API is degraded now.
  await components.importHistory(owner, ids.web, [
    { status: 'down', at: iso(NOW - DAY) },
    { status: 'up', at: iso(NOW - DAY + 6 * H) },
  ])
  await components.update(owner, ids.api, { status: 'degraded' })
  const incident = await incidents.create(owner, { status_page_id: pageId, component_ids: [ids.dns, ids.api], title: AWKWARD, message: `line one\n${AWKWARD}` })
  ids.incident = incident.id
  ctx.clock.set(NOW + 60_000)
  await incidents.addUpdate(owner, ids.incident, { message: 'Second', state: 'identified' })
  const resolved = await incidents.create(owner, { status_page_id: pageId, title: 'Over' })
  await incidents.update(owner, resolved.id, { state: 'resolved' })
  ctx.clock.set(NOW)
  await maintenances.create(owner, { status_page_id: pageId, title: 'Done', start_at: iso(NOW - 2 * DAY), end_at: iso(NOW - 2 * DAY + H) })
  ids.scheduled = (await maintenances.create(owner, { status_page_id: pageId, title: 'Later', start_at: iso(NOW + 2 * H), end_at: iso(NOW + 3 * H) })).id
  ids.inProgress = (
    await maintenances.create(owner, { status_page_id: pageId, title: AWKWARD, message: AWKWARD, start_at: iso(NOW - H), end_at: iso(NOW + H), component_ids: [ids.api] })
  ).id
})
afterAll(() => ctx.close())

describe('page snapshot', () => {
  test('components in page order with stored and display status; a covered component shows maintenance, never over down', async () => {
    const snap = await pageStatus.snapshot(pageId)
    expect(snap.now).toBe(NOW)
    expect(snap.components.map((c) => [c.id, c.name, c.type, c.group, c.status, c.display])).toEqual([
      [ids.api, 'API', 'site', 'Core', 'degraded', 'under_maintenance'],
      [ids.web, AWKWARD, 'site', null, 'up', 'operational'],
      [ids.dns, 'DNS', 'dns', 'Core', 'up', 'operational'],
    ])
    const stored = await ctx.app.services.components.get(owner, ids.api)
    expect(snap.components[0]).toMatchObject({ position: stored.position, createdAt: stored.createdAt, updatedAt: stored.updatedAt })
    // An open incident outranks the maintenance (DESIGN §5.2).
    expect(snap.overall).toBe('degraded_performance')
  })

  test('unresolved incidents only, exactly as the incidents module reads them (text, components in page order, timeline)', async () => {
    const snap = await pageStatus.snapshot(pageId)
    // The public shape leaves out the page id, the automation's bookkeeping (status-site/events.ts) and
    // the postmortem (only a resolved incident has one; the snapshot holds unresolved ones).
    const { pageId: _page, automatic: _automatic, postmortem: _postmortem, ...expected } = await ctx.app.services.incidents.get(owner, ids.incident)
    expect(snap.incidents).toEqual([expected])
    expect(snap.incidents[0]!.components.map((c) => c.id)).toEqual([ids.api, ids.dns])
    expect(snap.incidents[0]!.updates.map((u) => u.message)).toEqual([`line one\n${AWKWARD}`, 'Second'])
  })

  test('windows not yet over, soonest first, as the maintenances module reads them; the next boundary bounds caching', async () => {
    const snap = await pageStatus.snapshot(pageId)
    const expected = await Promise.all([ids.inProgress, ids.scheduled].map((id) => ctx.app.services.maintenances.get(owner, id)))
    // The public shape leaves out the page id and whether subscribers are told (an owner's setting).
    expect(snap.maintenances).toEqual(expected.map(({ pageId: _page, notifySubscribers: _notify, ...m }) => m))
    expect(snap.activeMaintenances.map((m) => m.id)).toEqual([ids.inProgress])
    expect(snap.nextBoundary).toBe(NOW + H)
    // At the boundary the window is over, without any write.
    const later = await pageStatus.snapshot(pageId, { now: NOW + H })
    expect(later.activeMaintenances).toEqual([])
    expect(later.components[0]!.display).toBe('degraded_performance')
    expect(later.nextBoundary).toBe(NOW + 2 * H)
  })

  test('uptime over N days from the history, maintenance left out; nothing read without uptimeDays', async () => {
    expect((await pageStatus.snapshot(pageId)).components.every((c) => c.days.length === 0)).toBe(true)
    const snap = await pageStatus.snapshot(pageId, { uptimeDays: 3 })
    const web = snap.components.find((c) => c.id === ids.web)!
    expect(web.days.map((d) => d.downMs)).toEqual([0, 6 * H, 0])
    const { daily, total } = snapshotUptime(snap)
    expect(daily).toHaveLength(3)
    expect(daily[1]).toBeLessThan(100)
    expect(total).not.toBeNull()
  })

  test('response times per minute over all components, oldest first, from the check roll-ups', async () => {
    await ctx.app.services.checks.ingest(owner, ids.api, [
      { at: iso(NOW - 60_000), ok: true, response_ms: 100 },
      { at: iso(NOW), ok: true, response_ms: 300 },
    ])
    await ctx.app.services.checks.ingest(owner, ids.dns, [{ at: iso(NOW), ok: true, response_ms: 500 }])
    const snap = await pageStatus.snapshot(pageId, { rtmMinutes: 3 })
    expect(snap.responseTimes).toEqual([null, 100, 400])
    expect(snap.responseTimes).toEqual(await minuteMeans(ctx.database.db, [ids.api, ids.web, ids.dns], NOW, 3))
    expect((await pageStatus.snapshot(pageId)).responseTimes).toEqual([])
  })

  test('a page without anything is operational; an unknown page id is an empty snapshot', async () => {
    const empty = (await ctx.app.services.pages.create(owner, { slug: 'snap-empty', name: 'Empty' })).id
    const snap = await pageStatus.snapshot(empty, { uptimeDays: 2, rtmMinutes: 2 })
    expect(snap).toMatchObject({ overall: 'operational', components: [], incidents: [], maintenances: [], nextBoundary: undefined, responseTimes: [null, null] })
    expect(snapshotUptime(snap)).toEqual({ daily: [null, null], total: null })
  })

  test('by slug: the page and its snapshot from the same read; unknown and private pages are undefined', async () => {
    const found = await pageStatus.publicSnapshot('SNAP', { uptimeDays: 3, rtmMinutes: 3 })
    expect(found?.page).toEqual({ id: pageId, slug: 'snap', name: 'Snap', customDomain: null, customDomainState: null, plan: 'business', language: 'en' })
    expect(found?.snapshot).toEqual(await pageStatus.snapshot(pageId, { uptimeDays: 3, rtmMinutes: 3 }))
    expect(await pageStatus.publicSnapshot('nobody')).toBeUndefined()
    expect(await pageStatus.publicSnapshot('../etc')).toBeUndefined()
    const hidden = await ctx.app.services.pages.create(owner, { slug: 'snap-private', name: 'Hidden', visibility: 'private' })
    expect(hidden.visibility).toBe('private')
    expect(await pageStatus.publicSnapshot('snap-private')).toBeUndefined()
  })
})
