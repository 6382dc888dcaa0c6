/**
 * The outbox worker: claims due rows (outbox-repo.ts, safe with several processes), sends mail
 * through the MailSender and webhooks through postDelivery, and records each result.
 *
 * - Retries: after a failed attempt the row waits RETRY_DELAYS_MIN[attempt - 1] minutes (1, 5, 30,
 *   120, 720); after the sixth failed attempt it is dead.
 * - Disabling: a target whose deliveries went dead DISABLE_AFTER_DEAD times in a row is disabled
 *   (what is still queued for it is given up) and the TargetDisabledHooks run in the same
 *   transaction; one success resets the count.
 * - A success runs the TargetSentHooks in the transaction that records it (a channel's test send
 *   verifies it there, before anything else may be fanned out to it).
 * - A slow receiver blocks nothing: at most `concurrency` deliveries are in flight, at most
 *   PER_TARGET_IN_FLIGHT claimed for one target, each bounded by its timeout.
 * - Order per target: a target's claimed deliveries are sent one after another, in the order they
 *   were queued, so a receiver sees "resolved" after "opened". A retry waits for its due time, so it
 *   may arrive after newer messages; with several servers two of them may send to one target at once.
 * - At least once: a row is marked sent after the send returned. A process killed in between
 *   leaves the row leased; it is sent again after the lease (or at once when the loop restarts).
 *   Mails keep the Message-ID they were queued with across attempts, so a receiver can tell a repeat.
 * - One outage, one chat message (contract.ts ChatThread, chat-threads.ts): the answer to an
 *   outage's first message on Discord or Telegram names the message; that is kept (outbox_threads,
 *   in the result's transaction, and in memory for the target's next delivery, which may follow
 *   before the results are written) and the outage's later messages edit it. An edit the service
 *   refuses (4xx: the message is gone) is sent as a new message instead.
 */
import type { Db } from '../../db/client.ts'
import { engineOf } from '../../db/engine.ts'
import type { TargetResult } from './tables.ts'
import type { AddressGuard } from '../../lib/address-guard.ts'
import type { Clock } from '../../lib/clock.ts'
import type { OutboundMail, OutboundRequest, TargetDisabledHook, TargetSentHook } from './contract.ts'
import { HTTP_DELIVERY_TIMEOUT_MS, postDelivery, type DeliveryOutcome } from './http-delivery.ts'
import { fromDomain, textAsHtml, type MailSender } from './mail.ts'
import { deliveryHistory, type TargetHistory } from './outbox.ts'
import { keepThread, OutboxRepo, pruneThreads, threadRefs, type ClaimedRow } from './outbox-repo.ts'
import { editRefused, editRequest, refsFrom, THREAD_RETENTION_MS, type ThreadRefs } from './chat-threads.ts'
import { signRequest, type SigningKeySource } from './webhook-signing.ts'

export const RETRY_DELAYS_MIN = [1, 5, 30, 120, 720] as const
export const DISABLE_AFTER_DEAD = 20
/** A claimed row is someone's for this long; longer than any send can take (SMTP socket timeout 30 s). */
export const LEASE_MS = 5 * 60_000
const PER_TARGET_IN_FLIGHT = 2
/** Results written in one transaction at most. */
const RESULT_BATCH = 200
/** First messages kept in memory at most (the database keeps them all). */
const RECENT_THREADS = 1_000
/** Kept first messages are pruned at most this often. */
const THREAD_PRUNE_EVERY_MS = 3_600_000
/** The header every mail carries with its outbox row id. */
export const DELIVERY_ID_HEADER = 'X-Lantern-Delivery'

export interface OutboxWorkerOptions {
  db: Db
  clock: Clock
  /** Undefined while mail is off: mail rows then fail and are retried. */
  mail: MailSender | undefined
  guard: AddressGuard
  userAgent: string
  /** Deliveries in flight at once (default 32; mail also waits for one of the 5 SMTP connections). */
  concurrency?: number
  /** Per-request timeout for webhooks and chat services (default 10 s). */
  httpTimeoutMs?: number
  /** How often the loop looks for due rows (default 1 s). */
  pollMs?: number
  onError?: (error: unknown) => void
}

