/** Pure parts of scheduling and storage: the heap, the run grid, the phase spread, component status, availability, definitions. */
import { describe, expect, test } from 'bun:test'
import { availability } from '../../../src/modules/monitors/availability.ts'
import { componentStatusFromMonitors } from '../../../src/modules/monitors/run/component-status.ts'
import { hostKey, mergeDefinition, splitHostPort, toSpec } from '../../../src/modules/monitors/definition.ts'
import { MinHeap } from '../../../src/modules/monitors/run/heap.ts'
import { nextRunAfter } from '../../../src/modules/monitors/run/recorder.ts'
import { phaseOffsetMs } from '../../../src/modules/monitors/service.ts'

const DAY = 86_400_000

describe('MinHeap', () => {
  test('pops in time order', () => {
    const heap = new MinHeap()
    const times = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1000)
    times.forEach((at, id) => heap.push({ id, at }))
    const out: number[] = []
    while (heap.size) out.push(heap.pop()!.at)
    expect(out).toEqual([...times].sort((a, b) => a - b))
    expect(heap.pop()).toBeUndefined()
  })
})

describe('nextRunAfter: runs stay on their grid', () => {
  test('on time, late, and very late (after a long stop: no burst of catch-up runs)', () => {
    expect(nextRunAfter(1000, 60_000, 1500)).toBe(61_000)
    expect(nextRunAfter(1000, 60_000, 61_000)).toBe(121_000)
    expect(nextRunAfter(1000, 60_000, 10 * 60_000)).toBe(601_000)
  })
})

describe('phaseOffsetMs', () => {
  test('within the interval, the same for the same id, spread over ids', () => {
    const offsets = Array.from({ length: 1000 }, (_, i) => phaseOffsetMs(i + 1, 30_000))
    expect(offsets.every((o) => o >= 0 && o < 30_000)).toBe(true)
    expect(phaseOffsetMs(42, 30_000)).toBe(phaseOffsetMs(42, 30_000))
    const buckets = new Array(10).fill(0)
    for (const o of offsets) buckets[Math.floor(o / 3000)]++
    // 1,000 first runs over ten 3-second slices: each holds 100 ± 30.
    expect(Math.min(...buckets)).toBeGreaterThan(70)
    expect(Math.max(...buckets)).toBeLessThan(130)
  })
})

describe('componentStatusFromMonitors', () => {
  test('the worst confirmed state; pending and paused have no say', () => {
    expect(componentStatusFromMonitors([])).toBeNull()
    expect(componentStatusFromMonitors(['pending'])).toBeNull()
    expect(componentStatusFromMonitors(['up', 'pending'])).toBe('up')
    expect(componentStatusFromMonitors(['up', 'degraded'])).toBe('degraded')
    expect(componentStatusFromMonitors(['degraded', 'down', 'up'])).toBe('down')
  })
})

describe('availability', () => {
  const now = 100 * DAY
  test('uptime, downtime, MTTR and MTBF over the period; paused and pending time not counted', () => {
    const changes = [
      { state: 'up', at: now - 40 * DAY }, // began before the 30-day period
      { state: 'down', at: now - 20 * DAY },
      { state: 'up', at: now - 20 * DAY + 3_600_000 },
      { state: 'paused', at: now - 10 * DAY },
      { state: 'pending', at: now - 9 * DAY },
      { state: 'up', at: now - 9 * DAY + 60_000 },
      { state: 'down', at: now - DAY },
      { state: 'up', at: now - DAY + 1_800_000 },
    ]
    const a = availability(changes, '30d', now)
    const monitored = 30 * DAY - DAY - 60_000
    expect(a.monitoredMs).toBe(monitored)
    expect(a.downtimeMs).toBe(5_400_000)
    expect(a.incidents).toBe(2)
    expect(a.mttrMs).toBe(2_700_000)
    expect(a.mtbfMs).toBe(Math.round((monitored - 5_400_000) / 2))
    expect(a.uptimePercent).toBeCloseTo(((monitored - 5_400_000) / monitored) * 100, 3)
  })

  test('a down spell still open counts as downtime but has no recovery yet', () => {
    const a = availability([{ state: 'up', at: now - 2 * DAY }, { state: 'down', at: now - DAY }], '7d', now)
    expect(a).toMatchObject({ downtimeMs: DAY, incidents: 1, mttrMs: null, uptimePercent: 50 })
  })

  test('nothing watched: no percentage', () => {
    expect(availability([], '7d', now).uptimePercent).toBeNull()
  })
})

describe('definitions', () => {
  test('host:port targets, and the spec the engine runs', () => {
    expect(splitHostPort('db.example.com:5432')).toEqual({ host: 'db.example.com', port: 5432 })
    expect(splitHostPort('[2001:db8::1]:443')).toEqual({ host: '2001:db8::1', port: 443 })
    expect(splitHostPort('example.com')).toEqual({ host: 'example.com', port: undefined })
    const keyword = mergeDefinition(undefined, { name: 'k', type: 'keyword', target: 'https://Example.com/x', keyword: 'Operational', keyword_case_sensitive: false })
    expect(toSpec(keyword)).toMatchObject({ type: 'http', url: 'https://Example.com/x', keyword: { text: 'Operational', present: true, caseSensitive: false }, timeoutMs: 10_000 })
    expect(hostKey(keyword)).toBe('example.com')
    const tls = mergeDefinition(undefined, { name: 't', type: 'tls', target: 'example.com', interval_seconds: 3600 })
    expect(toSpec(tls)).toMatchObject({ type: 'tls', host: 'example.com', port: 443 })
    const dns = mergeDefinition(undefined, { name: 'd', type: 'dns', target: 'example.com', record_type: 'MX', resolver: '9.9.9.9' })
    expect(toSpec(dns)).toMatchObject({ type: 'dns', name: 'example.com', recordType: 'MX', resolver: '9.9.9.9' })
    expect(toSpec(mergeDefinition(undefined, { name: 'p', type: 'push' }))).toBeNull()
  })

  test('the timeout follows the interval until set: min(10 s, 0.8 × interval)', () => {
    expect(mergeDefinition(undefined, { name: 'a', type: 'http', target: 'https://e.com', interval_seconds: 30 }).timeoutMs).toBe(10_000)
    const set = mergeDefinition(undefined, { name: 'a', type: 'http', target: 'https://e.com', timeout_ms: 2000 })
    expect(mergeDefinition(set, { interval_seconds: 600 }).timeoutMs).toBe(2000)
    expect(mergeDefinition(set, { timeout_ms: null }).timeoutMs).toBe(10_000)
  })
})
