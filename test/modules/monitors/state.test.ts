/** The confirmation and flapping state machine, driven by an injected clock (no sleeps). */
import { describe, expect, test } from 'bun:test'
import type { Outcome } from '../../../src/modules/monitors/kinds/spec.ts'
import {
  decodeHistory,
  encodeHistory,
  initialState,
  nextState,
  percentStateChange,
  type MeasuredOutcome,
  type StateEvent,
  type StateSettings,
  type StateSnapshot,
} from '../../../src/modules/monitors/run/state.ts'
import { ManualClock } from '../../helpers/clock.ts'

const INTERVAL = 30_000
const O = 'ok' as const
const D = 'degraded' as const
const F = 'fail' as const
const M = 'misconfigured' as const

/** Feeds outcomes one interval apart; returns each step's state, events and the final snapshot. */
function drive(outcomes: Outcome[], settings: StateSettings = { confirmFailures: 2, confirmSuccesses: 2 }, start?: StateSnapshot) {
  const clock = new ManualClock(Date.UTC(2026, 10, 1))
  let snapshot = start ?? initialState(clock.now())
  const steps: Array<{ state: string; events: StateEvent[]; flapping: boolean }> = []
  for (const outcome of outcomes) {
    clock.advance(INTERVAL)
    const transition = nextState(snapshot, outcome, settings, clock.now())
    snapshot = transition.next
    steps.push({ state: snapshot.state, events: transition.events, flapping: snapshot.flapping })
  }
  return { steps, states: steps.map((s) => s.state), snapshot, clock }
}

describe('confirmation', () => {
  test('a new monitor takes its first result at once', () => {
    expect(drive([O]).steps[0]).toEqual({ state: 'up', events: ['up'], flapping: false })
    expect(drive([F]).steps[0]).toEqual({ state: 'down', events: ['down'], flapping: false })
    expect(drive([D]).states).toEqual(['degraded'])
  })

  test('two failing runs before down, two passing runs before up (defaults)', () => {
    const { steps } = drive([O, F, O, F, F, O, F, O, O])
    expect(steps.map((s) => s.state)).toEqual(['up', 'up', 'up', 'up', 'down', 'down', 'down', 'down', 'up'])
    expect(steps.map((s) => s.events)).toEqual([['up'], [], [], [], ['down'], [], [], [], ['up']])
  })

  test('since is the time of the confirming run', () => {
    const { snapshot, clock } = drive([O, F, F])
    expect(snapshot.since).toBe(clock.now())
    const held = drive([O, F])
    expect(held.snapshot.since).toBe(held.clock.now() - INTERVAL)
  })

  test('N and M are settings: 3 failures, 1 success', () => {
    expect(drive([O, F, F, F, O], { confirmFailures: 3, confirmSuccesses: 1 }).states).toEqual(['up', 'up', 'up', 'down', 'up'])
    expect(drive([O, F], { confirmFailures: 1, confirmSuccesses: 1 }).states).toEqual(['up', 'down'])
  })

  test('mixed bad runs confirm the milder state: fail then degraded makes degraded, then two fails make down', () => {
    expect(drive([O, F, D, F, F]).states).toEqual(['up', 'up', 'degraded', 'degraded', 'down'])
  })

  test('getting better confirms the worse of the recent runs: down → degraded → up', () => {
    expect(drive([F, D, O, O]).states).toEqual(['down', 'down', 'degraded', 'up'])
    expect(drive([F, O, D, O, O]).states).toEqual(['down', 'down', 'degraded', 'degraded', 'up'])
  })
})

