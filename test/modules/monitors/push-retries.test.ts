/** Push (heartbeat) rules and retries inside a run: pure, clock and sleep injected. */
import { describe, expect, test } from 'bun:test'
import { parsePushQuery, pushDeadline, pushOverdue, pushResult } from '../../../src/modules/monitors/run/push.ts'
import { runBudgetMs, runWithRetries } from '../../../src/modules/monitors/run/retries.ts'
import type { CheckResult } from '../../../src/modules/monitors/kinds/spec.ts'
import { ManualClock } from '../../helpers/clock.ts'

describe('push monitors', () => {
  const T0 = Date.UTC(2026, 10, 1)
  const watch = { watchingSince: T0, intervalSeconds: 60, graceSeconds: 30 }

  test('down only when nothing arrives within interval + grace', () => {
    const clock = new ManualClock(T0)
    const state = { ...watch, lastPushAt: null as number | null }
    clock.advance(90_000)
    expect(pushOverdue(state, clock.now())).toBeNull()
    clock.advance(1)
    expect(pushOverdue(state, clock.now())).toEqual({ outcome: 'fail', responseTimeMs: null, message: 'no push yet (interval 60 s + grace 30 s)' })
    state.lastPushAt = clock.now()
    clock.advance(90_000)
    expect(pushOverdue(state, clock.now())).toBeNull()
    clock.advance(5_000)
    expect(pushOverdue(state, clock.now())?.message).toBe('no push for 95 s (interval 60 s + grace 30 s)')
    expect(pushDeadline(state)).toBe(state.lastPushAt + 90_000)
  })

  test('a push before a resume does not count: silence is measured from the resume', () => {
    expect(pushDeadline({ ...watch, lastPushAt: T0 - 3_600_000 })).toBe(T0 + 90_000)
  })

  test('status=down is an explicit failure; up with ping and msg is ok', () => {
    expect(pushResult({ status: 'down', message: 'backup failed' })).toEqual({ outcome: 'fail', responseTimeMs: null, message: 'backup failed' })
    expect(pushResult({ status: 'up', pingMs: 42 })).toEqual({ outcome: 'ok', responseTimeMs: 42, message: 'push received' })
  })

  test('the query: status, msg, ping; bad values are errors for a 400', () => {
    expect(parsePushQuery(new URLSearchParams(''))).toEqual({ ok: true, signal: { status: 'up', message: undefined, pingMs: undefined } })
    expect(parsePushQuery(new URLSearchParams('status=DOWN&msg=disk%20full&ping=12.6'))).toEqual({ ok: true, signal: { status: 'down', message: 'disk full', pingMs: 13 } })
    expect(parsePushQuery(new URLSearchParams('status=sideways'))).toEqual({ ok: false, message: 'status must be "up" or "down"' })
    expect(parsePushQuery(new URLSearchParams('ping=-1')).ok).toBe(false)
    expect(parsePushQuery(new URLSearchParams('ping=abc')).ok).toBe(false)
    const long = parsePushQuery(new URLSearchParams({ msg: 'x'.repeat(5_000) }))
    expect(long.ok && long.signal.message!.length).toBe(512)
  })
})

describe('retries inside a run', () => {
  const result = (outcome: CheckResult['outcome']): CheckResult => ({ outcome, responseTimeMs: outcome === 'fail' ? null : 10, message: outcome })

  async function run(outcomes: CheckResult['outcome'][], retries: number) {
    const sleeps: number[] = []
    let calls = 0
    const final = await runWithRetries(
      async () => result(outcomes[Math.min(calls++, outcomes.length - 1)]!),
      { retries, retryDelayMs: 2_000 },
      async (ms) => {
        sleeps.push(ms)
      },
    )
    return { final, sleeps, calls }
  }

  test('a failure is retried after the delay until it passes', async () => {
    expect(await run(['fail', 'ok'], 2)).toMatchObject({ final: { outcome: 'ok', attempts: 2 }, sleeps: [2_000], calls: 2 })
  })

  test('retries run out: the last failure stands', async () => {
    expect(await run(['fail'], 2)).toMatchObject({ final: { outcome: 'fail', attempts: 3 }, sleeps: [2_000, 2_000], calls: 3 })
    expect(await run(['fail'], 0)).toMatchObject({ final: { outcome: 'fail', attempts: 1 }, sleeps: [], calls: 1 })
  })

  test('ok and degraded are answers, not retried; retries are capped at 5', async () => {
    expect(await run(['degraded'], 2)).toMatchObject({ final: { outcome: 'degraded', attempts: 1 }, calls: 1 })
    expect((await run(['fail'], 50)).calls).toBe(6)
  })

  test('the run budget: attempts × timeout + pauses', () => {
    expect(runBudgetMs(10_000, { retries: 2, retryDelayMs: 2_000 })).toBe(34_000)
    expect(runBudgetMs(5_000, { retries: 0, retryDelayMs: 2_000 })).toBe(5_000)
  })
})
