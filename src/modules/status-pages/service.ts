import type { Selectable } from 'kysely'
import type { Config } from '../../config.ts'
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts'
import { DEFAULT_LANGUAGE, isLanguage, isTimeZone, LANGUAGES } from '../../lib/i18n.ts'
import { parseText, requireWellFormed } from '../../lib/text.ts'
import type { Owner } from '../accounts/service.ts'
import { lowestPlanWith, planHas, planLabel, type Plan } from '../plans/matrix.ts'
import { isWithinDomain, parseCustomDomain } from './domain.ts'
import type { StatusPageChanges, StatusPagesRepo } from './repo.ts'
import { parseSlug } from './slug.ts'
import type { DomainState, StatusPagesTable, Visibility } from './tables.ts'
import type { StatusPageInput } from './model.ts'
import { isUniqueViolationOn } from '../../db/errors.ts'
import { MAX_PAGE_DESCRIPTION, MAX_PAGE_NAME, type StatusPage } from './types.ts'

// The domain types and limits are defined in types.ts; importers of the service find them here too.
export { MAX_PAGE_DESCRIPTION, MAX_PAGE_NAME, type StatusPage } from './types.ts'

export function toStatusPage(row: Selectable<StatusPagesTable> & { plan: Plan; password_set: number | string }): StatusPage {
  return {
    id: row.id,
    ownerId: row.owner_id,
    slug: row.slug,
    name: row.name,
    customDomain: row.custom_domain,
    customDomainState: row.custom_domain === null ? null : (row.custom_domain_state ?? 'pending'),
    domainCheck: { checkedAt: row.custom_domain_checked_at, reason: row.custom_domain_reason, verifiedAt: row.custom_domain_verified_at },
    visibility: row.visibility,
    blocked: row.blocked === 1,
    passwordSet: Number(row.password_set) === 1,
    language: isLanguage(row.language) ? row.language : DEFAULT_LANGUAGE,
    timeZone: isTimeZone(row.time_zone) ? row.time_zone : 'UTC',
    description: row.description,
    plan: row.plan,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/**
 * The gate password of a private page, which the create call may carry (page-access implements
 * it): checked and hashed before the page is written, stored once it exists.
 */
export interface GatePasswords {
  hashNewPassword(password: string): Promise<string>
  storePasswordHash(pageId: number, hash: string): Promise<void>
}

/** A custom domain's check columns when the domain is set, changed or removed: never checked. */
const NEW_DOMAIN: Pick<StatusPageChanges, 'custom_domain_state' | 'custom_domain_checked_at' | 'custom_domain_verified_at' | 'custom_domain_reason'> = {
  custom_domain_state: 'pending',
  custom_domain_checked_at: null,
  custom_domain_verified_at: null,
  custom_domain_reason: null,
}

function parsePageName(raw: string): string {
  const name = raw.trim()
  if (name.length === 0) throw badRequest('name is required')
  if (name.length > MAX_PAGE_NAME) throw badRequest(`name must be at most ${MAX_PAGE_NAME} characters`)
  // Control characters have no place in a title and break feeds and headers.
  if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest('name must not contain control characters')
  requireWellFormed('name', name)
  return name
}

/** The page's description: Markdown on several lines, or '' for none. */
export const parsePageDescription = (raw: string): string => parseText('description', raw, { max: MAX_PAGE_DESCRIPTION, multiline: true, allowEmpty: true })

/** The page's default language: one of the shipped translations (src/content/locales/). */
export function parseLanguage(raw: string): string {
  if (!isLanguage(raw)) throw badRequest(`language must be one of ${LANGUAGES.join(', ')}`)
  return raw
}

/** The page's time zone: an IANA name this server knows, such as Europe/Berlin or UTC. */
export function parseTimeZone(raw: string): string {
  if (!isTimeZone(raw)) throw badRequest('time_zone must be an IANA time zone such as Europe/Berlin or UTC')
  // Intl's own spelling ('europe/berlin' → 'Europe/Berlin'), so the page and the screen agree.
  return new Intl.DateTimeFormat('en', { timeZone: raw }).resolvedOptions().timeZone
}

const hostWithoutPort = (hostAndPort: string): string => hostAndPort.replace(/:\d+$/, '')

export interface StatusPagesServiceDeps {
  repo: StatusPagesRepo
  clock: Clock
  changes: ChangeFeed
  config: Pick<Config, 'baseUrl' | 'statusDomain'>
  gatePasswords: GatePasswords
}

export class StatusPagesService {
  constructor(private readonly deps: StatusPagesServiceDeps) {}

  /** `GET /api/tls/ask?domain=`: does this instance serve the domain (Caddy on-demand TLS)? */
  async servesDomain(domain: string): Promise<boolean> {
    const row = await this.deps.repo.findPublicPageByDomain(domain)
    return row !== undefined && row.blocked === 0 && planHas(row.plan, 'custom_domain_private')
  }

  async list(owner: Owner): Promise<StatusPage[]> {
    return (await this.deps.repo.listByOwner(owner.id)).map(toStatusPage)
  }

  /** The owner's page; someone else's page is indistinguishable from a missing one. */
  async get(owner: Owner, id: number): Promise<StatusPage> {
    const row = await this.deps.repo.findById(id)
    if (!row || row.owner_id !== owner.id) throw notFound()
    return toStatusPage(row)
  }

  /** A page by id whoever owns it: the answer to a write that was already allowed. */
  private async read(id: number): Promise<StatusPage> {
    const row = await this.deps.repo.findById(id)
    if (!row) throw notFound()
    return toStatusPage(row)
  }

  /** Creates a page; `password` (optional) becomes its gate password, checked before anything is written. */
  async create(owner: Owner, input: StatusPageInput & { password?: string | null }): Promise<StatusPage> {
    if (input.slug === undefined) throw badRequest('slug is required')
    if (input.name === undefined) throw badRequest('name is required')
    const slug = parseSlug(input.slug)
    const name = parsePageName(input.name)
    const customDomain = await this.checkedCustomDomain(owner, input.custom_domain ?? null, undefined)
    const visibility = input.visibility ?? 'public'
    this.checkVisibilityAllowed(owner, visibility)
    const language = input.language === undefined ? undefined : parseLanguage(input.language)
    const timeZone = input.time_zone === undefined ? undefined : parseTimeZone(input.time_zone)
    const description = input.description === undefined ? undefined : parsePageDescription(input.description)
    if (await this.deps.repo.findBySlug(slug)) throw conflict('slug is already taken')
    const passwordHash = input.password == null ? undefined : await this.deps.gatePasswords.hashNewPassword(input.password)
    const id = await this.uniqueWrite(() => this.deps.repo.insert({ ownerId: owner.id, slug, name, customDomain, visibility, language, timeZone, description, now: this.deps.clock.now() }))
    if (passwordHash !== undefined) await this.deps.gatePasswords.storePasswordHash(id, passwordHash)
    // Caches may hold "no such page" for this slug or domain.
    this.deps.changes.pageChanged(id, { lookups: true })
    return this.read(id)
  }

  async update(owner: Owner, id: number, input: StatusPageInput): Promise<StatusPage> {
    const current = await this.get(owner, id)
    const changes: StatusPageChanges = {}
    if (input.slug !== undefined) {
      const slug = parseSlug(input.slug)
      if (slug !== current.slug) {
        if (await this.deps.repo.findBySlug(slug)) throw conflict('slug is already taken')
        changes.slug = slug
      }
    }
    if (input.name !== undefined) changes.name = parsePageName(input.name)
    if (input.custom_domain !== undefined) {
      const domain = await this.checkedCustomDomain(owner, input.custom_domain, current.id)
      // A new domain starts over as pending (public links keep the address that works meanwhile); none, no state.
      if (domain !== current.customDomain) Object.assign(changes, NEW_DOMAIN, { custom_domain: domain, custom_domain_state: domain === null ? null : 'pending' })
    }
    if (input.visibility !== undefined) {
      this.checkVisibilityAllowed(owner, input.visibility)
      changes.visibility = input.visibility
    }
    if (input.language !== undefined) changes.language = parseLanguage(input.language)
    if (input.time_zone !== undefined) changes.time_zone = parseTimeZone(input.time_zone)
    if (input.description !== undefined) changes.description = parsePageDescription(input.description)
    await this.uniqueWrite(() => this.deps.repo.update(id, changes, this.deps.clock.now()))
    const lookups = changes.slug !== undefined || changes.custom_domain !== undefined || changes.visibility !== undefined
    this.deps.changes.pageChanged(id, { lookups })
    return this.read(id)
  }

  async delete(owner: Owner, id: number): Promise<void> {
    await this.get(owner, id)
    await this.deps.repo.delete(id)
    this.deps.changes.pageChanged(id)
  }

  /** Instance-admin action: a blocked page is hidden everywhere but keeps its data. */
  async setBlocked(rawSlug: string, blocked: boolean): Promise<StatusPage> {
    const row = await this.deps.repo.findBySlug(parseSlugForAdmin(rawSlug))
    if (!row) throw notFound('no page with this slug')
    await this.deps.repo.update(row.id, { blocked: blocked ? 1 : 0 }, this.deps.clock.now())
    this.deps.changes.pageChanged(row.id, { lookups: true })
    return this.read(row.id)
  }

  private checkVisibilityAllowed(owner: Owner, visibility: Visibility): void {
    if (visibility === 'private' && !planHas(owner.plan, 'custom_domain_private')) {
      throw forbidden(`Private pages require ${planLabel(lowestPlanWith('custom_domain_private'))} plan or higher`)
    }
  }

  private async checkedCustomDomain(owner: Owner, raw: string | null, pageId: number | undefined): Promise<string | null> {
    if (raw === null) return null
    const domain = parseCustomDomain(raw)
    if (!planHas(owner.plan, 'custom_domain_private')) {
      throw forbidden(`Custom domains require ${planLabel(lowestPlanWith('custom_domain_private'))} plan or higher`)
    }
    const serviceHost = new URL(this.deps.config.baseUrl).hostname
    const statusHost = hostWithoutPort(this.deps.config.statusDomain)
    if (isWithinDomain(domain, statusHost) || domain === serviceHost) {
      throw badRequest('custom_domain must not be the service host or a host under STATUS_DOMAIN')
    }
    const holder = await this.deps.repo.findByCustomDomain(domain)
    if (holder && holder.id !== pageId) throw conflict('custom_domain is already used by another page')
    return domain
  }

  /** Turns a lost race on a unique column into the same 409 the pre-check gives. */
  private async uniqueWrite<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write()
    } catch (error) {
      if (isUniqueViolationOn(error, 'status_pages', 'custom_domain')) throw conflict('custom_domain is already used by another page')
      if (isUniqueViolationOn(error, 'status_pages', 'slug')) throw conflict('slug is already taken')
      throw error
    }
  }
}

function parseSlugForAdmin(raw: string): string {
  const slug = raw.trim().toLowerCase()
  if (slug.length === 0) throw badRequest('slug is required')
  return slug
}
