/**
 * Front matter of the shipped Markdown pages: a small, strict subset of YAML between `---` lines.
 *
 *   ---
 *   title: Getting started
 *   date: 2026-11-21
 *   tags: [setup, cli]
 *   summary: One line for index pages and feeds
 *   order: 1
 *   ---
 *
 * Only `key: value` lines and `[a, b]` lists. The files are ours and ship inside the binary, so a
 * mistake is a build-time error (the content tests load every file), never a runtime surprise.
 */

export interface FrontMatter {
  title: string
  /** YYYY-MM-DD */
  date: string
  tags: string[]
  summary: string | undefined
  /** Position on the docs index (lower first); pages without it follow, by title. */
  order: number | undefined
}

export class ContentError extends Error {
  override name = 'ContentError'
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
export const TAG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/
const KNOWN_KEYS = new Set(['title', 'date', 'tags', 'summary', 'order'])

const unquote = (value: string): string => {
  const quoted = /^"(.*)"$/.exec(value) ?? /^'(.*)'$/.exec(value)
  return quoted ? quoted[1]! : value
}

/** Splits a Markdown file into its front matter and body; `name` is only for error messages. */
export function parseFrontMatter(source: string, name: string): { meta: FrontMatter; body: string } {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n')
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(text)
  if (!match) throw new ContentError(`${name}: missing front matter (--- … ---)`)
  const fields = new Map<string, string>()
  for (const [index, line] of match[1]!.split('\n').entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue
    const pair = /^([a-z_]+):\s*(.*)$/.exec(line)
    if (!pair) throw new ContentError(`${name}: front matter line ${index + 1} is not "key: value"`)
    const [, key, value] = pair as unknown as [string, string, string]
    if (!KNOWN_KEYS.has(key)) throw new ContentError(`${name}: unknown front matter key "${key}"`)
    if (fields.has(key)) throw new ContentError(`${name}: front matter key "${key}" given twice`)
    fields.set(key, value.trim())
  }
  const title = unquote(fields.get('title') ?? '')
  if (!title) throw new ContentError(`${name}: title is required`)
  const date = unquote(fields.get('date') ?? '')
  if (!DATE.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw new ContentError(`${name}: date must be YYYY-MM-DD`)
  }
  const rawTags = fields.get('tags') ?? '[]'
  const list = /^\[(.*)\]$/.exec(rawTags)
  if (!list) throw new ContentError(`${name}: tags must be a list like [a, b]`)
  const tags = list[1]!
    .split(',')
    .map((tag) => unquote(tag.trim()))
    .filter((tag) => tag !== '')
  for (const tag of tags) {
    if (!TAG.test(tag)) throw new ContentError(`${name}: tag "${tag}" must be lower-case letters, digits and dashes`)
  }
  const rawOrder = fields.get('order')
  const order = rawOrder === undefined ? undefined : Number(rawOrder)
  if (order !== undefined && !Number.isInteger(order)) throw new ContentError(`${name}: order must be an integer`)
  const summary = fields.has('summary') ? unquote(fields.get('summary')!) : undefined
  return { meta: { title, date, tags: [...new Set(tags)], summary, order }, body: text.slice(match[0].length) }
}
