/**
 * The HTTP shape of `GET /api/embed/markdown`, shared by its route and the fast lane: one
 * `snippetsKey` reads the URL once, and the prepared answer (bytes, ETag, `Cache-Control`, CORS) and
 * its cache fill (5 minutes, tagged with the page; "no such page" kept briefly) are built here.
 */
import { errorFill, type PreparedResponse, prepareJson, prepareJsonError, type PublicCache, readThrough } from '../../lib/http-cache.ts'
import { queryValues } from '../../lib/query.ts'
import { carriesToken, memoizeByText } from '../../lib/memo.ts'
import type { CacheFill } from '../../lib/ttl-cache.ts'
import { slugForLookup } from '../status-pages/slug.ts'
import type { EmbedService } from './service.ts'

export const MARKDOWN_PATH = '/api/embed/markdown'
export const SNIPPETS_TTL_MS = 5 * 60_000
const CACHE_CONTROL = 'public, max-age=300'
const CORS = { 'access-control-allow-origin': '*' }

const errorBody = (status: number, message: string) => prepareJsonError(status, message, CORS)
const MISSING_SLUG = errorBody(400, 'missing slug')
const REPEATED_SLUG = errorBody(400, 'slug must be given only once')
const NOT_FOUND = errorBody(404, 'not found')

/** A snippets request read from its URL: the cache key and slug, or the answer refusing it. */
export type SnippetsRequest = { key: string; slug: string } | { refused: PreparedResponse }

/** Reads a snippets request URL once: missing, empty or repeated `slug` → 400; a slug no page can have → 404. */
export const snippetsRequest: (url: string) => SnippetsRequest = memoizeByText(readSnippetsRequest, { keepOut: carriesToken })

function readSnippetsRequest(url: string): SnippetsRequest {
  const values = queryValues(url, 'slug')
  if (values.length > 1) return { refused: REPEATED_SLUG }
  const raw = values[0]
  if (raw === undefined || raw === '') return { refused: MISSING_SLUG }
  const slug = slugForLookup(raw)
  return slug === undefined ? { refused: NOT_FOUND } : { key: `md:${slug}`, slug }
}

/** The cache key of a snippets request URL, or undefined when it is refused before any lookup. */
export function snippetsKey(url: string): string | undefined {
  const read = snippetsRequest(url)
  return 'key' in read ? read.key : undefined
}

export class SnippetsReads {
  constructor(
    private readonly embed: EmbedService,
    private readonly cache: PublicCache | undefined,
  ) {}

  /** The fast lane: the prepared answer when it is cached; never touches the database. */
  cached(url: string): PreparedResponse | undefined {
    if (this.cache === undefined) return undefined
    const read = snippetsRequest(url)
    return 'key' in read ? this.cache.get(read.key) : undefined
  }

  /** The prepared answer for a request URL: refused, cached, or loaded and cached. */
  prepared(url: string): PreparedResponse | Promise<PreparedResponse> {
    const read = snippetsRequest(url)
    if ('refused' in read) return read.refused
    return readThrough(this.cache, read.key, () => this.load(read.slug))
  }

  private async load(slug: string): Promise<CacheFill<PreparedResponse>> {
    try {
      const { snippets, pageId } = await this.embed.snippets(slug)
      const value = await prepareJson(200, snippets, { cacheControl: CACHE_CONTROL, extraHeaders: CORS })
      return { value, pageId, ttlMs: SNIPPETS_TTL_MS }
    } catch (error) {
      // A plan refusal keeps the cache's default lifetime, tagged with its page.
      return errorFill(error, errorBody)
    }
  }
}
