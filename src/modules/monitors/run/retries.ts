/** Retries inside one run: a failed attempt is tried again after a pause, a few times (pure; sleep injected). */
import { DEFAULTS, runCheck, type CheckDeps, type CheckResult, type MonitorSpec } from '../kinds/index.ts'

export interface RetryPolicy {
  /** Extra attempts after a failed one (default 2, at most 5). */
  retries: number
  /** Pause between attempts in ms (default 2,000). */
  retryDelayMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: DEFAULTS.retries, retryDelayMs: DEFAULTS.retryDelayMs }

export type Sleep = (ms: number) => Promise<void>

/**
 * Runs `attempt` until it does not fail or the retries are used up. Only `fail` is retried: a
 * degraded answer is an answer, and so is a failure that carries a report (an SSL or DNSBL verdict
 * on what the server showed: an expired certificate or a listing does not pass by waiting 2 s).
 * The result says how many attempts it took.
 */
export async function runWithRetries(attempt: () => Promise<CheckResult>, policy: RetryPolicy, sleep: Sleep): Promise<CheckResult & { attempts: number }> {
  const retries = Math.max(0, Math.min(DEFAULTS.maxRetries, Math.floor(policy.retries)))
  let attempts = 0
  for (;;) {
    attempts++
    const result = await attempt()
    if (result.outcome !== 'fail' || result.report || attempts > retries) return { ...result, attempts }
    await sleep(policy.retryDelayMs)
  }
}

/** The longest one run can take: the scheduler's hard deadline (plus its own margin). */
export function runBudgetMs(timeoutMs: number, policy: RetryPolicy): number {
  const retries = Math.max(0, Math.min(DEFAULTS.maxRetries, Math.floor(policy.retries)))
  return (retries + 1) * timeoutMs + retries * policy.retryDelayMs
}

/** One run: the check with its retries. */
export function runMonitor(spec: MonitorSpec, deps: CheckDeps, policy: RetryPolicy, sleep: Sleep): Promise<CheckResult & { attempts: number }> {
  return runWithRetries(() => runCheck(spec, deps), policy, sleep)
}
