/**
 * `GET /api/embed/markdown` (DESIGN §5.1). Answers are prepared once (bytes, ETag, headers) and
 * kept in the public cache for 5 minutes, tagged with their page so any change to the page, its
 * owner's plan or a deletion drops them at once.
 */
import type { Config } from '../../config.ts'
import { prepareJson, prepareJsonError, type PreparedResponse, type PublicCache } from '../../lib/http-cache.ts'
import type { CacheFill } from '../../lib/ttl-cache.ts'
import { lowestPlanWith, planHas, planLabel } from '../plans/matrix.ts'
import { slugForLookup } from '../status-pages/slug.ts'
import type { EmbedRepo } from './repo.ts'
import { buildSnippets } from './snippets.ts'

export const SNIPPETS_TTL_MS = 5 * 60_000
const CACHE_CONTROL = 'public, max-age=300'
const CORS = { 'access-control-allow-origin': '*' }

export class EmbedService {
  private readonly missingSlug = prepareJsonError(400, 'missing slug', CORS)
  private readonly repeatedSlug = prepareJsonError(400, 'slug must be given only once', CORS)
  private readonly notFound = prepareJsonError(404, 'not found', CORS)
  private readonly planTooLow = prepareJsonError(
    403,
    `Markdown API requires ${planLabel(lowestPlanWith('markdown_snippets'))} plan or higher`,
    CORS,
  )

  constructor(
    private readonly repo: EmbedRepo,
    private readonly cache: PublicCache | undefined,
    private readonly config: Pick<Config, 'baseUrl' | 'scheme' | 'statusDomain'>,
  ) {}

  /**
   * The prepared answer for the `slug` values of a request, checked in the order of the contract:
   * missing or empty → 400, no visible page → 404, plan without the feature → 403, else 200.
   */
  markdownSnippets(slugValues: readonly string[]): PreparedResponse | Promise<PreparedResponse> {
    if (slugValues.length > 1) return this.repeatedSlug
    const raw = slugValues[0]
    if (raw === undefined || raw === '') return this.missingSlug
    const slug = slugForLookup(raw)
    if (slug === undefined) return this.notFound
    const key = `md:${slug}`
    const hit = this.cache?.get(key)
    if (hit) return hit
    const load = () => this.loadSnippets(slug)
    return this.cache ? this.cache.getOrLoad(key, load) : load().then((fill) => fill.value)
  }

  /** The cached answer for a plain `?slug=` request, if there is one; never touches the database. */
  cachedSnippets(slugValues: readonly string[]): PreparedResponse | undefined {
    if (slugValues.length !== 1 || !this.cache) return undefined
    const slug = slugForLookup(slugValues[0]!)
    return slug === undefined ? undefined : this.cache.get(`md:${slug}`)
  }

  private async loadSnippets(slug: string): Promise<CacheFill<PreparedResponse>> {
    const page = await this.repo.findPageBySlug(slug)
    // Private pages are not announced to the public: they answer like a missing page.
    if (!page || page.blocked === 1 || page.visibility !== 'public') {
      // Kept briefly as a negative answer: creating, showing or unblocking the page drops it at once.
      return { value: this.notFound, negative: true }
    }
    if (!planHas(page.plan, 'markdown_snippets')) return { value: this.planTooLow, pageId: page.id }
    const snippets = buildSnippets({ slug: page.slug, customDomain: page.custom_domain }, this.config)
    const value = await prepareJson(200, snippets, { cacheControl: CACHE_CONTROL, extraHeaders: CORS })
    return { value, pageId: page.id, ttlMs: SNIPPETS_TTL_MS }
  }
}
