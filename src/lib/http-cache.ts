/**
 * Public read paths answer from pre-encoded responses: the bytes, their strong ETag and the headers
 * are computed once when the cache is filled, so a hit only builds a Response around them.
 */
import type { Clock } from './clock.ts'
import { HttpError, PageHttpError } from './errors.ts'
import { TtlCache, type CacheFill, type TtlCacheOptions } from './ttl-cache.ts'

const encoder = new TextEncoder()

/** The shared cache of public answers (`app.publicCache`); entries are tagged with their page. */
export type PublicCache = TtlCache<PreparedResponse>

export const PUBLIC_CACHE_MAX_ENTRIES = 10_000
/**
 * 32 MiB of estimated entry size (see `preparedSize`): room for the 10,000 entries at 3 KB each on
 * average (a badge is about 2 KB, a status JSON with history 3–10 KB, a page's HTML more), so only
 * large answers make the bytes bind first. The process's resident memory grows by about twice the
 * estimate (allocator slack), measured with badges.
 */
export const PUBLIC_CACHE_MAX_BYTES = 32 * 1024 * 1024
/**
 * How long a "no such page" answer is kept. Creating, renaming or showing a page drops them at once
 * (ChangeFeed `lookups`); the lifetime only bounds what the feed cannot see.
 */
export const NEGATIVE_TTL_MS = 10_000
/**
 * Answers that show a page's current status (badges, status JSON, the Statuspage-style JSON, the
 * page's HTML): browsers, image proxies and CDNs may keep them but must ask again before each use.
 * The ask is cheap (ETag → 304 from the server's cache, which every change empties at once), and a
 * status change reaches every reader on their next request instead of after a max-age.
 */
export const LIVE_CACHE_CONTROL = 'public, no-cache'
/** What an answer for a page that does not exist may be kept for by clients and image proxies. */
export const NEGATIVE_CACHE_CONTROL = `public, max-age=${NEGATIVE_TTL_MS / 1000}`

/**
 * Approximate bytes an entry holds: the body, the key (as UTF-16 at worst), the header texts and a
 * fixed 512 for the objects around them (the entry, the Map slot, the prepared answer, the headers
 * record, the byte array). Measured with 20,000 badges: 2,131 bytes of heap each, estimated 2,190.
 */
export function preparedSize(key: string, prepared: PreparedResponse): number {
  let headers = 0
  for (const name in prepared.headers) headers += name.length + prepared.headers[name]!.length
  return prepared.body.byteLength + 2 * key.length + headers + 512
}

/** The shared public cache, bounded by entries and by estimated bytes. */
/** The public cache's bounds and lifetimes; `createPublicCache` builds it (metrics wrap the same options). */
export function publicCacheOptions(options: { clock: Clock; maxEntries?: number; maxBytes?: number }): TtlCacheOptions<PreparedResponse> {
  return {
    maxEntries: options.maxEntries ?? PUBLIC_CACHE_MAX_ENTRIES,
    maxBytes: options.maxBytes ?? PUBLIC_CACHE_MAX_BYTES,
    sizeOf: preparedSize,
    defaultTtlMs: 60_000,
    negativeTtlMs: NEGATIVE_TTL_MS,
    clock: options.clock,
  }
}

export function createPublicCache(options: { clock: Clock; maxEntries?: number; maxBytes?: number }): PublicCache {
  return new TtlCache<PreparedResponse>(publicCacheOptions(options))
}

export interface PreparedResponse {
  readonly status: number
  readonly body: Uint8Array<ArrayBuffer>
  /** Present on cacheable successes; conditional requests with it answer 304. */
  readonly etag: string | undefined
  readonly headers: Readonly<Record<string, string>>
}

/**
 * The strong ETag of a body: its length and a 64-bit hash of its bytes. A validator only has to
 * change when the bytes do, so no cryptographic digest is needed (nobody gains by forging a tag for
 * bytes they could fetch). Synchronous and in plain TS: `crypto.subtle.digest` costs a promise
 * round trip per answer, about 8 µs on a 700-byte status JSON where this takes under 1 µs, and is no
 * faster on 200 KB pages (measured: ~0.7 ns per byte for both). Stable across processes and
 * platforms (the bytes are read little-endian by hand), so clients keep their 304s after a restart.
 */
export function etagFor(body: Uint8Array): string {
  return `"${body.byteLength.toString(36)}-${hash64Hex(body)}"`
}

const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r))

/**
 * Two 32-bit lanes over the body's little-endian words, each a murmur3-style step with its own
 * constants, then murmur3's and a second finaliser so every input bit reaches every output bit.
 */
