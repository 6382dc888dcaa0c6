/**
 * The one HTML page shell: doctype, language, charset, viewport, the title, then the page's own
 * head tags and body. The status site, its subscriber pages and the owner's web app all render
 * through it; each brings its own meta tags (referrer, robots, color scheme), stylesheets, scripts
 * and markup. No inline script or style here: the pages' strict CSP holds.
 */
import { html } from './html.ts'

export interface PageShell {
  /** Plain text; escaped here. */
  title: string
  /** Safe meta tags before the title, each line ending in a newline. */
  meta?: string
  /** Safe tags after the title (stylesheets, icons, links), each line ending in a newline. */
  head?: string
  /** Safe HTML: everything inside `<body>`. */
  body: string
  lang?: string
}

/** The document up to and with `</head>`. */
export function pageHead(page: Omit<PageShell, 'body'>): string {
  return html`<!doctype html>
<html lang="${page.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
!${page.meta ?? ''}<title>${page.title}</title>
!${page.head ?? ''}</head>`
}

/** A whole HTML document. */
export function pageShell(page: PageShell): string {
  return `${pageHead(page)}\n<body>${page.body}</body>\n</html>`
}
