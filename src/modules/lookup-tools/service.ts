/**
 * The domain lookup tools for a signed-in user: run one lookup (validated, rate-limited, through
 * the address guard where it connects) and keep it among the user's "recent checks": the newest 3
 * on the free plan, up to a sanity cap of 1,000 on paid plans (so a script cannot grow a table
 * without end), trimmed in the insert's own transaction. The API and the Tools screen both call this.
 */
import type { Clock } from '../../lib/clock.ts'
import { HttpError, notFound } from '../../lib/errors.ts'
import { AttemptBudget, type AttemptBudgetStore } from '../../lib/attempt-budget.ts'
import type { Owner } from '../accounts/service.ts'
import type { CheckDeps } from '../monitors/kinds/index.ts'
import type { ToolCheckRow, ToolChecksRepo } from './repo.ts'
import { normalizeInput, runLookup, type LookupInput, type LookupTool, type ToolOutcome, type ToolStatus } from './runner.ts'

/** Recent checks kept on the free plan: the newest 3. */
export const FREE_RECENT_CHECKS = 3
/** Paid plans keep "unlimited" recent checks, bounded by this sanity cap (documented). */
export const PAID_RECENT_CHECKS_CAP = 1_000
/** Lookups per user per minute (R6): each one makes up to dozens of DNS queries or a TLS handshake. */
export const LOOKUPS_PER_MINUTE = 30

export interface ToolCheck {
  id: number
  tool: LookupTool
  target: string
  status: ToolStatus
  summary: string
  result: Record<string, unknown>
  createdAt: number
}

export class TooManyLookups extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, `too many lookups: at most ${LOOKUPS_PER_MINUTE} a minute; try again in ${retryAfterSeconds} s`)
  }
}

export type LookupRunner = (input: LookupInput, deps: CheckDeps, paid: boolean) => Promise<ToolOutcome>

const toCheck = (row: ToolCheckRow): ToolCheck => ({
  id: row.id,
  tool: row.tool as LookupTool,
  target: row.target,
  status: row.status as ToolStatus,
  summary: row.summary,
  result: JSON.parse(row.result_json) as Record<string, unknown>,
  createdAt: row.created_at,
})

export const recentChecksKept = (user: Pick<Owner, 'plan'>): number => (user.plan === 'free' ? FREE_RECENT_CHECKS : PAID_RECENT_CHECKS_CAP)

export interface LookupToolsServiceDeps {
  repo: ToolChecksRepo
  checkDeps: CheckDeps
  clock: Clock
  /** Where the per-user lookup budget is counted (the database: it holds across servers). */
  attemptBudgets: AttemptBudgetStore
  runner?: LookupRunner
}

export class LookupToolsService {
  private readonly limiter: AttemptBudget

  private readonly runner: LookupRunner

  constructor(private readonly deps: LookupToolsServiceDeps) {
    this.runner = deps.runner ?? runLookup
    const { clock, attemptBudgets } = deps
    this.limiter = new AttemptBudget({ name: 'lookup', budget: { limit: LOOKUPS_PER_MINUTE, windowMs: 60_000 }, store: attemptBudgets, clock })
  }

  /** Runs one lookup and keeps it; a bad target is a 400 that runs and keeps nothing. */
  async run(user: Owner, input: LookupInput): Promise<ToolCheck> {
    const normalized = normalizeInput(input, this.deps.checkDeps.guard)
    const key = `user:${user.userId}`
    const wait = await this.limiter.take(key)
    if (wait > 0) throw new TooManyLookups(Math.max(1, Math.ceil(wait / 1000)))
    const outcome = await this.runner(normalized, this.deps.checkDeps, user.plan !== 'free')
    const target = normalized.tool === 'dkim' && normalized.selectors?.length ? `${normalized.selectors.join(',')} @ ${normalized.target}` : normalized.target
    const createdAt = this.deps.clock.now()
    const row = { user_id: user.userId, tool: normalized.tool, target, status: outcome.status, summary: outcome.summary, result_json: JSON.stringify(outcome.result), created_at: createdAt }
    const id = await this.deps.repo.insertKeeping(row, recentChecksKept(user))
    return { id, tool: normalized.tool, target, status: outcome.status, summary: outcome.summary, result: outcome.result, createdAt }
  }

  /** The user's kept checks, newest first, and how many the plan keeps (null: unlimited up to the cap). */
  async recent(user: Owner): Promise<{ items: ToolCheck[]; limit: number | null; cap: number }> {
    const kept = recentChecksKept(user)
    return { items: (await this.deps.repo.list(user.userId, kept)).map(toCheck), limit: user.plan === 'free' ? FREE_RECENT_CHECKS : null, cap: kept }
  }

  async get(user: Owner, id: number): Promise<ToolCheck> {
    const row = await this.deps.repo.find(user.userId, id)
    if (!row) throw notFound()
    return toCheck(row)
  }
}