describe('flapping (Naemon-style, 21 results, 50 % / 25 %)', () => {
  test('percent state change: steady 0, alternating 100, one change weighted by age', () => {
    expect(percentStateChange(Array(21).fill(O))).toBe(0)
    expect(percentStateChange(Array.from({ length: 21 }, (_, i) => (i % 2 ? F : O)))).toBeCloseTo(100, 10)
    expect(percentStateChange([...Array(20).fill(O), F])).toBeCloseTo(6.25, 10)
    expect(percentStateChange([O, ...Array(20).fill(F)])).toBeCloseTo(3.75, 10)
    expect(percentStateChange([O, F])).toBeCloseTo(6.25, 10)
    expect(percentStateChange([])).toBe(0)
  })

  test('alternating results start flapping, hold the state at degraded and stay quiet; steady results end it', () => {
    const alternating = Array.from({ length: 16 }, (_, i) => (i % 2 ? F : O))
    const steady = Array(20).fill(O) as Outcome[]
    const { steps } = drive([...alternating, ...steady])
    const start = steps.findIndex((s) => s.events.includes('flapping-start'))
    const stop = steps.findIndex((s) => s.events.includes('flapping-stop'))
    expect(start).toBeGreaterThan(0)
    expect(stop).toBeGreaterThan(start)
    // Before flapping, the alternation never confirmed down (one failure at a time).
    expect(steps.slice(0, start).every((s) => s.state === 'up')).toBe(true)
    // While flapping: degraded and no events at all.
    for (const step of steps.slice(start, stop)) expect(step).toMatchObject({ state: 'degraded', flapping: true })
    expect(steps.slice(start + 1, stop).every((s) => s.events.length === 0)).toBe(true)
    // Flapping stops below 25 %, and the steady ok runs confirm up at once (two in a row already).
    expect(steps[stop]).toEqual({ state: 'up', events: ['flapping-stop', 'up'], flapping: false })
    expect(steps.at(-1)).toEqual({ state: 'up', events: [], flapping: false })
  })

  test('the exact step: flapping starts on the first result above 50 %', () => {
    const outcomes = Array.from({ length: 21 }, (_, i) => (i % 2 ? F : O))
    const { steps } = drive(outcomes)
    const start = steps.findIndex((s) => s.flapping)
    // After k results there are k-1 changes: percent = sum of the newest k-1 weights / 20.
    const percents = outcomes.map((_, k) => percentStateChange(outcomes.slice(0, k + 1)))
    expect(percents[start]!).toBeGreaterThan(50)
    expect(percents[start - 1]!).toBeLessThanOrEqual(50)
  })

  test('hysteresis: between 25 % and 50 % a flapping monitor keeps flapping and a steady one does not start', () => {
    const history: MeasuredOutcome[] = [...Array(13).fill(O), F, O, F, O, F, O, F, O] // 7 changes near the new end
    const percent = percentStateChange(history)
    expect(percent).toBeGreaterThan(25)
    expect(percent).toBeLessThan(50)
    const base = { state: 'up' as const, since: 0, history: history.slice(0, -1) }
    expect(nextState({ ...base, flapping: true }, O, { confirmFailures: 2, confirmSuccesses: 2 }, 1).next.flapping).toBe(true)
    expect(nextState({ ...base, flapping: false }, O, { confirmFailures: 2, confirmSuccesses: 2 }, 1).next.flapping).toBe(false)
  })

  test('history is kept to the window and stored as a short string', () => {
    const { snapshot } = drive(Array(30).fill(O))
    expect(snapshot.history).toHaveLength(21)
    const history: MeasuredOutcome[] = [O, D, F, O]
    expect(encodeHistory(history)).toBe('odfo')
    expect(decodeHistory('odfo')).toEqual(history)
    expect(decodeHistory('oxf')).toEqual([O, F])
  })
})

describe('misconfigured runs', () => {
  test('a refused run makes the state misconfigured at once, never down, and keeps the measured history', () => {
    const { steps, snapshot } = drive([O, O, M, M])
    expect(steps.map((s) => s.state)).toEqual(['up', 'up', 'misconfigured', 'misconfigured'])
    expect(steps[2]!.events).toEqual(['misconfigured'])
    expect(steps[3]!.events).toEqual([])
    expect(encodeHistory(snapshot.history)).toBe('oo')
  })

  test('a new monitor whose every run is refused is misconfigured, not down, however many runs', () => {
    expect(drive([M, M, M, M, M]).states).toEqual(Array(5).fill('misconfigured'))
  })

  test('the first measured run after it stands on its own, as a new monitor\'s would', () => {
    expect(drive([M, M, O]).steps[2]).toEqual({ state: 'up', events: ['up'], flapping: false })
    expect(drive([O, O, M, F]).steps[3]).toEqual({ state: 'down', events: ['down'], flapping: false })
    // since moves with each change of state.
    const { snapshot, clock } = drive([O, M])
    expect(snapshot.since).toBe(clock.now())
  })

  test('a flapping monitor that becomes misconfigured stops flapping', () => {
    const flapping = drive([O, F, O, F, O, F, O, F, O, F, O, F])
    expect(flapping.snapshot.flapping).toBe(true)
    const transition = nextState(flapping.snapshot, M, { confirmFailures: 2, confirmSuccesses: 2 }, flapping.clock.now() + INTERVAL)
    expect(transition.next).toMatchObject({ state: 'misconfigured', flapping: false })
    expect(transition.events).toEqual(['flapping-stop', 'misconfigured'])
  })
})
