import { describe, expect, test } from 'bun:test'
import { ManualClock } from '../helpers/clock.ts'
import { RateLimiter } from '../../src/http/edge/rate-limit.ts'

describe('public API rate limit keys', () => {
  test('addresses of one IPv6 /64 share one bucket; another /64 has its own', () => {
    const limiter = new RateLimiter(3, new ManualClock())
    for (let i = 1; i <= 3; i++) expect(limiter.take(`2001:db8:5:6::${i}`).ok).toBe(true)
    expect(limiter.take('2001:db8:5:6:abcd::1').ok).toBe(false)
    expect(limiter.take('2001:db8:5:7::1').ok).toBe(true)
    expect(limiter.take('192.0.2.1').ok).toBe(true)
  })
})
