/** Time as the application sees it; tests inject a fake one instead of patching globals. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }
