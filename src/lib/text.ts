/** Validation of short free-text fields (titles, names, messages) shared by the management APIs. */
import { badRequest } from './errors.ts'

/** Control characters other than tab and newline: they have no place in text shown to people. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/
const CONTROL_OR_NEWLINE = /[\u0000-\u001f\u007f]/

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
  // A lone surrogate cannot be encoded as UTF-8: it would come back as U+FFFD.
  if (!value.isWellFormed()) throw badRequest(`${field} must be valid Unicode text`)
  if ((options.multiline ? CONTROL : CONTROL_OR_NEWLINE).test(value)) {
    throw badRequest(`${field} must not contain control characters`)
  }
  return value
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
