/**
 * Correcting a component's status history through the API, on the real app: a false outage is
 * replaced by the status the component really had, the correction is recorded (who, when, reason,
 * what was replaced), and every figure follows — this month's SLA, the status JSON's uptime, the
 * uptime badge, analytics — with the roll-ups equal to a fresh computation from the raw history
 * (also for random histories and random corrections). Bad spans and someone else's component
 * change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Db } from '../../../src/db/client.ts'
import { blockSpans, dayOf, rollUp } from '../../../src/modules/analytics/rollup.ts'
import type { ComponentStatus } from '../../../src/modules/components/tables.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const CREATED = Date.UTC(2026, 10, 20, 12, 0, 0)
const iso = (ms: number) => new Date(ms).toISOString()

let ctx: TestContext
let key: string

beforeAll(async () => {
  ctx = await createTestContext({ now: CREATED, publicCache: true })
  ;({ key } = await ctx.createOwner('enterprise'))
})
afterAll(() => ctx.close())

const api = (path: string, init: RequestInit & { json?: unknown; key?: string } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
const correct = (componentId: number, body: Record<string, unknown>, as = key) => api(`/components/${componentId}/history/corrections`, { method: 'POST', json: body, key: as })

async function setUp(name: string) {
  const page = await ctx.createPage(key, { name, slug: `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 6)}` })
  const component = (await json(await api(`/status-pages/${page.id}/components`, { method: 'POST', json: { name: 'Website' } }))).data.id as number
  return { page, component }
}

async function setStatus(componentId: number, status: ComponentStatus) {
  expect((await api(`/components/${componentId}`, { method: 'PATCH', json: { status } })).status).toBe(200)
}

/** The roll-up tables of a component against a computation from scratch over its raw history. */
async function rollupsAgainstFresh(db: Db, componentId: number) {
  const history = await db.selectFrom('component_status_history').select(['status', 'at']).where('component_id', '=', componentId).orderBy('at').orderBy('id').execute()
  const rows = rollUp({ startDay: dayOf(history[0]!.at), before: undefined, cum: { up_ms: 0, degraded_ms: 0, down_ms: 0, outages: 0 }, entries: history })
  const daily = await db
    .selectFrom('component_status_daily')
    .select(['day', 'up_ms', 'degraded_ms', 'down_ms', 'outages', 'cum_up_ms', 'cum_degraded_ms', 'cum_down_ms', 'cum_outages', 'longest_down_ms', 'shortest_down_ms'])
    .where('component_id', '=', componentId)
    .orderBy('day')
    .execute()
  const blocks = await db.selectFrom('component_status_blocks').select(['block', 'longest_down_ms', 'shortest_down_ms']).where('component_id', '=', componentId).orderBy('block').execute()
  const cursor = await db.selectFrom('component_status_cursor').select(['first_day', 'status', 'since']).where('component_id', '=', componentId).executeTakeFirst()
  const last = history[history.length - 1]!
  return {
    stored: { daily, blocks, cursor },
    fresh: { daily: rows, blocks: blockSpans(rows), cursor: { first_day: rows[0]!.day, status: last.status, since: last.at } },
  }
}

