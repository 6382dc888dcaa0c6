/** Accepted HTTP status codes written as "200-299,301": parsed once, matched per check (pure). */

export const DEFAULT_ACCEPTED_STATUS = '200-299'

export type StatusRanges = ReadonlyArray<readonly [number, number]>

export type StatusParse = { ok: true; ranges: StatusRanges } | { ok: false; message: string }

const PART = /^(\d{3})(?:\s*-\s*(\d{3}))?$/

/** Parses a comma-separated list of codes and ranges, each code from 100 to 599. */
export function parseAcceptedStatus(text: string): StatusParse {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, message: 'accepted status codes must not be empty' }
  if (text.length > 200) return { ok: false, message: 'accepted status codes are at most 200 characters' }
  const ranges: Array<readonly [number, number]> = []
  for (const raw of text.split(',')) {
    const part = raw.trim()
    const found = PART.exec(part)
    if (!found) return { ok: false, message: `"${part}" is not a status code or a range such as 200-299` }
    const low = Number(found[1])
    const high = found[2] === undefined ? low : Number(found[2])
    if (low < 100 || high > 599 || low > high) return { ok: false, message: `"${part}" must be codes from 100 to 599, low to high` }
    ranges.push([low, high])
  }
  return { ok: true, ranges }
}

export function statusAccepted(status: number, ranges: StatusRanges): boolean {
  return ranges.some(([low, high]) => status >= low && status <= high)
}
