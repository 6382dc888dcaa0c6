/**
 * The snippets of `GET /api/embed/markdown` for a public page. Returns data or throws
 * a coded error; the prepared answer and its place in the public cache are built beside the route
 * (cached-reads.ts).
 */
import type { Config } from '../../config.ts'
import { notFound, PageHttpError } from '../../lib/errors.ts'
import { lowestPlanWith, planHas, planLabel } from '../plans/matrix.ts'
import type { EmbedRepo } from './repo.ts'
import { buildSnippets, type Snippets } from './snippets.ts'

export const NO_SNIPPETS_PLAN = `Markdown API requires ${planLabel(lowestPlanWith('markdown_snippets'))} plan or higher`

export class EmbedService {
  constructor(
    private readonly repo: EmbedRepo,
    private readonly config: Pick<Config, 'baseUrl' | 'scheme' | 'statusDomain'>,
  ) {}

  /**
   * The snippets of a page by its lookup slug, checked in the order of the contract: no visible
   * page → 404, plan without the feature → 403 (about the page), else the snippets.
   */
  async snippets(slug: string): Promise<{ snippets: Snippets; pageId: number }> {
    const page = await this.repo.findPageBySlug(slug)
    // Private pages are not announced to the public: they answer like a missing page.
    if (!page || page.blocked === 1 || page.visibility !== 'public') throw notFound()
    if (!planHas(page.plan, 'markdown_snippets')) throw new PageHttpError(403, NO_SNIPPETS_PLAN, page.id)
    return { snippets: buildSnippets({ slug: page.slug, customDomain: page.custom_domain, customDomainState: page.custom_domain_state, plan: page.plan }, this.config), pageId: page.id }
  }
}
