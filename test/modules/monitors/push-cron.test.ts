/**
 * Cron heartbeats on push monitors: late when no push by the scheduled time (in the monitor's time
 * zone) plus the grace; /start measures a run and a run that never ends is late; /fail fails. Pure
 * rules, then the real app and scheduler with an injected clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { nextCronRuns, parseCron } from '../../../src/modules/monitors/run/cron-schedule.ts'
import { pushDeadline, pushOverdue } from '../../../src/modules/monitors/run/push.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { schedulerFor } from './scheduling.ts'

const MIN = 60_000

describe('cron push rules', () => {
  const T0 = Date.UTC(2026, 10, 1, 12) // 13:00 in Berlin (CET)
  const daily = { watchingSince: T0, intervalSeconds: 60, graceSeconds: 600, cron: { expression: '0 3 * * *', timezone: 'Europe/Berlin' } }

  test('the next run is read in the time zone; late after it plus the grace', () => {
    const due = Date.UTC(2026, 10, 2, 2) // 03:00 CET
    expect(pushDeadline({ ...daily, lastPushAt: null })).toBe(due + 10 * MIN)
    expect(pushOverdue({ ...daily, lastPushAt: null }, due + 10 * MIN)).toBeNull()
    expect(pushOverdue({ ...daily, lastPushAt: null }, due + 10 * MIN + 1)?.message).toBe('no push for the run due at 2026-11-02T02:00:00.000Z (cron "0 3 * * *" in Europe/Berlin, grace 600 s)')
    // A push for that run answers for it: the next is the day after.
    expect(pushDeadline({ ...daily, lastPushAt: due + MIN })).toBe(due + 86_400_000 + 10 * MIN)
    // New York reads the same expression five hours later.
    expect(pushDeadline({ ...daily, cron: { expression: '0 3 * * *', timezone: 'America/New_York' }, lastPushAt: null })).toBe(Date.UTC(2026, 10, 2, 8) + 10 * MIN)
  })

  test('a started run must end within the grace; a start from before a resume counts for nothing', () => {
    const started = T0 + 5 * MIN
    expect(pushDeadline({ ...daily, lastPushAt: null, startedAt: started })).toBe(started + 10 * MIN)
    expect(pushOverdue({ ...daily, lastPushAt: null, startedAt: started }, started + 10 * MIN + 1)?.message).toBe(`the run started at ${new Date(started).toISOString()} has not ended within the grace time (600 s)`)
    expect(pushDeadline({ ...daily, lastPushAt: null, startedAt: T0 - 1 })).toBe(Date.UTC(2026, 10, 2, 2) + 10 * MIN)
    // Without cron too: the interval monitor's run must end within the grace.
    expect(pushDeadline({ watchingSince: T0, intervalSeconds: 3600, graceSeconds: 60, lastPushAt: null, startedAt: T0 + 1000 })).toBe(T0 + 1000 + 60_000)
  })

  test('expressions and zones are checked with a reason', () => {
    expect(parseCron('*/15 * * * *').ok).toBe(true)
    expect(parseCron('0 3 * * 1-5', 'Asia/Tokyo').ok).toBe(true)
    expect(parseCron('61 * * * *')).toMatchObject({ ok: false, field: 'cron' })
    expect(parseCron('* * *')).toMatchObject({ ok: false, field: 'cron', message: expect.stringContaining('5 fields') })
    expect(parseCron('0 3 * * *', 'Mars/Olympus')).toMatchObject({ ok: false, field: 'cron_timezone' })
    expect(parseCron('0 0 31 2 *')).toEqual({ ok: false, field: 'cron', message: 'never runs' })
    expect(nextCronRuns('30 9 * * 1', 'Europe/Paris', Date.UTC(2026, 10, 28), 2)).toEqual([Date.UTC(2026, 10, 30, 8, 30), Date.UTC(2026, 11, 7, 8, 30)])
  })
})

