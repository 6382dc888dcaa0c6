/** Checks of what subscribers give: addresses, webhook URLs and component choices (pure; 400s). */
import { badRequest } from '../../lib/errors.ts'
import { parseIdList } from '../../lib/text.ts'

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const MAX_EMAIL = 254
export const MAX_URL = 2_000

/** Lower-cased and trimmed; addresses are compared like this (unique per page among active rows). */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase()
  if (email.length === 0) throw badRequest('email is required')
  if (email.length > MAX_EMAIL || !EMAIL_PATTERN.test(email) || !email.isWellFormed()) throw badRequest('email is not a valid address')
  return email
}

/** An http(s) URL without credentials; where it may point is the outbox's address guard's call at delivery. */
export function normalizeWebhookUrl(raw: string): string {
  const text = raw.trim()
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw badRequest('url must be an http or https address')
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || text.length > MAX_URL) throw badRequest('url must be an http or https address')
  if (url.username || url.password) throw badRequest('url must not carry a user name or password')
  return url.href
}

/** The chosen components (none chosen, or all of them: null, every component). */
export function parseComponentIds(raw: readonly number[], onPage: ReadonlyArray<{ id: number }>): number[] | null {
  const ids = parseIdList('component_ids', raw)
  const known = new Set(onPage.map((c) => c.id))
  const missing = ids.find((id) => !known.has(id))
  if (missing !== undefined) throw badRequest(`component_ids holds ${missing}, which is not a component of this page`)
  if (ids.length === 0 || ids.length === known.size) return null
  return ids.sort((a, b) => a - b)
}