export function hash64Hex(bytes: Uint8Array): string {
  const length = bytes.byteLength
  const wordsEnd = length & ~3
  let h1 = 0x9e3779b1 ^ length
  let h2 = 0x85ebca77 ^ length
  for (let i = 0; i < wordsEnd; i += 4) {
    const k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)
    h1 = (Math.imul(rotl(Math.imul(h1 ^ k, 0x85ebca6b), 13), 5) + 0xe6546b64) | 0
    h2 = (Math.imul(rotl(Math.imul(h2 ^ k, 0xcc9e2d51), 17), 0x1b873593) + 0x52dce729) | 0
  }
  for (let i = wordsEnd; i < length; i++) {
    h1 = Math.imul(rotl(h1 ^ bytes[i]!, 11), 0x85ebca6b)
    h2 = Math.imul(rotl(h2 ^ bytes[i]!, 7), 0xcc9e2d51)
  }
  // Each lane's final state feeds the other, then both are finalised.
  h1 ^= h2 >>> 1
  h2 ^= h1 >>> 3
  h1 ^= h1 >>> 16
  h1 = Math.imul(h1, 0x85ebca6b)
  h1 ^= h1 >>> 13
  h1 = Math.imul(h1, 0xc2b2ae35)
  h1 ^= h1 >>> 16
  h2 ^= h2 >>> 15
  h2 = Math.imul(h2, 0x2c1b3c6d)
  h2 ^= h2 >>> 12
  h2 = Math.imul(h2, 0x297a2d39)
  h2 ^= h2 >>> 15
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0')
}

