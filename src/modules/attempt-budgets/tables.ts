/** One fixed-window attempt budget (src/lib/attempt-budget.ts); `key` is a SHA-256 hex. */
export interface AttemptBudgetsTable {
  key: string
  attempts: number
  /** When the window ends: the budget is full again from then on. */
  ends_at: number
}

/** A client that got in to a target (`key`: SHA-256 hex of the pair), exempt from the target's shared budget until `known_until`. */
export interface AttemptKnownClientsTable {
  key: string
  known_until: number
}
