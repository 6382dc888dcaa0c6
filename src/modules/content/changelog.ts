/**
 * The public changelog, parsed from `src/content/CHANGELOG.md`:
 *
 *   ## 2026-11-21 — Short title (optional)
 *   ### New
 *   - One line per change users notice (inline Markdown allowed)
 *   ### Fixed
 *   - …
 *
 * Entries come out newest first (same-day entries keep file order); groups always in the order
 * New, Improvement, Updated, Fixed. Anything else in the file is a ContentError, so a typo never
 * silently drops a line from the public page.
 */
import { ContentError } from './front-matter.ts'

const CHANGE_GROUPS = ['New', 'Improvement', 'Updated', 'Fixed'] as const
export type ChangeGroup = (typeof CHANGE_GROUPS)[number]

export interface ChangeItem {
  /** Anchor of this line, e.g. `2026-11-21-new-2`. */
  anchor: string
  /** Inline Markdown source. */
  text: string
}

export interface ChangelogEntry {
  /** Anchor of the entry: its date, with `-2`, `-3` … for further entries on the same day. */
  anchor: string
  date: string
  title: string | undefined
  groups: { group: ChangeGroup; items: ChangeItem[] }[]
}

const ENTRY_HEADING = /^## +(\d{4}-\d{2}-\d{2})(?:\s+[—–-]\s+(.+?))?\s*$/
const GROUP_HEADING = /^### +(.+?)\s*$/
const ITEM = /^[-*] +(.+)$/

export function parseChangelog(source: string): ChangelogEntry[] {
  const lines = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n')
  interface Draft {
    date: string
    title: string | undefined
    order: number
    groups: Map<ChangeGroup, string[]>
  }
  const drafts: Draft[] = []
  let entry: Draft | undefined
  let items: string[] | undefined
  for (const [index, line] of lines.entries()) {
    const where = `CHANGELOG.md line ${index + 1}`
    if (line.trim() === '' || /^# /.test(line) || (!entry && !line.startsWith('#'))) continue
    const heading = ENTRY_HEADING.exec(line)
    if (heading) {
      const date = heading[1]!
      if (Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new ContentError(`${where}: ${date} is not a date`)
      entry = { date, title: heading[2], order: drafts.length, groups: new Map() }
      drafts.push(entry)
      items = undefined
      continue
    }
    if (line.startsWith('## ')) throw new ContentError(`${where}: an entry heading is "## YYYY-MM-DD" or "## YYYY-MM-DD — title"`)
    if (!entry) throw new ContentError(`${where}: text before the first dated entry`)
    const group = GROUP_HEADING.exec(line)
    if (group) {
      const name = CHANGE_GROUPS.find((known) => known.toLowerCase() === group[1]!.toLowerCase())
      if (!name) throw new ContentError(`${where}: group must be one of ${CHANGE_GROUPS.join(', ')}, got "${group[1]}"`)
      items = entry.groups.get(name) ?? []
      entry.groups.set(name, items)
      continue
    }
    const item = ITEM.exec(line)
    if (item) {
      if (!items) throw new ContentError(`${where}: a change line needs a group heading (### New, …) above it`)
      items.push(item[1]!.trim())
      continue
    }
    if (/^\s+\S/.test(line) && items && items.length > 0) {
      items[items.length - 1] += ` ${line.trim()}`
      continue
    }
    throw new ContentError(`${where}: expected "### Group" or "- change", got "${line.slice(0, 60)}"`)
  }

  const sorted = drafts.sort((a, b) => (a.date === b.date ? a.order - b.order : a.date < b.date ? 1 : -1))
  // Same-day entries are numbered from the oldest (bare date, then -2, -3 …), so adding a newer
  // entry never changes an existing anchor, and feed readers never see an old entry as new.
  const sameDayNumber = new Map<(typeof sorted)[number], number>()
  const perDay = new Map<string, number>()
  for (const draft of [...sorted].reverse()) {
    const n = (perDay.get(draft.date) ?? 0) + 1
    perDay.set(draft.date, n)
    sameDayNumber.set(draft, n)
  }
  return sorted.map((draft) => {
    const n = sameDayNumber.get(draft)!
    const anchor = n === 1 ? draft.date : `${draft.date}-${n}`
    const groups = CHANGE_GROUPS.filter((group) => (draft.groups.get(group)?.length ?? 0) > 0).map((group) => ({
      group,
      items: draft.groups.get(group)!.map((text, i) => ({ anchor: `${anchor}-${group.toLowerCase()}-${i + 1}`, text })),
    }))
    if (groups.length === 0) throw new ContentError(`CHANGELOG.md: the entry of ${draft.date} has no changes`)
    return { anchor, date: draft.date, title: draft.title, groups }
  })
}