/**
 * Work that writes outbox rows from something queued elsewhere (a pending subscriber fan-out),
 * run before each claim; resolves true while more of it remains.
 */
export type OutboxStep = () => Promise<boolean>

/** Hears each attempt once its result is committed: sent, failed (retried later) or dead (no retry left). */
export type DeliveryListener = (row: ClaimedRow, result: TargetResult) => void

export interface DrainCounts {
  sent: number
  /** Failed attempts that will be retried. */
  failed: number
  dead: number
}

export class OutboxWorker {
  private readonly repo: OutboxRepo
  private readonly hooks: TargetDisabledHook[] = []
  private readonly sentHooks: TargetSentHook[] = []
  private readonly steps: OutboxStep[] = []
  /** By target kind (`channel`, `subscriber`): where the signing secrets of its receivers are. */
  private readonly keySources = new Map<string, SigningKeySource>()
  private readonly deliveryListeners: DeliveryListener[] = []
  /** A step said more remains: drain() is not done yet. */
  private stepsPending = false
  private readonly inFlight = new Map<number, { target: string; sent: Promise<unknown>; done: Promise<void> }>()
  private readonly tally: DrainCounts = { sent: 0, failed: 0, dead: 0 }
  private readonly abort = new AbortController()
  private timer: ReturnType<typeof setInterval> | undefined
  private pumping: Promise<void> | undefined
  private pumpAgain = false
  private stopped = false
  private readonly results: { row: ClaimedRow; outcome: TimedOutcome; resolve: () => void; reject: (error: unknown) => void }[] = []
  private writing: Promise<void> | undefined
  private readonly concurrency: number
  private readonly refillAt: number
  private readonly httpTimeoutMs: number
  private readonly messageDomain: string
  /** First messages of outages just sent, `target thread-key` → names: read before their results are written. */
  private readonly recentThreads = new Map<string, ThreadRefs>()
  private threadsPrunedAt = Number.NEGATIVE_INFINITY

  constructor(private readonly options: OutboxWorkerOptions) {
    this.repo = new OutboxRepo(options.db)
    this.concurrency = options.concurrency ?? 32
    this.refillAt = Math.max(1, Math.floor(this.concurrency / 4))
    this.httpTimeoutMs = options.httpTimeoutMs ?? HTTP_DELIVERY_TIMEOUT_MS
    this.messageDomain = options.mail ? fromDomain(options.mail.from) : 'lantern.invalid'
  }

  /** Runs when a target is disabled (channels and subscribers tell the owner). */
  onTargetDisabled(hook: TargetDisabledHook): this {
    this.hooks.push(hook)
    return this
  }

  /**
   * Runs when a delivery to a target succeeded, in the transaction that records it (channels: a
   * test send verifies the channel). A failing hook fails the batch's transaction: its results are
   * not written and the rows are sent again after their lease, so the success and what the hook
   * writes are committed together or not at all.
   */
  onTargetSent(hook: TargetSentHook): this {
    this.sentHooks.push(hook)
    return this
  }

  /** Hears each attempt's committed result (metrics); a listener must not throw. */
  onDelivered(listener: DeliveryListener): this {
    this.deliveryListeners.push(listener)
    return this
  }

  /** Runs `step` before each claim, in the loop and in drain() (pending fan-outs become rows). */
  beforeClaim(step: OutboxStep): this {
    this.steps.push(step)
    return this
  }

  /** Signs requests marked `signed` to targets `<kind>:<id>` at each attempt, with the keys `source` gives. */
  signRequestsWith(kind: string, source: SigningKeySource): this {
    this.keySources.set(kind, source)
    return this
  }

