/**
 * Markdown for the shipped docs, blog and changelog: markdown-it with raw HTML off, links limited
 * to http(s), mailto and relative addresses, ids on headings so sections can be linked, and tables
 * in a keyboard-scrollable region.
 */
import type MarkdownIt from 'markdown-it'

const SAFE_LINK = /^(?:https?:|mailto:|[/#?.]|[^:]*$)/i

/** A URL-safe anchor for a heading or entry: lower-case words joined by dashes. */
function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'section'
  )
}

function createRenderer() {
  // Loaded by the first page rendered, through require as in lib/safe-markdown.ts (one copy of it).
  const MarkdownItClass = require('markdown-it') as typeof MarkdownIt
  const md = new MarkdownItClass({ html: false, linkify: true, typographer: false })
  // markdown-it already refuses javascript:, vbscript:, file: and most data: URLs; allow even less.
  md.validateLink = (url: string) => SAFE_LINK.test(url.trim())
  md.core.ruler.push('heading_ids', (state) => {
    const seen = new Map<string, number>()
    const tokens = state.tokens
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!
      if (token.type !== 'heading_open') continue
      const base = slugify(tokens[i + 1]?.content ?? '')
      const count = seen.get(base) ?? 0
      seen.set(base, count + 1)
      token.attrSet('id', count === 0 ? base : `${base}-${count + 1}`)
    }
  })
  // A table scrolls sideways inside a named region (<section aria-label>) that takes the keyboard focus, so it can be
  // scrolled without a mouse on a small screen; the label numbers it and names its first column.
  md.renderer.rules.table_open = (tokens, idx, options, env, self) => {
    // Numbered, so that the regions of one page have different names (the count lives in this render's env).
    const counter = (env ?? {}) as { tables?: number }
    const count = (counter.tables = (counter.tables ?? 0) + 1)
    let label = `Table ${count}`
    for (let i = idx + 1; i < tokens.length && tokens[i]!.type !== 'table_close'; i++) {
      if (tokens[i]!.type === 'inline') {
        label += `: ${tokens[i]!.content.replace(/[`*_]/g, '')}…`
        break
      }
    }
    return `<section class="table-scroll" tabindex="0" aria-label="${md.utils.escapeHtml(label)}">${self.renderToken(tokens, idx, options)}`
  }
  md.renderer.rules.table_close = (tokens, idx, options, _env, self) => `${self.renderToken(tokens, idx, options)}</section>\n`
  return md
}

let loaded: InstanceType<typeof MarkdownIt> | undefined
const renderer = (): InstanceType<typeof MarkdownIt> => (loaded ??= createRenderer())

/** Markdown → HTML that is safe to place in a page: raw HTML in the source comes out as text. */
export const renderMarkdown = (source: string): string => renderer().render(source)

/** One line of Markdown (no paragraph) → safe inline HTML. */
export const renderInline = (source: string): string => renderer().renderInline(source)