describe('a false outage corrected', () => {
  test('the figures before and after: SLA this month, status JSON uptime, uptime badge; the correction is recorded', async () => {
    const { page, component } = await setUp('Corrected')
    // A six-hour "outage" on 22 November that never happened.
    const downAt = Date.UTC(2026, 10, 22, 9)
    const upAt = Date.UTC(2026, 10, 22, 15)
    ctx.clock.set(downAt)
    await setStatus(component, 'down')
    ctx.clock.set(upAt)
    await setStatus(component, 'up')
    ctx.clock.set(Date.UTC(2026, 10, 24, 12))

    const figures = async () => {
      const sla = (await json(await api(`/status-pages/${page.id}/sla?period=month`))).data.components[0]
      const status = await json(await ctx.request(`/api/embed/status?slug=${page.slug}&upd=7`))
      const badge = await (await ctx.request(`/badge/${page.slug}/uptime.svg?days=7`)).text()
      return { slaPercent: sla.actual_percent, slaDowntime: sla.downtime_seconds, outages: sla.outages.count, upd: status.upd, badge: /aria-label="uptime: ([^"]+)"/.exec(badge)?.[1] }
    }
    const before = await figures()
    expect(before.slaDowntime).toBe(6 * 3600)
    expect(before.outages).toBe(1)
    expect(before.slaPercent).toBeLessThan(100)
    expect(before.upd).toEqual([null, null, 100, 100, 75, 100, 100])
    expect(before.badge).not.toBe('100%')

    const response = await correct(component, { from: iso(downAt), to: iso(upAt), status: 'up', reason: 'False outage: the monitor was <b>misconfigured</b>' })
    expect(response.status).toBe(201)
    const correction = (await json(response)).data
    expect(correction).toMatchObject({
      component_id: component,
      from: iso(downAt),
      to: iso(upAt),
      status: 'up',
      reason: 'False outage: the monitor was <b>misconfigured</b>',
      corrected_at: iso(ctx.clock.now()),
      replaced_before: { status: 'up', at: iso(CREATED) },
      replaced_changes: [{ status: 'down', at: iso(downAt) }],
    })
    expect(correction.corrected_by).toContain('@example.com')

    const after = await figures()
    expect(after).toEqual({ slaPercent: 100, slaDowntime: 0, outages: 0, upd: before.upd.map((d: number | null) => (d === null ? null : 100)), badge: '100%' })
    // The history shows it, and the correction is listed with it.
    expect((await json(await api(`/components/${component}/history`))).data).toEqual([
      { status: 'up', at: iso(upAt) },
      { status: 'up', at: iso(CREATED) },
    ])
    expect((await json(await api(`/components/${component}/history/corrections`))).data).toEqual([correction])
    // The current status was not touched.
    expect((await json(await api(`/components/${component}`))).data.status).toBe('up')
    const { stored, fresh } = await rollupsAgainstFresh(ctx.database.db, component)
    expect(stored).toEqual(fresh)
  })

  test('analytics follow: the outage and its downtime are gone from the report', async () => {
    const { page, component } = await setUp('Analytics')
    const downAt = ctx.clock.now() + HOUR
    ctx.clock.set(downAt)
    await setStatus(component, 'down')
    ctx.clock.advance(2 * HOUR)
    await setStatus(component, 'up')
    ctx.clock.advance(HOUR)
    const report = async () => (await json(await ctx.request(`/api/analytics/status-pages/${page.id}?range=7d`, { key }))).data.components[0]
    expect(await report()).toMatchObject({ down_s: 7200, incidents: 1 })
    expect((await correct(component, { from: iso(downAt), to: iso(downAt + 2 * HOUR), status: 'degraded', reason: 'it answered, slowly' })).status).toBe(201)
    expect(await report()).toMatchObject({ down_s: 0, degraded_s: 7200, incidents: 0 })
  })

  test('part of a span: the status in force at its end comes back there; a correction never changes the current status', async () => {
    const { component } = await setUp('Partial')
    const start = ctx.clock.now()
    ctx.clock.advance(HOUR)
    await setStatus(component, 'down')
    const downAt = ctx.clock.now()
    ctx.clock.advance(3 * HOUR)
    // Still down now. Correct only the first hour of it.
    expect((await correct(component, { from: iso(downAt), to: iso(downAt + HOUR), status: 'up', reason: 'the first hour was fine' })).status).toBe(201)
    expect((await json(await api(`/components/${component}/history`))).data).toEqual([
      { status: 'down', at: iso(downAt + HOUR) },
      { status: 'up', at: iso(start) },
    ])
    expect((await json(await api(`/components/${component}`))).data.status).toBe('down')
    // Up to now: the status after the span is kept (a change at `to` restores it).
    expect((await correct(component, { from: iso(downAt + HOUR), to: iso(ctx.clock.now()), status: 'degraded', reason: 'slow, not down' })).status).toBe(201)
    const history = (await json(await api(`/components/${component}/history`))).data
    expect(history[0]).toEqual({ status: 'down', at: iso(ctx.clock.now()) })
    expect((await json(await api(`/components/${component}`))).data.status).toBe('down')
    const { stored, fresh } = await rollupsAgainstFresh(ctx.database.db, component)
    expect(stored).toEqual(fresh)
  })
})

describe('a correction that removes the latest changes', () => {
  test('the roll-ups end at the change now last, as a fresh computation does, and the public figures follow', async () => {
    const { page, component } = await setUp('Removed')
    ctx.clock.advance(2 * DAY)
    await setStatus(component, 'down')
    const downAt = ctx.clock.now()
    ctx.clock.advance(HOUR)
    await setStatus(component, 'up')
    ctx.clock.advance(HOUR)
    // Up the whole time: both changes go, nothing replaces them.
    expect((await correct(component, { from: iso(downAt), to: iso(ctx.clock.now()), status: 'up', reason: 'never down' })).status).toBe(201)
    expect((await json(await api(`/components/${component}/history`))).data).toHaveLength(1)
    const { stored, fresh } = await rollupsAgainstFresh(ctx.database.db, component)
    expect(stored).toEqual(fresh)
    const status = await json(await ctx.request(`/api/embed/status?slug=${page.slug}&upd=7`))
    expect(status.upd.filter((d: number | null) => d !== null).every((d: number) => d === 100)).toBe(true)
  })
})

