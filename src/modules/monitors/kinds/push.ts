/**
 * push: nothing runs; the monitored job calls the monitor's push URL, and silence past the interval
 * and grace is a failure (run/push.ts reads the calls and notices the silence).
 */
import type { MonitorKind } from './kind.ts'

export const pushKind: MonitorKind<never> = {
  type: 'push',
  toSpec: () => null,
  validate: () => [],
  run: () => Promise.reject(new Error('a push monitor is not run: it waits for calls to its push URL')),
  probeable: false,
}
