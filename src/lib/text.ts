/** Validation of short free-text fields (titles, names, messages) shared by the management APIs. */
import { badRequest } from './errors.ts'

/** Control characters other than tab and newline: they have no place in text shown to people. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/
const CONTROL_OR_NEWLINE = /[\u0000-\u001f\u007f]/

/** A lone surrogate cannot be encoded as UTF-8: stored, it would come back as U+FFFD. */
export function requireWellFormed(field: string, value: string): void {
  if (!value.isWellFormed()) throw badRequest(`${field} must be valid Unicode text`)
}

/**
 * Trims and checks a text field; throws a 400 naming `field`. `multiline` allows newlines and tabs
 * (messages); single-line fields (titles, names) refuse them.
 */
export function parseText(
  field: string,
  raw: string,
  options: { max: number; multiline?: boolean; allowEmpty?: boolean },
): string {
  const value = raw.trim()
  if (value.length === 0 && !options.allowEmpty) throw badRequest(`${field} must not be empty`)
  if (value.length > options.max) throw badRequest(`${field} must be at most ${options.max} characters`)
  requireWellFormed(field, value)
  if ((options.multiline ? CONTROL : CONTROL_OR_NEWLINE).test(value)) {
    throw badRequest(`${field} must not contain control characters`)
  }
  return value
}

/**
 * The one text rule of every API: a string must be well-formed Unicode. JSON can carry a lone
 * surrogate (`"\ud800"`) that no UTF-8 text can hold; stored, it would silently turn into U+FFFD.
 * Returns the path of the first offending string or object key in a parsed JSON value
 * (`palette.primary`, `history[0].at`; a bad key names its object, `body` at the top), or
 * undefined when all text is well-formed. Iterative, so deep nesting costs no stack.
 */
function findMalformedText(value: unknown, root = 'body'): string | undefined {
  const queue: Array<[unknown, string]> = [[value, '']]
  for (let i = 0; i < queue.length; i++) {
    const [item, path] = queue[i]!
    if (typeof item === 'string') {
      if (!item.isWellFormed()) return path || root
    } else if (Array.isArray(item)) {
      item.forEach((element, index) => queue.push([element, `${path || root}[${index}]`]))
    } else if (item !== null && typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype) {
      for (const [key, element] of Object.entries(item)) {
        if (!key.isWellFormed()) return path || root
        queue.push([element, path ? `${path}.${key}` : key])
      }
    }
  }
  return undefined
}

/** Throws the 400 of the text rule when any string or key in `value` is not well-formed Unicode. */
export function assertWellFormedText(value: unknown): void {
  const path = findMalformedText(value)
  if (path !== undefined) throw badRequest(`${path} must be valid Unicode text`)
}

/** The first `max` UTF-16 units of `text`, never ending in half of a surrogate pair. */
export function cutText(text: string, max: number): string {
  const cut = text.slice(0, max)
  const last = cut.charCodeAt(cut.length - 1)
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut
}

/** A list of ids without repeats, each a positive safe integer; throws a 400 naming `field`. */
export function parseIdList(field: string, raw: readonly number[], max = 100): number[] {
  if (raw.length > max) throw badRequest(`${field} may list at most ${max} ids`)
  const ids = new Set<number>()
  for (const id of raw) {
    if (!Number.isSafeInteger(id) || id < 1) throw badRequest(`${field} must contain positive integer ids`)
    ids.add(id)
  }
  return [...ids]
}

const utf8 = new TextEncoder()
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' })

/**
 * `text` cut to at most `maxBytes` bytes of UTF-8, `mark` included when it was cut. The cut falls
 * between two characters as people see them (grapheme clusters), never inside one: no broken UTF-8
 * sequence, no half of an emoji or of a letter with its accent.
 */
export function cutToBytes(text: string, maxBytes: number, mark = '…'): string {
  // Every UTF-16 unit is at most 3 bytes of UTF-8: short text needs no encoding at all.
  if (text.length * 3 <= maxBytes || utf8.encode(text).length <= maxBytes) return text
  const room = maxBytes - utf8.encode(mark).length
  let used = 0
  let kept = ''
  for (const { segment } of graphemes.segment(text)) {
    used += utf8.encode(segment).length
    if (used > room) break
    kept += segment
  }
  return kept + mark
}
