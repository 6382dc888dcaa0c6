/**
 * The figures behind `GET /metrics`, one set per app (tests build many apps in one process).
 *
 * Hot paths only bump plain numbers (`countRequest`, `cache.hits`, bucket counts): a cache hit
 * answered before the edge costs a few nanoseconds more, not a library call. A scrape reads what the
 * database holds (monitors, outbox queue, size) and writes everything in the text format
 * (exposition.ts); the process's runtime figures come from prom-client (runtime.ts), loaded only
 * when metrics are on.
 */
import { ByteWriter } from './byte-writer.ts'
import { BucketLayout, HistogramsBy, labelText, ExpositionWriter } from './exposition.ts'
import { MonitorMetrics, type MonitorSeriesSettings } from './monitor-metrics.ts'
import { OutboxMetrics } from './outbox-metrics.ts'
import { QueryTimer } from './query-timer.ts'
import type { MetricsRepo } from './repo.ts'
import { RUNTIME_VERSION, startRuntimeMetrics, writeRuntimeMetrics } from './runtime.ts'

/** Seconds; from a fast-lane hit (well under a millisecond) to a slow analytics report. */
const DURATION_BUCKETS = new BucketLayout([0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

interface RequestSlot {
  /** Written once: route, method and status. */
  readonly labels: string
  count: number
}

export interface MetricsSources {
  version: string
  /** Set when this process is one of several workers (WORKERS=N): every sample gets `worker`. */
  workerId?: number | undefined
  repo: MetricsRepo
  settings: MonitorSeriesSettings
  pageViewsBuffered(): number
  cacheEntries(): number
}

/** Cache lookups, counted by the cache itself (metered-cache.ts). */
export interface CacheCounts {
  hits: number
  /** Answers built because the cache had none (concurrent requests for one key share a build). */
  misses: number
}

export class AppMetrics {
  readonly cache: CacheCounts = { hits: 0, misses: 0 }
  /** Monitors: the recorder's result hook and the scheduler's observer feed it. */
  readonly monitors: MonitorMetrics
  /** Outbox: the worker's delivery listener feeds it. */
  readonly outbox: OutboxMetrics
  /** Database: a Kysely plugin on the application's handle. */
  readonly queries = new QueryTimer()
  readonly contentType = METRICS_CONTENT_TYPE
  /** Route → (status × 8 + method index) → slot: numeric keys, no string built per request. */
  private readonly requests = new Map<string, Map<number, RequestSlot>>()
  private readonly duration = new HistogramsBy<string>(DURATION_BUCKETS, (route) => labelText({ route }))
  private readonly constantLabels: string
  /**
   * Two buffers, scrape about: each scrape writes into one while the previous scrape's bytes, which
   * its unchanged lines are copied from, stay in the other.
   */
  private readonly buffers = [new ByteWriter(), new ByteWriter()] as const
  private scrapes = 0
  /** The scrape under way: the next one waits for it, so no buffer is written while another scrape still reads it. */
  private rendering: Promise<unknown> = Promise.resolve()

  constructor(private readonly sources: MetricsSources) {
    this.constantLabels = sources.workerId === undefined ? '' : labelText({ worker: String(sources.workerId) })
    this.monitors = new MonitorMetrics(sources.repo, sources.settings)
    this.outbox = new OutboxMetrics(sources.repo)
    // The runtime collector starts now, so event loop lag is sampled from the start.
    void startRuntimeMetrics()
  }

  /** One request answered; `route` must be a pattern or "other" (a bounded set). Cheap: plain numbers. */
  countRequest(route: string, method: string, status: number): void {
    let slots = this.requests.get(route)
    if (slots === undefined) this.requests.set(route, (slots = new Map()))
    const methodIndex = METHODS.indexOf(method) // -1: any other method
    const key = status * 8 + methodIndex + 1
    let slot = slots.get(key)
    if (slot === undefined) {
      const labels = labelText({ route, method: methodIndex === -1 ? 'other' : method, status: String(status) })
      slots.set(key, (slot = { labels, count: 0 }))
    }
    slot.count++
  }

  observeDuration(route: string, seconds: number): void {
    this.duration.observe(route, seconds)
  }

  /**
   * The exposition in Prometheus text format 0.0.4, as UTF-8, lent to `use` while it runs (e.g. to
   * make a Response, which copies it): the buffer is written again by a later scrape.
   */
  render<T>(use: (body: Uint8Array<ArrayBuffer>) => T): Promise<T> {
    const rendered = this.rendering.then(async () => use(await this.renderNow()))
    this.rendering = rendered.catch(() => undefined)
    return rendered
  }

  private async renderNow(): Promise<Uint8Array<ArrayBuffer>> {
    const out = new ExpositionWriter(this.constantLabels, this.buffers[this.scrapes++ % 2]!)
    out.family('lantern_http_requests_total', 'counter', 'HTTP requests by route pattern, method and status, cache hits answered before the edge included')
    for (const slots of this.requests.values()) for (const slot of slots.values()) out.sample('lantern_http_requests_total', slot.labels, slot.count)
    this.duration.write(out, 'lantern_http_request_duration_seconds', 'Time to answer, by route pattern, for requests handled by the app (cache hits answered before the edge are counted, not timed)')
    out.single('lantern_cache_hits_total', 'counter', 'Public answers (badges, status JSON, snippets, status pages) served from the in-process cache', this.cache.hits)
    out.single('lantern_cache_misses_total', 'counter', 'Public answers built from the database because the cache had none', this.cache.misses)
    out.single('lantern_cache_entries', 'gauge', 'Entries in the in-process cache of public answers', this.sources.cacheEntries())
    out.single('lantern_database_size_bytes', 'gauge', "Size of the database: SQLite's pages in use times page size (write-ahead log not included), or PostgreSQL's database", await this.sources.repo.databaseSizeBytes())
    out.single('lantern_page_views_buffered', 'gauge', 'Page views counted in memory and not yet written (written every 5 seconds)', this.sources.pageViewsBuffered())
    out.family('lantern_build_info', 'gauge', 'Always 1; the version of Lantern and of Bun as labels')
    out.sample('lantern_build_info', labelText({ version: this.sources.version, bun: RUNTIME_VERSION }), 1)
    this.queries.write(out)
    await this.monitors.write(out)
    await this.outbox.write(out)
    await writeRuntimeMetrics(out)
    return out.body()
  }
}
