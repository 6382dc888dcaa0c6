/**
 * Privacy-first page-view counting. No cookie is set and no address is stored: a visitor is a
 * SHA-256 of (the day's random salt, page, address, user agent); the salt is created per UTC day
 * and deleted with that day's hashes once the day is over, so nobody (not even the operator) can
 * link visits across days or recompute an address. Bots and prefetches are not counted. Views while
 * the page has an active incident or maintenance also count as incident-period views.
 *
 * `record` only appends to an in-memory buffer (the page answers at once); `flush` writes the buffer
 * in one transaction, run by a timer in main.ts and at shutdown.
 */
import type { Clock } from '../../lib/clock.ts'
import { randomToken, sha256Hex } from '../../lib/crypto.ts'
import { isBotRequest } from './bots.ts'
import type { AnalyticsRepo } from './repo.ts'
import { dayOf } from './rollup.ts'

interface PendingView {
  pageId: number
  day: number
  /** Address and user agent; held in memory until the next flush, never written. */
  visitor: string
  /** Undefined: decided when the batch is written, from the page's incidents and maintenance. */
  duringIncident: boolean | undefined
}

export interface RecordOptions {
  /** The client's address (behind a trusted proxy, the forwarded one); else X-Forwarded-For, else none. */
  clientAddress?: string
  /** Whether the page has an active incident or maintenance; when omitted, looked up at the next flush. */
  duringIncident?: boolean
}

export class PageViewCounter {
  private buffer: PendingView[] = []
  private readonly salts = new Map<number, string>()
  /** The day whose older salts and hashes this counter last deleted: once per day is enough. */
  private forgottenBefore: number | undefined
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private readonly repo: AnalyticsRepo,
    private readonly clock: Clock,
    private readonly options: { maxBuffer?: number; onError?: (error: unknown) => void } = {},
  ) {}

  /** Counts a view of page `pageId` unless it is a bot; returns whether it was counted. Never throws. */
  record(pageId: number, request: Request, options: RecordOptions = {}): boolean {
    if (request.method !== 'GET' || isBotRequest(request)) return false
    const forwarded = request.headers.get('x-forwarded-for')?.split(',').pop()?.trim()
    const address = options.clientAddress || forwarded || ''
    const agent = request.headers.get('user-agent') ?? ''
    this.buffer.push({ pageId, day: dayOf(this.clock.now()), visitor: `${address}\n${agent}`, duringIncident: options.duringIncident })
    if (this.buffer.length >= (this.options.maxBuffer ?? 5000)) void this.flush()
    return true
  }

  get pending(): number {
    return this.buffer.length
  }

  /** Writes everything buffered so far; concurrent calls run one after the other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() =>
      this.write().catch((error) => (this.options.onError ?? ((e) => console.error('[lantern] page views:', e)))(error)),
    )
    return this.flushing
  }

  private async saltFor(day: number): Promise<string> {
    let salt = this.salts.get(day)
    if (salt === undefined) {
      salt = (await this.repo.salt(day))?.salt ?? (await this.repo.insertSalt(day, randomToken(32)))
      this.salts.set(day, salt)
    }
    return salt
  }

  private async write(): Promise<void> {
    const views = this.buffer
    this.buffer = []
    const today = dayOf(this.clock.now())
    if (this.forgottenBefore !== today) {
      for (const day of this.salts.keys()) if (day < today) this.salts.delete(day)
      await this.repo.forgetBefore(today)
      this.forgottenBefore = today
    }
    if (views.length === 0) return
    const live = new Set((await this.repo.existingPageIds([...new Set(views.map((v) => v.pageId))])).map((p) => p.id))
    const undecided = [...new Set(views.filter((v) => v.duringIncident === undefined).map((v) => v.pageId))]
    const troubled = new Set(undecided.length > 0 ? (await this.repo.pagesWithActiveIncident(undecided, this.clock.now())).map((p) => p.id) : [])
    for (const view of views) view.duringIncident ??= troubled.has(view.pageId)
    const visitors: Array<{ day: number; page_id: number; kind: number; hash: string }> = []
    const hashes = new Map<string, string>()
    const duringIncident = new Set<string>()
    const totals = new Map<string, { page_id: number; day: number; views: number; uniques: number; incident_views: number; incident_uniques: number }>()
    for (const view of views) {
      if (!live.has(view.pageId)) continue
      const key = `${view.pageId}:${view.day}`
      let total = totals.get(key)
      if (!total) totals.set(key, (total = { page_id: view.pageId, day: view.day, views: 0, uniques: 0, incident_views: 0, incident_uniques: 0 }))
      total.views++
      if (view.duringIncident) total.incident_views++
      // A view buffered just before midnight but written after it has lost its salt: count it, not its visitor.
      if (view.day < today) continue
      // A visitor is hashed and written once per batch, however many views it made (a busy page's
      // views come mostly from returning visitors): the rows are the same, so the uniques are too.
      const seen = `${view.day}\n${view.pageId}\n${view.visitor}`
      let hash = hashes.get(seen)
      if (hash === undefined) {
        hash = (await sha256Hex(`${await this.saltFor(view.day)}\n${view.pageId}\n${view.visitor}`)).slice(0, 32)
        hashes.set(seen, hash)
        visitors.push({ day: view.day, page_id: view.pageId, kind: 0, hash })
      }
      if (view.duringIncident && !duringIncident.has(seen)) {
        duringIncident.add(seen)
        visitors.push({ day: view.day, page_id: view.pageId, kind: 1, hash })
      }
    }
    await this.repo.transaction(async (repo) => {
      for (const fresh of await repo.insertVisitors(visitors)) {
        const total = totals.get(`${fresh.page_id}:${fresh.day}`)
        if (!total) continue
        if (fresh.kind === 0) total.uniques++
        else total.incident_uniques++
      }
      for (const total of totals.values()) await repo.addPageViews(total)
    })
  }
}
