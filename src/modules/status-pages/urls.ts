import type { Config } from '../../config.ts'
import { planHas, type Plan } from '../plans/matrix.ts'
import type { DomainState } from './tables.ts'

/** What decides a page's public address. */
export interface PageAddress {
  slug: string
  customDomain: string | null
  customDomainState: DomainState | null
  /** The owner's plan: custom domains are served only on plans that have them. */
  plan: Plan
}

/**
 * The custom domain public links may use: one the server has verified (it resolves to this
 * instance) on a plan that serves custom domains; else null, and links use `<slug>.<STATUS_DOMAIN>`,
 * which always works. A domain still being set up (DNS, TLS) never breaks a pasted link.
 */
export function linkedDomain(page: PageAddress): string | null {
  if (page.customDomain === null || page.customDomainState !== 'verified') return null
  return planHas(page.plan, 'custom_domain_private') ? page.customDomain : null
}

/** `<scheme>://<slug>.<STATUS_DOMAIN>`: where a page always answers. */
export function defaultPageUrl(slug: string, config: Pick<Config, 'scheme' | 'statusDomain'>): string {
  return `${config.scheme}://${slug}.${config.statusDomain}`
}

/** Where visitors are sent: the verified custom domain (linkedDomain), else `<slug>.<STATUS_DOMAIN>`. */
export function statusPageUrl(page: PageAddress, config: Pick<Config, 'scheme' | 'statusDomain'>): string {
  const domain = linkedDomain(page)
  return domain === null ? defaultPageUrl(page.slug, config) : `${config.scheme}://${domain}`
}
