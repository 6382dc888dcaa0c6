/**
 * Custom-domain verification: a page's public links use its custom domain only once the server
 * has seen the domain resolve to this instance (dns-check.ts), and keep watching it. Checks run
 * when the owner asks ("Check DNS", `POST …/custom-domain/check`) and on a schedule
 * (`sweep`, main.ts: every DOMAIN_SWEEP_MS; each domain at most every DOMAIN_RECHECK_MS). With
 * several servers each due check is claimed by one of them in the database, so none is doubled.
 * A change of state (pending → verified, verified → failing, back) moves every public link at
 * once through the change feed.
 */
import type { Config } from '../../config.ts'
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { badRequest, HttpError } from '../../lib/errors.ts'
import type { Owner } from '../accounts/service.ts'
import { checkDomainDns, describeDnsCheck, type DnsResolver, type InstanceHosts } from './dns-check.ts'
import { nextDomainState } from './domain-state.ts'
import type { StatusPagesRepo } from './repo.ts'
import type { StatusPage, StatusPagesService } from './service.ts'
import type { DomainState } from './tables.ts'

/** How often the scheduled job looks for domains due a check. */
export const DOMAIN_SWEEP_MS = 60_000
/** A domain is checked again when its last check is this old (pending, verified or failing alike). */
export const DOMAIN_RECHECK_MS = 15 * 60_000
/** At most this many domains per sweep, oldest check first (the rest wait for the next sweep). */
export const DOMAIN_SWEEP_BATCH = 50

export const NO_DNS_CHECK = 'the DNS check is not available on this server'

const withoutPort = (host: string) => host.replace(/:\d+$/, '')

export interface DomainVerifierDeps {
  repo: StatusPagesRepo
  pages: Pick<StatusPagesService, 'get'>
  resolver: DnsResolver | undefined
  clock: Clock
  changes: ChangeFeed
  config: Pick<Config, 'baseUrl' | 'statusDomain'>
}

export class DomainVerifier {
  constructor(private readonly deps: DomainVerifierDeps) {}

  /** False when this server has no resolver (then domains stay as they are). */
  get available(): boolean {
    return this.deps.resolver !== undefined
  }

  /** The hosts a domain may point at to reach this instance. */
  hostsFor(slug: string): InstanceHosts {
    const statusDomain = withoutPort(this.deps.config.statusDomain)
    return { pageHost: `${slug}.${statusDomain}`, serviceHost: new URL(this.deps.config.baseUrl).hostname, statusDomain }
  }

  /** The owner's "Check DNS": checks the page's domain now and answers the page as it stands after. */
  async checkNow(owner: Owner, pageId: number): Promise<StatusPage> {
    const page = await this.deps.pages.get(owner, pageId)
    if (page.customDomain === null) throw badRequest('the page has no custom domain')
    if (!this.deps.resolver) throw new HttpError(503, NO_DNS_CHECK)
    await this.check(this.deps.resolver, { id: page.id, slug: page.slug, domain: page.customDomain, state: page.customDomainState ?? 'pending', verifiedAt: page.domainCheck.verifiedAt })
    return this.deps.pages.get(owner, pageId)
  }

  /** The scheduled job: checks the domains due (claimed first); answers how many it checked. */
  async sweep(): Promise<number> {
    const resolver = this.deps.resolver
    if (!resolver) return 0
    const now = this.deps.clock.now()
    let checked = 0
    for (const row of await this.deps.repo.dueDomains(now - DOMAIN_RECHECK_MS, DOMAIN_SWEEP_BATCH)) {
      const domain = row.custom_domain!
      if (!(await this.deps.repo.claimDomainCheck(row.id, domain, row.custom_domain_checked_at, now))) continue
      await this.check(resolver, { id: row.id, slug: row.slug, domain, state: row.custom_domain_state ?? 'pending', verifiedAt: row.custom_domain_verified_at })
      checked++
    }
    return checked
  }

  private async check(
    resolver: DnsResolver,
    page: { id: number; slug: string; domain: string; state: DomainState; verifiedAt: number | null },
  ): Promise<void> {
    const found = await checkDomainDns(resolver, page.domain, this.hostsFor(page.slug))
    const now = this.deps.clock.now()
    const state = nextDomainState(page.state, found)
    const stored = await this.deps.repo.saveDomainCheck(page.id, page.domain, {
      state,
      reason: describeDnsCheck(page.domain, found),
      checkedAt: now,
      verifiedAt: found.state === 'here' ? now : page.verifiedAt,
    })
    // Public links follow the state: snippets, status JSON, pages and feeds are dropped at once.
    if (stored && state !== page.state) this.deps.changes.pageChanged(page.id)
  }
}