describe('refused corrections change nothing', () => {
  test('future, reversed, empty, before the first status, bad status or reason, nothing to correct: 400; someone else\'s: 404', async () => {
    const { component } = await setUp('Refusals')
    ctx.clock.advance(2 * HOUR)
    await setStatus(component, 'down')
    ctx.clock.advance(HOUR)
    const now = ctx.clock.now()
    const historyBefore = await (await api(`/components/${component}/history`)).text()
    const ok = { from: iso(now - 2 * HOUR), to: iso(now - HOUR), status: 'up', reason: 'x' }
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...ok, to: iso(now + 60_000) }, /^to must not be in the future/],
      [{ ...ok, from: iso(now - HOUR), to: iso(now - 2 * HOUR) }, /^to must be after from$/],
      [{ ...ok, to: ok.from }, /^to must be after from$/],
      [{ ...ok, from: iso(now - 30 * DAY) }, /^from must not be before the component's first recorded status/],
      [{ ...ok, from: 'yesterday' }, /^from must be an RFC 3339 date-time/],
      [{ ...ok, status: 'broken' }, /^status must be one of up, degraded, partial, down$/],
      [{ ...ok, status: 'half' }, /^status must be one of up, degraded, partial, down$/],
      [{ ...ok, reason: '   ' }, /^reason must not be empty$/],
      [{ ...ok, reason: 'x'.repeat(501) }, /^reason must be at most 500 characters$/],
      [{ ...ok, reason: 'a\u0000b' }, /^reason must not contain control characters$/],
      [{ ...ok, from: iso(now - 3 * HOUR + 1), to: iso(now - 2 * HOUR) }, /^nothing to correct/],
      [{ ...ok, reason: undefined }, /reason/],
    ]
    for (const [body, error] of cases) {
      const response = await correct(component, body)
      const text = await response.text()
      expect({ body, status: response.status }).toEqual({ body, status: 400 })
      expect(JSON.parse(text).error).toMatch(error)
    }
    const other = await ctx.createOwner('enterprise')
    expect((await correct(component, ok, other.key)).status).toBe(404)
    expect((await api(`/components/${component}/history/corrections`, { key: other.key })).status).toBe(404)
    expect((await correct(999_999, ok)).status).toBe(404)
    expect(await (await api(`/components/${component}/history`)).text()).toBe(historyBefore)
    const listed = await api(`/components/${component}/history/corrections`)
    expect(await listed.json()).toEqual({ data: [], meta: { count: 0 } })
  })
})

describe('roll-ups after corrections equal a fresh computation', () => {
  test('random histories, random corrections (removing changes, over midnights, up to now)', async () => {
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const statuses: ComponentStatus[] = ['up', 'degraded', 'down']
    let applied = 0
    for (let round = 0; round < 4; round++) {
      const { component } = await setUp(`Random${round}`)
      const first = ctx.clock.now()
      // About 40 changes over 20 days, at whole minutes.
      const changes: Array<{ status: string; at: string }> = []
      const used = new Set<number>()
      for (let i = 0; i < 40; i++) {
        const at = first + 60_000 + Math.floor(random() * 20 * 24 * 60) * 60_000
        if (used.has(at)) continue
        used.add(at)
        changes.push({ status: statuses[Math.floor(random() * 3)]!, at: iso(at) })
      }
      ctx.clock.set(first + 21 * DAY)
      expect((await api(`/components/${component}/history`, { method: 'POST', json: changes })).status).toBe(200)
      for (let c = 0; c < 6; c++) {
        const now = ctx.clock.now()
        const from = first + Math.floor(random() * 21 * 24 * 60) * 60_000
        const to = c === 5 ? now : Math.min(now, from + Math.floor(random() * 4 * 24 * 60 + 1) * 60_000)
        const response = await correct(component, { from: iso(from), to: iso(to), status: statuses[Math.floor(random() * 3)], reason: `round ${round}, correction ${c}` })
        expect([201, 400]).toContain(response.status)
        if (response.status === 201) applied++
        const { stored, fresh } = await rollupsAgainstFresh(ctx.database.db, component)
        expect(stored).toEqual(fresh)
        ctx.clock.advance(HOUR)
      }
    }
    expect(applied).toBeGreaterThanOrEqual(16)
  })
})
