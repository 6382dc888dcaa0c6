/**
 * Fixed-window attempt budgets kept where every app server (and worker) sees them: the database
 * (src/modules/attempt-budgets/repo.ts). Used for the decisions that must hold across servers:
 * password guesses (guess-throttle.ts), open sign-ups, subscribe forms, lookups. Keys are stored as
 * SHA-256 hashes, so no email or address is kept at rest; the store sweeps ended windows itself.
 */
import type { Clock } from './clock.ts'
import { sha256Hex } from './crypto.ts'

export interface Budget {
  limit: number
  windowMs: number
}

export interface BudgetCount extends Budget {
  key: string
}

/** What a right password changes: its pair budget cleared, the shared ones given one back, the pair remembered. */
export interface GuessSuccess {
  reset: string[]
  refund: string[]
  known: string
  knownUntil: number
  now: number
}

export interface AttemptBudgetStore {
  /** Counts one attempt in every budget, all or none: 0 when counted, else the wait until every spent one ends. */
  take(budgets: readonly BudgetCount[], now: number): Promise<number>
  succeeded(success: GuessSuccess): Promise<void>
  /** True while `key` (a client that got in to a target) is exempt from the target's shared budget. */
  isKnown(key: string, now: number): Promise<boolean>
}

/** The stored form of a key: namespaced by the budget's name, hashed. */
export const budgetKey = (name: string, ...parts: string[]): Promise<string> => sha256Hex(JSON.stringify([name, ...parts]))

/** One budget per key (a client, a user), shared by every server: sign-ups, subscribe forms, lookups. */
export class AttemptBudget {
  constructor(private readonly options: { name: string; budget: Budget; store: AttemptBudgetStore; clock: Clock }) {}

  /** Counts one attempt by `key`: 0 when counted, else the milliseconds to wait (nothing counted). */
  async take(key: string): Promise<number> {
    const { name, budget, store, clock } = this.options
    return store.take([{ key: await budgetKey(name, key), ...budget }], clock.now())
  }
}