/** True when an `If-None-Match` header value matches `etag` (weak comparison, as RFC 9110 asks for GET). */
export function ifNoneMatchHits(headerValue: string | null, etag: string): boolean {
  if (!headerValue) return false
  const wanted = etag.replace(/^W\//, '')
  for (const candidate of headerValue.split(',')) {
    const tag = candidate.trim()
    if (tag === '*' || tag.replace(/^W\//, '') === wanted) return true
  }
  return false
}

interface PrepareOptions {
  contentType: string
  cacheControl: string
  extraHeaders?: Record<string, string>
}

/**
 * Encodes a body once, with a strong ETag. `cacheControl` applies to successes; errors are never
 * stored by clients (`no-store`), so a page created a moment later is not hidden behind a cached 404.
 */
export async function prepareResponse(status: number, body: string | Uint8Array, options: PrepareOptions): Promise<PreparedResponse> {
  const prepared = prepareWithoutEtag(status, body, options)
  if (status < 200 || status >= 300) return prepared
  const etag = etagFor(prepared.body)
  return { ...prepared, etag, headers: { ...prepared.headers, etag } }
}

/** The same without an ETag, synchronously: for error answers, which are never revalidated. */
export function prepareWithoutEtag(status: number, body: string | Uint8Array, options: PrepareOptions): PreparedResponse {
  const bytes = (typeof body === 'string' ? encoder.encode(body) : body) as Uint8Array<ArrayBuffer>
  const ok = status >= 200 && status < 300
  const headers: Record<string, string> = {
    'content-type': options.contentType,
    'cache-control': ok ? options.cacheControl : 'no-store',
    // Baked in, so that answers served straight from the cache carry it without a header write.
    'x-content-type-options': 'nosniff',
    ...options.extraHeaders,
  }
  return { status, body: bytes, etag: undefined, headers }
}

/** A static answer prepared once in each encoding a client may ask for, each with its own ETag. */
export interface EncodedResponses {
  plain: PreparedResponse
  gzip: PreparedResponse
}

async function gzipped(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/**
 * A static text body (scripts, stylesheets) prepared plain and gzip-encoded (a third to a fifth of
 * the bytes), both varying on Accept-Encoding. `forEncoding` picks the one a request takes.
 */
export async function prepareEncoded(body: string | Uint8Array, options: PrepareOptions): Promise<EncodedResponses> {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body
  const headers = { ...options.extraHeaders, vary: 'Accept-Encoding' }
  const [plain, gzip] = await Promise.all([
    prepareResponse(200, bytes, { ...options, extraHeaders: headers }),
    gzipped(bytes).then((zipped) => prepareResponse(200, zipped, { ...options, extraHeaders: { ...headers, 'content-encoding': 'gzip' } })),
  ])
  return { plain, gzip }
}

/** gzip when the request's Accept-Encoding lists it (and not with q=0), else the plain bytes. */
export function forEncoding(encoded: EncodedResponses, acceptEncoding: string | null): PreparedResponse {
  const gzip = acceptEncoding?.split(',').some((part) => {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';')
    return (coding.trim() === 'gzip' || coding.trim() === '*') && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))
  })
  return gzip ? encoded.gzip : encoded.plain
}

const JSON_TYPE = 'application/json; charset=utf-8'

export const prepareJson = (
  status: number,
  value: unknown,
  options: { cacheControl: string; extraHeaders?: Record<string, string> },
): Promise<PreparedResponse> => prepareResponse(status, JSON.stringify(value), { contentType: JSON_TYPE, ...options })

/** A prepared `{"error": message}` answer (never cached by clients). */
export const prepareJsonError = (status: number, message: string, extraHeaders?: Record<string, string>): PreparedResponse =>
  prepareWithoutEtag(status, JSON.stringify({ error: message }), { contentType: JSON_TYPE, cacheControl: 'no-store', extraHeaders })

/**
 * A hot read through the public cache: the entry at once on a hit, else `load` fills it (once for
 * concurrent misses). Without a cache (`publicCache: false`) every call loads.
 */
export function readThrough(
  cache: PublicCache | undefined,
  key: string,
  load: () => Promise<CacheFill<PreparedResponse>>,
): PreparedResponse | Promise<PreparedResponse> {
  if (cache === undefined) return load().then((fill) => fill.value)
  return cache.get(key) ?? cache.getOrLoad(key, load)
}

/**
 * The cache fill for a coded error a service threw while loading a hot read: "no such page" is a
 * negative answer (kept briefly, dropped when a page appears); a refusal about a page (its plan) is
 * tagged with the page, so a change to it drops the answer. Anything else is not an answer.
 */
export function errorFill(
  error: unknown,
  prepare: (status: number, message: string) => PreparedResponse,
  ttlMs?: number,
): CacheFill<PreparedResponse> {
  if (error instanceof PageHttpError) return { value: prepare(error.status, error.message), pageId: error.pageId, ttlMs }
  if (error instanceof HttpError && error.status === 404) return { value: prepare(404, error.message), negative: true }
  throw error
}

/** Serves a value that may still be loading without an extra await on the (common) cached path. */
export function serveMaybePending(prepared: PreparedResponse | Promise<PreparedResponse>, ifNoneMatch: string | null) {
  return prepared instanceof Promise ? prepared.then((p) => servePrepared(p, ifNoneMatch)) : servePrepared(prepared, ifNoneMatch)
}

/**
 * Serves prepared answers with their headers as `Headers` objects built once per answer (a Response
 * copies a `Headers` about six times faster than it converts a plain record), with `baked` headers
 * added to each (the edge's HSTS and worker id, so that a cache hit needs no header write: setting
 * one on a built Response costs as much as building it). The copy is the Response's own.
 */
export class PreparedAnswers {
  private readonly headers = new WeakMap<PreparedResponse, Headers>()

  constructor(private readonly baked: Readonly<Record<string, string>> = {}) {}

  /** The Response for a prepared body, or a bodiless 304 when the client already holds these bytes. */
  serve(prepared: PreparedResponse, ifNoneMatch: string | null): Response {
    let headers = this.headers.get(prepared)
    if (headers === undefined) {
      headers = new Headers({ ...prepared.headers, ...this.baked })
      this.headers.set(prepared, headers)
    }
    if (prepared.etag !== undefined && ifNoneMatch !== null && ifNoneMatchHits(ifNoneMatch, prepared.etag)) {
      return new Response(null, { status: 304, headers })
    }
    // An explicit status costs almost as much again as the Response itself: 200 is the default.
    return prepared.status === 200 ? new Response(prepared.body, { headers }) : new Response(prepared.body, { status: prepared.status, headers })
  }
}

const plainAnswers = new PreparedAnswers()

/** The Response for a prepared body, or a bodiless 304 when the client already holds these bytes. */
export function servePrepared(prepared: PreparedResponse, ifNoneMatch: string | null): Response {
  return plainAnswers.serve(prepared, ifNoneMatch)
}

/**
 * The same answer without its validator, for reads served without revalidation (robots.txt): kept
 * per answer, so its headers are built once too.
 */
const unvalidated = new WeakMap<PreparedResponse, PreparedResponse>()
export function withoutRevalidation(prepared: PreparedResponse): PreparedResponse {
  let plain = unvalidated.get(prepared)
  if (plain === undefined) {
    plain = { ...prepared, etag: undefined }
    unvalidated.set(prepared, plain)
  }
  return plain
}
