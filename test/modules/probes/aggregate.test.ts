/** The k-of-n rule of a monitor's regions (pure): stale regions, k = 1, k = n, flapping. */
import { describe, expect, test } from 'bun:test'
import { aggregateRegions, isStale, regionRuleText, regionsOf, type RegionSnapshot } from '../../../src/modules/monitors/run/regions.ts'
import { initialState, nextState } from '../../../src/modules/monitors/run/state.ts'
import type { Outcome } from '../../../src/modules/monitors/kinds/spec.ts'

const NOW = Date.UTC(2026, 10, 1, 12)
const INTERVAL = 60_000
const fresh = NOW - 10_000
const region = (name: string, state: RegionSnapshot['state'], at: number | null = fresh, flapping = false): RegionSnapshot => ({ region: name, state, flapping, lastCheckAt: at })
const agg = (regions: RegionSnapshot[], k: number) => aggregateRegions(regions, k, INTERVAL, NOW)

describe('aggregateRegions', () => {
  test('k = 1: the worst region decides (today\'s rule for one region)', () => {
    expect(agg([region('local', 'up'), region('eu', 'down')], 1).state).toBe('down')
    expect(agg([region('local', 'up'), region('eu', 'degraded')], 1).state).toBe('degraded')
    expect(agg([region('local', 'up')], 1).state).toBe('up')
    expect(agg([region('local', 'down')], 1).state).toBe('down')
  })

  test('k = 2 of 3: one region down is not enough, two are', () => {
    expect(agg([region('local', 'up'), region('eu', 'down'), region('us', 'up')], 2)).toEqual({ state: 'up', flapping: false, reporting: 3, down: 1 })
    expect(agg([region('local', 'down'), region('eu', 'down'), region('us', 'up')], 2)).toEqual({ state: 'down', flapping: false, reporting: 3, down: 2 })
    // One down and one degraded: not down, but not up either.
    expect(agg([region('local', 'down'), region('eu', 'degraded'), region('us', 'up')], 2).state).toBe('degraded')
  })

  test('k = n: down only when every region is down', () => {
    const all = ['local', 'eu', 'us']
    expect(agg(all.map((r) => region(r, 'down')), 3).state).toBe('down')
    expect(agg([region('local', 'down'), region('eu', 'down'), region('us', 'up')], 3).state).toBe('up')
  })

  test('a stale region counts as no data: neither down nor up', () => {
    const stale = NOW - 3 * INTERVAL - 1
    expect(isStale(stale, INTERVAL, NOW)).toBe(true)
    expect(isStale(NOW - 3 * INTERVAL, INTERVAL, NOW)).toBe(false)
    expect(isStale(null, INTERVAL, NOW)).toBe(true)
    // k = 2 of 3 with one stale down region: the two fresh ones decide.
    expect(agg([region('local', 'down'), region('eu', 'down', stale), region('us', 'up')], 2)).toEqual({ state: 'up', flapping: false, reporting: 2, down: 1 })
    // A stale up region does not hide the others' outage at k = 1.
    expect(agg([region('local', 'down'), region('eu', 'up', stale)], 1).state).toBe('down')
    // k = 2 of 2 with one stale: too few report to confirm an outage, so a failure shows as degraded.
    expect(agg([region('local', 'down'), region('eu', 'down', stale)], 2)).toEqual({ state: 'degraded', flapping: false, reporting: 1, down: 1 })
    expect(agg([region('local', 'up'), region('eu', 'down', stale)], 2).state).toBe('up')
    // Nobody reports: nothing is known, the caller holds the state.
    expect(agg([region('local', 'down', stale), region('eu', 'up', null)], 1)).toEqual({ state: null, flapping: false, reporting: 0, down: 0 })
  })

  test('a misconfigured region (its runs refused by the configuration) counts as no data, never as down', () => {
    // k = 1: the others decide; a misconfigured region never makes the monitor down.
    expect(agg([region('local', 'up'), region('eu', 'misconfigured')], 1)).toEqual({ state: 'up', flapping: false, reporting: 1, down: 0 })
    expect(agg([region('local', 'down'), region('eu', 'misconfigured')], 1).state).toBe('down')
    // k = 2 of 2 with one misconfigured: too few report to confirm an outage.
    expect(agg([region('local', 'down'), region('eu', 'misconfigured')], 2).state).toBe('degraded')
    // Every fresh region refused: the monitor is misconfigured, not down and not held.
    expect(agg([region('local', 'misconfigured'), region('eu', 'misconfigured')], 1)).toEqual({ state: 'misconfigured', flapping: false, reporting: 0, down: 0 })
    expect(agg([region('local', 'misconfigured'), region('eu', 'pending', null)], 1).state).toBe('misconfigured')
    // A stale misconfigured region is no data like any stale one.
    expect(agg([region('local', 'misconfigured', NOW - 4 * INTERVAL)], 1).state).toBeNull()
  })

  test('a flapping region counts as degraded (nextState holds it there), never as down', () => {
    // Drive one region's state machine into flapping, as the recorder does per region.
    let snapshot = initialState(NOW - 30 * INTERVAL)
    const outcomes: Outcome[] = Array.from({ length: 21 }, (_, i) => (i % 2 ? 'fail' : 'ok'))
    outcomes.forEach((o, i) => (snapshot = nextState(snapshot, o, { confirmFailures: 1, confirmSuccesses: 1 }, NOW - (21 - i) * 1000).next))
    expect(snapshot.flapping).toBe(true)
    expect(snapshot.state).toBe('degraded')
    const flapper = region('eu', snapshot.state, fresh, snapshot.flapping)
    expect(agg([region('local', 'up'), flapper], 1)).toEqual({ state: 'degraded', flapping: true, reporting: 2, down: 0 })
    expect(agg([region('local', 'up'), flapper], 2)).toEqual({ state: 'up', flapping: false, reporting: 2, down: 0 })
    expect(agg([region('local', 'down'), flapper], 2)).toEqual({ state: 'degraded', flapping: true, reporting: 2, down: 1 })
  })

  test('a region that never reported (pending) has no say', () => {
    expect(agg([region('local', 'up'), region('eu', 'pending', null)], 1).state).toBe('up')
  })
})

describe('regions and their rule in words', () => {
  test('stored JSON, with the default for anything unreadable', () => {
    expect(regionsOf({ regions_json: '["local","eu"]' })).toEqual(['local', 'eu'])
    expect(regionsOf({ regions_json: '[]' })).toEqual(['local'])
    expect(regionsOf({ regions_json: 'nope' })).toEqual(['local'])
  })
  test('k of n', () => {
    expect(regionRuleText(['local'], 1)).toBe('Down when local is down.')
    expect(regionRuleText(['local', 'eu'], 1)).toBe('Down when any 1 of its 2 regions is down.')
    expect(regionRuleText(['local', 'eu'], 2)).toBe('Down only when all 2 of its regions are down.')
    expect(regionRuleText(['local', 'eu', 'us'], 2)).toBe('Down when at least 2 of its 3 regions are down.')
  })
})