describe('cron push monitors through the app', () => {
  let ctx: TestContext
  let key: string
  beforeAll(async () => {
    ctx = await createTestContext({ now: Date.UTC(2026, 10, 1, 12) })
    ;({ key } = await ctx.createOwner('enterprise'))
  })
  afterAll(() => ctx.close())
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
  const monitor = async (id: number) => (await json(await api(`/monitors/${id}`))).data

  test('late after the scheduled time + grace; /start measures the run; a run that never ends is late; /fail fails', async () => {
    const created = await api('/monitors', {
      method: 'POST',
      json: { name: 'Nightly backup', type: 'push', cron: '0 3 * * *', cron_timezone: 'Europe/Berlin', push_grace_seconds: 600, confirm_failures: 1, confirm_successes: 1 },
    })
    expect(created.status).toBe(201)
    const data = (await json(created)).data
    expect(data.options).toMatchObject({ cron: '0 3 * * *', cron_timezone: 'Europe/Berlin', push_grace_seconds: 600 })
    const pushUrl: string = data.push_url
    const scheduler = schedulerFor(ctx)
    const at = async (instant: number) => {
      ctx.clock.set(instant)
      await scheduler.tick()
      await scheduler.settle()
    }
    const due = Date.UTC(2026, 10, 2, 2)
    await at(due + 10 * MIN - 1_000)
    expect((await monitor(data.id)).state).toBe('pending')
    await at(due + 10 * MIN + 2_000)
    expect(await monitor(data.id)).toMatchObject({ state: 'down', last_message: 'no push for the run due at 2026-11-02T02:00:00.000Z (cron "0 3 * * *" in Europe/Berlin, grace 600 s)' })

    // The next night: /start at 03:00, the run ends 95 s later.
    const night2 = due + 86_400_000
    await at(night2)
    expect(await json(await ctx.request(`${pushUrl}/start`))).toEqual({ ok: true, state: 'down' })
    await at(night2 + 95_000)
    expect(await json(await ctx.request(`${pushUrl}?msg=backup%20done`, { method: 'POST' }))).toEqual({ ok: true, state: 'up' })
    const ended = await monitor(data.id)
    expect(ended).toMatchObject({ state: 'up', last_message: 'backup done (the run took 1 min 35 s)', last_response_ms: 95_000 })

    // The third night it starts and never ends: late at start + grace, long before the next scheduled run.
    const night3 = night2 + 86_400_000
    await at(night3 + 1_000)
    expect((await ctx.request(`${pushUrl}/start`, { method: 'POST' })).status).toBe(200)
    await at(night3 + 1_000 + 10 * MIN - 1_000)
    expect((await monitor(data.id)).state).toBe('up')
    await at(night3 + 1_000 + 10 * MIN + 2_000)
    expect(await monitor(data.id)).toMatchObject({ state: 'down', last_message: `the run started at ${new Date(night3 + 1_000).toISOString()} has not ended within the grace time (600 s)` })

    // /fail ends a run with a failure, naming the job's message.
    await at(night3 + 86_400_000)
    await ctx.request(`${pushUrl}/start`)
    await at(night3 + 86_400_000 + 5_000)
    expect(await json(await ctx.request(`${pushUrl}/fail?msg=disk%20full`))).toEqual({ ok: true, state: 'down' })
    expect(await monitor(data.id)).toMatchObject({ state: 'down', last_outcome: 'fail', last_message: 'disk full (the run took 5 s)', last_response_ms: 5_000 })
    const results = (await json(await api(`/monitors/${data.id}/results`))).data
    expect(results[0]).toMatchObject({ outcome: 'fail', message: 'disk full (the run took 5 s)', response_ms: 5_000 })
    expect(results.filter((r: { outcome: string }) => r.outcome === 'ok')).toEqual([expect.objectContaining({ message: 'backup done (the run took 1 min 35 s)', response_ms: 95_000 })])
    expect((await ctx.request(`/api/push/${'x'.repeat(32)}/start`)).status).toBe(404)
  })

  test('changing the schedule moves the deadline at once', async () => {
    const created = (await json(await api('/monitors', { method: 'POST', json: { name: 'Hourly', type: 'push', interval_seconds: 86_400, push_grace_seconds: 60, confirm_failures: 1 } }))).data
    const scheduler = schedulerFor(ctx)
    await scheduler.tick()
    const patched = await api(`/monitors/${created.id}`, { method: 'PATCH', json: { cron: '0 * * * *' } })
    expect(patched.status).toBe(200)
    const hour = Math.ceil((ctx.clock.now() + 1) / 3_600_000) * 3_600_000
    ctx.clock.set(hour + 61_000)
    await scheduler.tick()
    await scheduler.settle()
    expect((await monitor(created.id)).state).toBe('down')
  })

  test('a bad expression or zone is a 400 naming the field, and nothing is saved', async () => {
    const before = (await json(await api('/monitors'))).meta.count
    const bad = await api('/monitors', { method: 'POST', json: { name: 'Bad', type: 'push', cron: '61 * * * *' } })
    expect(bad.status).toBe(400)
    expect((await json(bad)).error).toStartWith('cron: is not a valid cron expression')
    const zone = await api('/monitors', { method: 'POST', json: { name: 'Bad', type: 'push', cron: '0 3 * * *', cron_timezone: 'Mars/Olympus' } })
    expect(zone.status).toBe(400)
    expect((await json(zone)).error).toStartWith('cron_timezone: "Mars/Olympus" is not a time zone')
    expect((await json(await api('/monitors'))).meta.count).toBe(before)
  })
})
