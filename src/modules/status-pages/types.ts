/**
 * What a status page is and the limit on its name, read by both the request schemas (model.ts) and the
 * service.
 */
import type { Language } from '../../lib/i18n.ts'
import type { Plan } from '../plans/matrix.ts'
import type { DomainState, Visibility } from './tables.ts'

/** Longest page name, after trimming. */
export const MAX_PAGE_NAME = 100
/** Longest page description (Markdown), after trimming. */
export const MAX_PAGE_DESCRIPTION = 2000

export interface StatusPage {
  id: number
  ownerId: number
  slug: string
  name: string
  customDomain: string | null
  /** Null exactly when there is no custom domain (tables.ts). */
  customDomainState: DomainState | null
  /** The last check of the custom domain: when, what it found, when it last reached this instance. */
  domainCheck: { checkedAt: number | null; reason: string | null; verifiedAt: number | null }
  visibility: Visibility
  blocked: boolean
  /** A gate password is set (what a private page needs before anyone can open it). */
  passwordSet: boolean
  /** The language visitors see when they ask for none of ours (src/lib/i18n.ts). */
  language: Language
  /** The IANA time zone the page's times are shown in. */
  timeZone: string
  /** Markdown shown under the page's name on the public page ('' for none). */
  description: string
  /** The owner's plan. */
  plan: Plan
  createdAt: number
  updatedAt: number
}
