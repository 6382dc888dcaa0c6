/** Timestamps are stored as epoch milliseconds and shown as RFC 3339 UTC strings. */

export const toIso = (ms: number): string => new Date(ms).toISOString()
export const toIsoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms))

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i

/** Parses an RFC 3339 date-time (with an explicit offset); undefined when it is not one. */
export function parseRfc3339(value: string): number | undefined {
  if (!RFC3339.test(value)) return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : undefined
}
