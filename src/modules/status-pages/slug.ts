/** Slugs are DNS labels: they become `<slug>.<STATUS_DOMAIN>`. */
import { badRequest } from '../../lib/errors.ts'

const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/** Names that would collide with the service's own hosts or confuse visitors. */
const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'www', 'api', 'app', 'admin', 'static', 'mail', 'smtp', 'imap', 'pop', 'ftp', 'ns1', 'ns2',
  'status', 'user', 'users', 'docs', 'blog', 'help', 'support', 'assets', 'cdn', 'dashboard',
  'login', 'signup', 'auth', 'swagger', 'changelog', 'embed', 'badge', 'localhost',
])

/** Lower-cases ASCII letters only: a Kelvin sign (U+212A) must not turn into a "k". */
function asciiLowerCase(value: string): string {
  return value.replace(/[A-Z]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 32))
}

/** Normalises and checks a slug chosen by an owner; throws a 400 that says what is wrong. */
export function parseSlug(raw: string): string {
  const slug = asciiLowerCase(raw.trim())
  if (slug.length === 0) throw badRequest('slug is required')
  if (slug.length > 63) throw badRequest('slug must be at most 63 characters')
  if (!SLUG_PATTERN.test(slug)) {
    throw badRequest('slug may contain only letters, digits and inner hyphens (a DNS label)')
  }
  if (RESERVED_SLUGS.has(slug)) throw badRequest(`slug "${slug}" is reserved`)
  return slug
}

/** The lookup form of a slug from a URL, or undefined when it cannot name any page. */
export function slugForLookup(raw: string): string | undefined {
  // Slugs in URLs are mostly written as stored: then there is nothing to lower-case (hot reads).
  if (raw.length <= 63 && SLUG_PATTERN.test(raw)) return raw
  const slug = asciiLowerCase(raw)
  return slug.length <= 63 && SLUG_PATTERN.test(slug) ? slug : undefined
}
