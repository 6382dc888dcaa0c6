/** Test double for the application's Clock: time that only moves when a test says so. */
import type { Clock } from '../../src/lib/clock.ts'

/** A clock that only moves when told to: for tests of expiry and time windows. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.current
  }
  advance(ms: number): void {
    this.current += ms
  }
  set(ms: number): void {
    this.current = ms
  }
}
