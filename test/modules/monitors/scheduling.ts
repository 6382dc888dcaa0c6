/** Test parts for the scheduler: a timer driven by the ManualClock, and a scheduler on a test context's services. */
import { MonitorScheduler, type RunCheck, type Timer } from '../../../src/modules/monitors/run/scheduler.ts'
import type { ManualClock } from '../../helpers/clock.ts'
import type { TestContext } from '../../helpers/context.ts'

/** Callbacks fire only when the test moves time with `advance`. */
export class ManualTimer implements Timer {
  private next = 1
  private readonly waiting = new Map<number, { at: number; callback: () => void }>()
  constructor(private readonly clock: ManualClock) {}

  setTimeout(callback: () => void, ms: number): unknown {
    const handle = this.next++
    this.waiting.set(handle, { at: this.clock.now() + ms, callback })
    return handle
  }

  clearTimeout(handle: unknown): void {
    this.waiting.delete(handle as number)
  }

  get pending(): number {
    return this.waiting.size
  }

  /** Moves the clock and fires what came due, in time order. */
  advance(ms: number): void {
    this.clock.advance(ms)
    const due = [...this.waiting].filter(([, w]) => w.at <= this.clock.now()).sort((a, b) => a[1].at - b[1].at)
    for (const [handle, w] of due) {
      this.waiting.delete(handle)
      w.callback()
    }
  }
}

export function schedulerFor(ctx: TestContext, options: { timer?: Timer; run?: RunCheck; globalCap?: number; perHostCap?: number; flushEveryMs?: number } = {}) {
  const timer = options.timer ?? new ManualTimer(ctx.clock)
  const services = ctx.app.services
  return new MonitorScheduler({
    repo: services.monitorsRepo,
    recorder: services.monitorRecorder,
    clock: ctx.clock,
    checkDeps: services.checkDeps,
    timer,
    run: options.run,
    globalCap: options.globalCap,
    perHostCap: options.perHostCap,
    flushEveryMs: options.flushEveryMs,
    onError: (error) => {
      throw error
    },
  })
}

/** A promise the test resolves when it likes. */
export function gate<T = void>() {
  let open!: (value: T) => void
  const promise = new Promise<T>((resolve) => (open = resolve))
  return { promise, open }
}
