/**
 * Markdown written by owners (incident updates, maintenance descriptions, postmortems), rendered for
 * visitors: a small safe subset — paragraphs, line breaks, links, emphasis, lists, inline code and
 * code blocks, quotes. Raw HTML comes out as text, images and headings are not Markdown here, links
 * go only to http(s) and mailto addresses and carry rel="nofollow noopener". `markdownToText` gives
 * the plain-text form for text mails.
 */
import type MarkdownIt from 'markdown-it'
import type { Token } from 'markdown-it'

const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i
const REL = 'nofollow noopener'

function createRenderer() {
  // Loaded by the first text rendered (about 2.5 MiB held): an idle server has none to render. Bun's
  // require loads it synchronously, so the renderers stay plain functions.
  const MarkdownItClass = require('markdown-it') as typeof MarkdownIt
  // Only the subset's rules run (the 'zero' preset has paragraphs and text): fewer rules, a faster parse.
  const md = new MarkdownItClass('zero', { html: false, linkify: true, typographer: false, breaks: true })
  md.enable(['linkify', 'list', 'fence', 'code', 'blockquote', 'newline', 'escape', 'entity', 'backticks', 'emphasis', 'strikethrough', 'link', 'autolink'])
  md.validateLink = (url: string) => SAFE_LINK.test(url.trim())
  md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
    tokens[idx]!.attrSet('rel', REL)
    return self.renderToken(tokens, idx, options)
  }
  return md
}

let loaded: InstanceType<typeof MarkdownIt> | undefined
const renderer = (): InstanceType<typeof MarkdownIt> => (loaded ??= createRenderer())

/** Markdown → block HTML (paragraphs, lists…) safe to place in a page, a feed or a mail. */
export function renderSafeMarkdown(source: string): string {
  return source.trim() === '' ? '' : renderer().render(source)
}

/** The text of a link as a reader of plain text needs it: "text (address)", or the address alone. */
function linkText(text: string, href: string): string {
  const bare = href.replace(/^mailto:/i, '')
  return text === href || text === bare ? text : `${text} (${bare})`
}

function inlineText(children: Token[]): string {
  let out = ''
  const links: Array<{ href: string; start: number }> = []
  for (const token of children) {
    switch (token.type) {
      case 'text':
      case 'code_inline':
        out += token.content
        break
      case 'softbreak':
      case 'hardbreak':
        out += '\n'
        break
      case 'link_open':
        links.push({ href: String(token.attrGet('href') ?? ''), start: out.length })
        break
      case 'link_close': {
        const link = links.pop()
        if (link) out = out.slice(0, link.start) + linkText(out.slice(link.start), link.href)
        break
      }
      default:
        break
    }
  }
  return out
}

/**
 * The plain-text form: emphasis marks gone, links as "text (address)", list items as "- " or "1. ",
 * code as written, paragraphs apart by a blank line.
 */
export function markdownToText(source: string): string {
  if (source.trim() === '') return ''
  const tokens = renderer().parse(source, {})
  const blocks: Array<{ text: string; list: number }> = []
  const lists: Array<{ ordered: boolean; next: number }> = []
  let quote = 0
  // Which outermost list a block belongs to (0: none), so items of one list are not set apart.
  let listNumber = 0
  let prefix = ''
  const push = (text: string) => {
    const indent = '  '.repeat(Math.max(0, lists.length - 1))
    const lead = quote > 0 ? '> '.repeat(quote) : ''
    const lines = text.split('\n')
    blocks.push({ text: lines.map((line, i) => `${lead}${i === 0 ? indent + prefix : indent + ' '.repeat(prefix.length)}${line}`.trimEnd()).join('\n'), list: lists.length > 0 ? listNumber : 0 })
    prefix = ''
  }
  for (const token of tokens) {
    switch (token.type) {
      case 'bullet_list_open':
        if (lists.length === 0) listNumber++
        lists.push({ ordered: false, next: 1 })
        break
      case 'ordered_list_open':
        if (lists.length === 0) listNumber++
        lists.push({ ordered: true, next: Number(token.attrGet('start') ?? 1) })
        break
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop()
        break
      case 'list_item_open': {
        const list = lists.at(-1)
        if (list) prefix = list.ordered ? `${list.next++}. ` : '- '
        break
      }
      case 'blockquote_open':
        quote++
        break
      case 'blockquote_close':
        quote--
        break
      case 'inline':
        push(inlineText(token.children ?? []))
        break
      case 'fence':
      case 'code_block':
        push(token.content.replace(/\n$/, ''))
        break
      default:
        break
    }
  }
  // Items of one list sit on consecutive lines; other blocks are apart by a blank line.
  return blocks.map((block, i) => (i === 0 ? '' : block.list !== 0 && block.list === blocks[i - 1]!.list ? '\n' : '\n\n') + block.text).join('')
}