  /** Looks for work now instead of at the next tick (only while the loop runs). */
  wake(): void {
    if (this.timer !== undefined && !this.stopped) setTimeout(() => void this.pump(), 0)
  }

  /** Last result per target, for the owner screens. */
  deliveryHistory(targets: readonly string[]): Promise<Map<string, TargetHistory>> {
    return deliveryHistory(this.options.db, targets)
  }

  /** Delivers everything due at the clock's now, retries included when due, and returns what happened. */
  async drain(): Promise<DrainCounts> {
    const before = { ...this.tally }
    for (;;) {
      await this.pump()
      // A stopped worker runs no steps: their "more remains" would never change.
      if (this.inFlight.size === 0 && (!this.stepsPending || this.stopped)) break
      if (this.inFlight.size === 0) continue
      await Promise.race([...this.inFlight.values()].map((entry) => entry.done))
    }
    return { sent: this.tally.sent - before.sent, failed: this.tally.failed - before.failed, dead: this.tally.dead - before.dead }
  }

  /**
   * The production loop: on SQLite frees leases a killed predecessor left (there one process runs
   * the loop: with WORKERS=N worker 1), then looks for due rows every `pollMs` and whenever a
   * delivery finishes. On PostgreSQL every app server runs the loop, so a server that starts must
   * not free the leases of rows another live server is sending (they would go out twice): a killed
   * server's leases lapse on their own.
   */
  async start(): Promise<void> {
    if (engineOf(this.options.db) === 'sqlite') await this.repo.releaseAll()
    this.timer = setInterval(() => void this.pump(), this.options.pollMs ?? 1000)
    void this.pump()
  }

