/**
 * The six embed snippets (the page link, the badge in Markdown and in HTML, the widget script and its
 * tag, one Markdown line), built from a page and the instance's addresses. Pure.
 */
import type { Config } from '../../config.ts'
import { escapeHtml } from '../../lib/html.ts'
import { statusPageUrl, type PageAddress } from '../status-pages/urls.ts'
import { WIDGET_PATH } from '../widget/script.ts'

export interface Snippets {
  status_page_url: string
  badge_markdown: string
  badge_html: string
  widget_script: string
  widget_html: string
  minimal_md: string
}

export function widgetScriptUrl(baseUrl: string): string {
  return `${baseUrl}${WIDGET_PATH}`
}

export function badgeUrl(baseUrl: string, slug: string): string {
  return `${baseUrl}/badge/${slug}.svg`
}

export function buildSnippets(
  page: PageAddress,
  config: Pick<Config, 'baseUrl' | 'scheme' | 'statusDomain'>,
): Snippets {
  const pageUrl = statusPageUrl(page, config)
  // The badge is always served by the service host, never by the custom domain.
  const badge = badgeUrl(config.baseUrl, page.slug)
  const script = widgetScriptUrl(config.baseUrl)
  const attr = escapeHtml
  const scriptTag = (extra: string) =>
    `<script src="${attr(script)}" data-slug="${attr(page.slug)}" data-theme="auto"${extra}></script>`
  return {
    status_page_url: pageUrl,
    badge_markdown: `[![Status](${badge})](${pageUrl})`,
    badge_html: `<a href="${attr(pageUrl)}"><img src="${attr(badge)}" alt="Status"></a>`,
    widget_script: scriptTag(''),
    widget_html: `<div>${scriptTag(' data-show-incidents="1" data-rtm="60" data-upd="7"')}</div>`,
    minimal_md: `**Status:** → [${pageUrl}](${pageUrl})`,
  }
}
