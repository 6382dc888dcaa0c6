import type { Generated } from 'kysely'

export type Visibility = 'public' | 'private'

/**
 * Where a custom domain stands: `pending` until the server has seen it resolve to this instance,
 * then `verified`; a verified domain that stops resolving here is `failing` until it does again.
 */
export type DomainState = 'pending' | 'verified' | 'failing'

export interface StatusPagesTable {
  id: Generated<number>
  owner_id: number
  slug: string
  name: string
  custom_domain: string | null
  /** Null exactly when `custom_domain` is. */
  custom_domain_state: DomainState | null
  /** The last check of the domain (scheduled or asked for), null before the first. */
  custom_domain_checked_at: number | null
  /** When the domain was last seen reaching this instance. */
  custom_domain_verified_at: number | null
  /** What the last check found, in words (for the owner). */
  custom_domain_reason: string | null
  visibility: Visibility
  blocked: Generated<number>
  /** The language visitors see when they ask for none we have (a tag of src/content/locales/). */
  language: Generated<string>
  /** The IANA time zone the page shows its times in. */
  time_zone: Generated<string>
  /** Markdown shown under the page's name ('' for none). */
  description: Generated<string>
  created_at: number
  updated_at: number
}
