/** Finds the page for the preview and renders it, or a short HTML error page. */
import { html } from '../../lib/html.ts'
import { pageShell } from '../../lib/page-shell.ts'
import type { Config } from '../../config.ts'
import { buildSnippets } from './snippets.ts'
import { lowestPlanWith, planHas, planLabel } from '../plans/matrix.ts'
import type { PageStatusService } from '../status-pipeline/service.ts'
import { renderPreview } from './preview.ts'
import type { Snippets } from './snippets.ts'
import type { PageAddress } from '../status-pages/urls.ts'

export const NO_EMBEDS_PLAN = `Embeds require ${planLabel(lowestPlanWith('badge_widget'))} plan or higher`

export type EmbedPreview = { ok: true; snippets: Snippets; uptimeBadgeUrl: string } | { ok: false; message: string }

const errorPage = (status: number, message: string) => ({
  status,
  html: pageShell({ title: message, body: html`<p>${message}</p>` }),
})

export class PreviewService {
  constructor(
    private readonly pageStatus: PageStatusService,
    private readonly config: Pick<Config, 'baseUrl' | 'scheme' | 'statusDomain'>,
  ) {}

  /** Same order of checks as the snippets endpoint: missing slug 400, unknown page 404, plan 403. */
  async render(slugValues: readonly string[]): Promise<{ status: number; html: string }> {
    if (slugValues.length > 1) return errorPage(400, 'slug must be given only once')
    const raw = slugValues[0]
    if (raw === undefined || raw === '') return errorPage(400, 'missing slug')
    const page = await this.pageStatus.findPublicPage(raw)
    if (!page) return errorPage(404, 'not found')
    const shown = this.forPage(page)
    if (!shown.ok) return errorPage(403, shown.message)
    return { status: 200, html: renderPreview({ pageName: page.name, snippets: shown.snippets, uptimeBadgeUrl: shown.uptimeBadgeUrl }) }
  }

  /** What the preview shows for a page (the owner's screen shows the same), or why the plan refuses it. */
  forPage(page: PageAddress): EmbedPreview {
    if (!planHas(page.plan, 'badge_widget')) return { ok: false, message: NO_EMBEDS_PLAN }
    return {
      ok: true,
      snippets: buildSnippets(page, this.config),
      uptimeBadgeUrl: `${this.config.baseUrl}/badge/${page.slug}/uptime.svg?days=30`,
    }
  }
}