  /**
   * Stops claiming; deliveries in flight get `graceMs` to finish, the rest are aborted and go back
   * to the queue (they are sent again on the next start). Then the mail pool is closed.
   */
  async stop(graceMs = 5_000): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    clearInterval(this.timer)
    await this.pumping
    const pending = [...this.inFlight.values()].map((entry) => entry.done)
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([Promise.all(pending), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))])
    clearTimeout(timer)
    if (this.inFlight.size > 0) {
      const ids = [...this.inFlight.keys()]
      this.inFlight.clear()
      this.abort.abort()
      await this.repo.release(ids).catch((error) => this.reportError(error))
    }
    // Results already being written are committed before the caller closes the database.
    while (this.writing) await this.writing
    await this.options.mail?.close()
  }

  /** Claims as many due rows as there are free slots and starts them; one pump at a time. */
  private pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true
      return this.pumping
    }
    // `.finally` runs in a later turn, after the assignment, even when claimRows returns at once.
    const run = this.claimRows().finally(() => {
      if (this.pumping === run) this.pumping = undefined
    })
    this.pumping = run
    return run
  }

  private async claimRows(): Promise<void> {
    try {
      do {
        this.pumpAgain = false
        if (this.stopped) return
        const free = this.concurrency - this.inFlight.size
        // Claim in batches (each claim is a write): wait until a quarter of the slots are free.
        if (free <= 0 || (this.inFlight.size > 0 && free < this.refillAt)) return
        await this.runSteps()
        const now = this.options.clock.now()
        const rows = await this.repo.claim(now, now + LEASE_MS, free, this.busyTargets())
        for (const row of rows) this.begin(row)
        // More to expand: go on while slots are free (the next turn returns when they are not).
        if (this.stepsPending) this.pumpAgain = true
      } while (this.pumpAgain)
    } catch (error) {
      this.reportError(error)
    }
  }

  private async runSteps(): Promise<void> {
    let pending = false
    for (const step of this.steps) {
      try {
        if (await step()) pending = true
      } catch (error) {
        // A failing step is tried again on the next pump; it does not stop the deliveries.
        this.reportError(error)
      }
    }
    this.stepsPending = pending
  }

  private busyTargets(): string[] {
    const counts = new Map<string, number>()
    for (const { target } of this.inFlight.values()) counts.set(target, (counts.get(target) ?? 0) + 1)
    return [...counts].filter(([, count]) => count >= PER_TARGET_IN_FLIGHT).map(([target]) => target)
  }

  private begin(row: ClaimedRow): void {
    // The target's delivery started last (Map order is start order): this one goes after it.
    let before: Promise<unknown> | undefined
    for (const entry of this.inFlight.values()) if (entry.target === row.target) before = entry.sent
    const sending = (async () => {
      await before
      // A stop that gave up on this row meanwhile already put it back in the queue.
      return this.inFlight.has(row.id) ? this.send(row) : undefined
    })()
    const done = (async () => {
      const outcome = await sending
      // A stop that gave up on this row already put it back in the queue.
      if (!outcome || !this.inFlight.has(row.id)) return
      try {
        await this.record(row, outcome)
      } catch (error) {
        this.reportError(error)
      } finally {
        this.inFlight.delete(row.id)
      }
      if (!this.stopped) void this.pump()
    })()
    this.inFlight.set(row.id, { target: row.target, sent: sending, done })
  }

  /** One attempt, timed (the delivery log shows how long the receiver took). */
  private async send(row: ClaimedRow): Promise<TimedOutcome> {
    const started = performance.now()
    const outcome = await this.attempt(row)
    return { ...outcome, latencyMs: performance.now() - started }
  }

  private async attempt(row: ClaimedRow): Promise<AttemptOutcome> {
    try {
      const payload = JSON.parse(row.payload_json) as { mail?: OutboundMail; request?: OutboundRequest }
      if (row.kind === 'mail' && payload.mail) {
        if (!this.options.mail) return { ok: false, error: 'mail is off (SMTP_HOST is not set)' }
        await this.options.mail.send({
          ...payload.mail,
          html: payload.mail.html ?? textAsHtml(payload.mail.subject, payload.mail.text),
          headers: { ...payload.mail.headers, [DELIVERY_ID_HEADER]: String(row.id) },
          // Rows queued before Message-IDs were stored with the mail get one derived from the row.
          messageId: payload.mail.messageId ?? `<outbox.${row.id}@${this.messageDomain}>`,
        })
        return { ok: true }
      }
      if (row.kind === 'http' && payload.request) {
        let request = payload.request
        const http = { guard: this.options.guard, timeoutMs: this.httpTimeoutMs, userAgent: this.options.userAgent, signal: this.abort.signal }
        const thread = request.thread
        if (thread?.edit) {
          // A later message of an outage whose first message is known: that message is edited.
          const refs = this.recentThreads.get(`${row.target} ${thread.key}`) ?? (await threadRefs(this.options.db, row.target, thread.key))
          if (refs) {
            const edited = await postDelivery(editRequest(thread.edit, refs, request.headers), http)
            if (edited.ok || !editRefused(edited.status, edited.refusal)) return edited
          }
        }
        if (request.signed) {
          const source = this.keySources.get(row.target.slice(0, row.target.indexOf(':')))
          const keys = source && (await source(row.target))
          if (!keys) return { ok: false, error: 'the receiver or its signing secret is gone' }
          // Rows from before message ids were stored: one derived from the row, stable all the same.
          request = await signRequest(request, keys, row.message_id ?? `msg_outbox_${row.id}`, this.options.clock.now())
        }
        const outcome = await postDelivery(request, { ...http, readBody: thread?.keep !== undefined })
        const refs = outcome.ok && thread?.keep ? refsFrom(outcome.body, thread.keep) : undefined
        if (!refs || !thread) return outcome
        this.rememberThread(`${row.target} ${thread.key}`, refs)
        return { ...outcome, kept: { key: thread.key, refs } }
      }
      return { ok: false, error: `unreadable ${row.kind} delivery` }
    } catch (error) {
      return { ok: false, error: clip((error as Error).message || String(error)) }
    }
  }

  private rememberThread(key: string, refs: ThreadRefs): void {
    this.recentThreads.delete(key)
    this.recentThreads.set(key, refs)
    // Map order is insertion order: the oldest goes first.
    if (this.recentThreads.size > RECENT_THREADS) this.recentThreads.delete(this.recentThreads.keys().next().value!)
  }

  /**
   * Results are written in batches: every result that finished while the previous batch was being
   * written goes into the next transaction (one commit for many mails, not one each).
   */
  private record(row: ClaimedRow, outcome: TimedOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.results.push({ row, outcome, resolve, reject })
      this.scheduleWrite()
    })
  }

  private scheduleWrite(): void {
    if (this.writing) return
    this.writing = this.writeResults().finally(() => {
      this.writing = undefined
      // A result that arrived after the last batch was taken, while this one was finishing.
      if (this.results.length > 0) this.scheduleWrite()
    })
  }

  private async writeResults(): Promise<void> {
    // Starts in the next turn so that results finishing together share a transaction.
    await Promise.resolve()
    while (this.results.length > 0) {
      const batch = this.results.splice(0, RESULT_BATCH)
      const counted: DrainCounts = { sent: 0, failed: 0, dead: 0 }
      const written: Array<[ClaimedRow, TargetResult]> = []
      try {
        await this.options.db.transaction().execute(async (trx) => {
          for (const { row, outcome } of batch) {
            const deadBefore = counted.dead
            await this.writeResult(trx, row, outcome, counted)
            written.push([row, outcome.ok ? 'sent' : counted.dead > deadBefore ? 'dead' : 'failed'])
          }
        })
        this.tally.sent += counted.sent
        this.tally.failed += counted.failed
        this.tally.dead += counted.dead
        for (const [row, result] of written) for (const listener of this.deliveryListeners) listener(row, result)
        for (const entry of batch) entry.resolve()
      } catch (error) {
        for (const entry of batch) entry.reject(error)
      }
    }
  }

  private async writeResult(trx: Db, row: ClaimedRow, outcome: TimedOutcome, counted: DrainCounts): Promise<void> {
    const now = this.options.clock.now()
    const attempt = { statusCode: outcome.status ?? null, latencyMs: outcome.latencyMs }
    if (outcome.ok) {
      await this.repo.markSent(trx, row, now, attempt)
      for (const hook of this.sentHooks) await hook(trx, row.target, now)
      if (outcome.kept) {
        await keepThread(trx, row.target, outcome.kept.key, outcome.kept.refs, now)
        if (now - this.threadsPrunedAt >= THREAD_PRUNE_EVERY_MS) {
          this.threadsPrunedAt = now
          await pruneThreads(trx, now - THREAD_RETENTION_MS)
        }
      }
      counted.sent++
      return
    }
    const delay = RETRY_DELAYS_MIN[row.attempts]
    const retryAt = delay === undefined ? undefined : now + delay * 60_000
    const deadInARow = await this.repo.markFailed(trx, row, outcome.error, now, retryAt, attempt)
    if (retryAt === undefined && deadInARow >= DISABLE_AFTER_DEAD && (await this.repo.disableTarget(trx, row.target, now))) {
      for (const hook of this.hooks) {
        // One failing hook must not undo the disabling or stop the others.
        await hook(trx, row.target).catch((error) => this.reportError(error))
      }
    }
    if (retryAt === undefined) counted.dead++
    else counted.failed++
  }

  private reportError(error: unknown): void {
    ;(this.options.onError ?? ((e) => console.error('[lantern] outbox:', e)))(error)
  }
}

/** An attempt's outcome; `kept`: the first message of an outage, as the chat service named it. */
type AttemptOutcome = DeliveryOutcome & { kept?: { key: string; refs: ThreadRefs } }
type TimedOutcome = AttemptOutcome & { latencyMs: number }

const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text)
