/**
 * The figures behind `GET /metrics`, in a prom-client Registry of their own per app (tests build
 * many apps in one process; the library's global registry would mix them up or refuse duplicates).
 *
 * Hot paths only bump plain numbers (`countRequest`, `cache.hits`): a cache hit answered before the
 * edge costs a few nanoseconds more, not a labelled prom-client call. The counters copy those numbers
 * into prom-client when Prometheus scrapes (`collect`), which is what prom-client's collect is for.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client'

/** Seconds; from a fast-lane hit (well under a millisecond) to a slow analytics report. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

type RequestLabels = { route: string; method: string; status: string }

interface RequestSlot {
  readonly labels: RequestLabels
  count: number
  /** How much of `count` prom-client already has. */
  reported: number
}

export interface MetricsSources {
  version: string
  /** Set when this process is one of several workers (WORKERS=N): every sample gets `worker`. */
  workerId?: number | undefined
  databaseSizeBytes(): Promise<number>
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
  readonly registry = new Registry()
  readonly cache: CacheCounts = { hits: 0, misses: 0 }
  /** Route → (status × 8 + method index) → slot: numeric keys, no string built per request. */
  private readonly requests = new Map<string, Map<number, RequestSlot>>()
  private readonly duration: Histogram<'route'>

  constructor(sources: MetricsSources) {
    const registers = [this.registry]
    if (sources.workerId !== undefined) this.registry.setDefaultLabels({ worker: String(sources.workerId) })
    const requests = this.requests
    const cache = this.cache

    new Counter({
      name: 'lantern_http_requests_total',
      help: 'HTTP requests by route pattern, method and status, cache hits answered before the edge included',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
      collect() {
        for (const slots of requests.values()) {
          for (const slot of slots.values()) {
            if (slot.count === slot.reported) continue
            this.inc(slot.labels, slot.count - slot.reported)
            slot.reported = slot.count
          }
        }
      },
    })
    this.duration = new Histogram({
      name: 'lantern_http_request_duration_seconds',
      help: 'Time to answer, by route pattern, for requests handled by the app (cache hits answered before the edge are counted, not timed)',
      labelNames: ['route'] as const,
      buckets: DURATION_BUCKETS,
      registers,
    })
    countFrom('lantern_cache_hits_total', 'Public answers (badges, status JSON, snippets, status pages) served from the in-process cache', () => cache.hits, registers)
    countFrom('lantern_cache_misses_total', 'Public answers built from the database because the cache had none', () => cache.misses, registers)
    new Gauge({
      name: 'lantern_cache_entries',
      help: 'Entries in the in-process cache of public answers',
      registers,
      collect() {
        this.set(sources.cacheEntries())
      },
    })
    new Gauge({
      name: 'lantern_database_size_bytes',
      help: 'Size of the SQLite database (pages in use times page size, write-ahead log not included)',
      registers,
      async collect() {
        this.set(await sources.databaseSizeBytes())
      },
    })
    new Gauge({
      name: 'lantern_page_views_buffered',
      help: 'Page views counted in memory and not yet written (written every 5 seconds)',
      registers,
      collect() {
        this.set(sources.pageViewsBuffered())
      },
    })
    new Gauge({ name: 'lantern_build_info', help: 'Always 1; the version as a label', labelNames: ['version'] as const, registers }).set({ version: sources.version }, 1)
  }

  /** One request answered; `route` must be a pattern or "other" (a bounded set). Cheap: plain numbers. */
  countRequest(route: string, method: string, status: number): void {
    let slots = this.requests.get(route)
    if (slots === undefined) this.requests.set(route, (slots = new Map()))
    const methodIndex = METHODS.indexOf(method) // -1: any other method
    const key = status * 8 + methodIndex + 1
    let slot = slots.get(key)
    if (slot === undefined) {
      const labels = { route, method: methodIndex === -1 ? 'other' : method, status: String(status) }
      slots.set(key, (slot = { labels, count: 0, reported: 0 }))
    }
    slot.count++
  }

  observeDuration(route: string, seconds: number): void {
    this.duration.observe({ route }, seconds)
  }

  get contentType(): string {
    return this.registry.contentType
  }

  /** The exposition in Prometheus text format 0.0.4. */
  render(): Promise<string> {
    return this.registry.metrics()
  }
}

/** A counter fed from a plain running number (bumped on the hot path): each scrape adds what is new. */
function countFrom(name: string, help: string, read: () => number, registers: Registry[]): void {
  let reported = 0
  new Counter({
    name,
    help,
    registers,
    collect() {
      const now = read()
      this.inc(now - reported)
      reported = now
    },
  })
}
