import { describe, expect, test } from 'bun:test'
import { clientBudgetKey } from '../../src/lib/address-prefix.ts'
import { ManualClock } from '../helpers/clock.ts'
import { RateLimiter } from '../../src/lib/rate-limit.ts'

describe('attempt limiter', () => {
  test('counts per key in fixed windows; a refund gives one attempt back', () => {
    const clock = new ManualClock(1_000_000)
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000, clock })
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterMs('a')).toBe(0)
      limiter.hit('a')
    }
    expect(limiter.retryAfterMs('a')).toBe(60_000)
    expect(limiter.retryAfterMs('b')).toBe(0)
    limiter.refund('a')
    expect(limiter.retryAfterMs('a')).toBe(0)
    limiter.hit('a')
    clock.advance(59_999)
    expect(limiter.retryAfterMs('a')).toBe(1)
    clock.advance(1)
    expect(limiter.retryAfterMs('a')).toBe(0)
  })

  test('filling the table with junk keys never resets a live counter: new keys wait instead', () => {
    const clock = new ManualClock(1_000_000)
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000, clock, maxKeys: 100 })
    for (let i = 0; i < 3; i++) limiter.hit('target')
    clock.advance(10_000)
    let refused = 0
    for (let i = 0; i < 1000; i++) {
      const key = `junk-${i}`
      if (limiter.retryAfterMs(key) > 0) refused++
      else limiter.hit(key)
    }
    expect(limiter.size).toBeLessThanOrEqual(100)
    expect(refused).toBe(901)
    // The target is still held back for the rest of its window.
    expect(limiter.retryAfterMs('target')).toBe(50_000)
    // A new key waits only until the oldest window ends (the target's), then expired windows make room.
    expect(limiter.retryAfterMs('newcomer')).toBe(50_000)
    clock.advance(50_000)
    expect(limiter.retryAfterMs('target')).toBe(0)
    expect(limiter.retryAfterMs('newcomer')).toBe(0)
    limiter.hit('newcomer')
    expect(limiter.size).toBeLessThanOrEqual(100)
  })

  test('expired windows make room for new keys as soon as they end', () => {
    const clock = new ManualClock(0)
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000, clock, maxKeys: 10 })
    for (let i = 0; i < 10; i++) limiter.hit(`k${i}`)
    expect(limiter.retryAfterMs('new')).toBe(1000)
    clock.advance(1000)
    for (let i = 0; i < 10; i++) {
      expect(limiter.retryAfterMs(`n${i}`)).toBe(0)
      limiter.hit(`n${i}`)
    }
    expect(limiter.size).toBe(10)
  })
})

describe('client budget keys', () => {
  test('IPv4 addresses stand alone; IPv6 addresses count per /64; mapped IPv4 is IPv4', () => {
    expect(clientBudgetKey('203.0.113.7')).toBe('203.0.113.7')
    expect(clientBudgetKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64')
    expect(clientBudgetKey('2001:0DB8:0001:0002:ffff::1')).toBe('2001:db8:1:2::/64')
    expect(clientBudgetKey('[2001:db8:1:2::99]')).toBe('2001:db8:1:2::/64')
    expect(clientBudgetKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(clientBudgetKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(clientBudgetKey('::ffff:198.51.100.4')).toBe('198.51.100.4')
    expect(clientBudgetKey('::1')).toBe('0:0:0:0::/64')
    expect(clientBudgetKey('unknown')).toBe('unknown')
    expect(clientBudgetKey('not:an:address::x:y')).toBe('not:an:address::x:y')
  })
})
