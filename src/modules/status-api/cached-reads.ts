/**
 * The HTTP shape of `GET /api/embed/status`, shared by its route and the fast lane: one `statusKey`
 * reads the URL once (query parsed in one pass, slug normalised), and the prepared answer (bytes,
 * weak ETag, `Cache-Control`, CORS) and its cache fill are built here from what the service returns.
 */
import type { Clock } from '../../lib/clock.ts'
import { errorFill, etagFor, LIVE_CACHE_CONTROL, type PreparedResponse, prepareJsonError, prepareWithoutEtag, type PublicCache, readThrough, serveMaybePending } from '../../lib/http-cache.ts'
import { carriesToken, memoizeByText } from '../../lib/memo.ts'
import type { CacheFill } from '../../lib/ttl-cache.ts'
import { ttlUntil } from '../status-pipeline/windows.ts'
import { slugForLookup } from '../status-pages/slug.ts'
import { parseStatusQuery, type StatusQuery } from './query.ts'
import type { StatusJson, StatusService } from './service.ts'

export const STATUS_PATH = '/api/embed/status'
export const STATUS_TTL_MS = 15_000
export const STATUS_CACHE_CONTROL = LIVE_CACHE_CONTROL
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
}

const encoder = new TextEncoder()
const errorBody = (status: number, error: string) => prepareJsonError(status, error, CORS_HEADERS)
const NOT_FOUND = errorBody(404, 'not found')

/** A status request read from its URL: the cache key and the query, or the 400 answer. */
export type StatusRequest = { key: string; slug: string; query: StatusQuery } | { refused: PreparedResponse }

/**
 * Reads a status JSON request URL once. Equivalent URLs (parameter order, `inc=0` or absent, the
 * slug's case, `lang` tags that get the same words) share a key; a malformed query is a 400, a
 * slug no page can have a 404.
 */
export const statusRequest: (url: string) => StatusRequest = memoizeByText(readStatusRequest, { keepOut: carriesToken })

function readStatusRequest(url: string): StatusRequest {
  const query = parseStatusQuery(url)
  if ('error' in query) return { refused: errorBody(400, query.error) }
  const slug = slugForLookup(query.slug)
  if (slug === undefined) return { refused: NOT_FOUND }
  const words = query.words ? `:${query.lang ?? 'page'}` : ''
  return { key: `status:${slug}:${query.inc ? 1 : 0}:${query.rtm}:${query.upd}${words}`, slug, query }
}

/** The cache key of a status JSON request URL, or undefined when it is refused before any lookup. */
export function statusKey(url: string): string | undefined {
  const read = statusRequest(url)
  return 'key' in read ? read.key : undefined
}

/**
 * The encoded status JSON with an ETag of everything but `updated`: the body is rebuilt (with a new
 * `updated`) whenever the 15 s cache entry expires, yet an unchanged status must keep its ETag so
 * that clients revalidate with a 304. Bytes differ while the meaning is the same, hence a weak ETag.
 */
export function prepareStatusJson(body: StatusJson): PreparedResponse {
  const text = JSON.stringify(body)
  const prepared = prepareWithoutEtag(200, text, {
    contentType: 'application/json; charset=utf-8',
    cacheControl: STATUS_CACHE_CONTROL,
    extraHeaders: CORS_HEADERS,
  })
  const etag = `W/${etagFor(encoder.encode(withoutUpdated(text)))}`
  return { ...prepared, etag, headers: { ...prepared.headers, etag } }
}

const UPDATED_MEMBER = ',"updated":"'

/**
 * The JSON text of the body without its `updated` member: exactly `JSON.stringify` of the body
 * without that key (key order is kept), cut from the text already encoded instead of encoding the
 * body twice. The first match is the member: inside a JSON string every quote is escaped, so the
 * unescaped quote after the comma can only open a key.
 */
export function withoutUpdated(text: string): string {
  const start = text.indexOf(UPDATED_MEMBER)
  if (start === -1) return text
  const end = text.indexOf('"', start + UPDATED_MEMBER.length)
  return text.slice(0, start) + text.slice(end + 1)
}

export class StatusJsonReads {
  constructor(
    private readonly status: StatusService,
    private readonly cache: PublicCache | undefined,
    private readonly clock: Clock,
  ) {}

  /** The fast lane: the prepared answer when it is cached; never touches the database. */
  cached(url: string): PreparedResponse | undefined {
    if (this.cache === undefined) return undefined
    const read = statusRequest(url)
    return 'key' in read ? this.cache.get(read.key) : undefined
  }

  /**
   * The fast lane's miss reader: the answer loaded (and cached) for a request the route would
   * answer the same way; undefined for a refused query, which the route answers (its 400 or 404).
   */
  missed(request: Request): Response | Promise<Response> | undefined {
    const read = statusRequest(request.url)
    if (!('key' in read)) return undefined
    const prepared = readThrough(this.cache, read.key, () => this.load(read.slug, read.query))
    return serveMaybePending(prepared, request.headers.get('if-none-match'))
  }

  /** The prepared answer for a request URL: refused, cached, or loaded and cached. */
  prepared(url: string): PreparedResponse | Promise<PreparedResponse> {
    const read = statusRequest(url)
    if ('refused' in read) return read.refused
    return readThrough(this.cache, read.key, () => this.load(read.slug, read.query))
  }

  private async load(slug: string, query: StatusQuery): Promise<CacheFill<PreparedResponse>> {
    try {
      const { body, pageId, computedAt, nextBoundary } = await this.status.statusJson(slug, query)
      return { value: prepareStatusJson(body), pageId, ttlMs: ttlUntil(nextBoundary, computedAt, STATUS_TTL_MS) }
    } catch (error) {
      return errorFill(error, errorBody, STATUS_TTL_MS)
    }
  }
}
