/**
 * Page subscribers: the public side (subscribe with double opt-in, confirm,
 * manage, one-click unsubscribe) and the owner's side (list, add, remove, import, export).
 * Mails go through the outbox in the transaction that made the change.
 *
 * The public answers never depend on whether an address is already subscribed: `subscribe` returns
 * nothing, and what it does (a confirmation, a reminder, or nothing while the last mail is recent)
 * is only told to the address itself.
 */
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import { randomToken, sha256Hex } from '../../lib/crypto.ts'
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts'
import { planLabel, subscriberLimit } from '../plans/matrix.ts'
import type { Owner } from '../accounts/service.ts'
import { confirmationRequest, confirmationView, type ChatKind } from './chat.ts'
import type { OutboxWriter } from '../notify/contract.ts'
import type { DeliveryEntry, DeliveryLog } from '../notify/delivery-log.ts'
import { generateSigningSecret, type SigningKeySource } from '../notify/webhook-signing.ts'
import type { StatusPagesService } from '../status-pages/service.ts'
import { statusPageUrl } from '../status-pages/urls.ts'
import type { DomainState } from '../status-pages/tables.ts'
import { takesVisitorSubscriptions } from '../status-site/subscriptions.ts'
import { words, type Language, type Words } from '../../lib/i18n.ts'
import { CONFIRM_DAYS, confirmationMail, reminderMail, subscriberLanguage, subscriberLinks, type PageRef } from './messages.ts'
import { SubscribersRepo, type NewSubscriber, type SubscriberRow } from './repo.ts'
import { ManageTokens } from './tokens.ts'
import type { SubscriberKind, SubscriberSource } from './tables.ts'
import { normalizeEmail, normalizeWebhookUrl, parseComponentIds } from './validate.ts'
import { exportCsv, readImport } from './csv-rows.ts'

const DAY_MS = 86_400_000
export const CONFIRM_TTL_MS = CONFIRM_DAYS * DAY_MS
/** A pending address gets its confirmation again at most this often from the public form. */
export const CONFIRM_RESEND_MS = 60 * 60_000
/** A subscribed address is reminded at most this often that it is subscribed. */
export const REMINDER_EVERY_MS = DAY_MS
export const MAX_LIST = 1_000
export const MAX_IMPORT_ROWS = 10_000

export interface Subscriber {
  id: number
  kind: SubscriberKind
  email: string | null
  url: string | null
  /** null: every component. */
  componentIds: number[] | null
  source: SubscriberSource
  status: 'pending' | 'confirmed'
  confirmedAt: number | null
  unsubscribed: boolean
  createdAt: number
  /** A webhook's signing secret in full: only in the answer that made it (add, new secret). */
  revealedSigningSecret?: string
}

export interface SubscriberCounts {
  email: number
  pending: number
  webhook: number
  /** The plan's limit per page; null: none. */
  limit: number | null
}

export interface AddSubscriberInput {
  kind?: SubscriberKind
  email?: string
  url?: string
  component_ids?: number[] | null
  consent: boolean
}

/** The confirmation link: its page opens in the language the mail is in. */
const confirmLink = (pageUrl: string, token: string, lang: Language) => `${pageUrl}/subscribe/confirm?token=${encodeURIComponent(token)}&lang=${lang}`

export const componentIdsOf = (row: Pick<SubscriberRow, 'component_ids'>): number[] | null =>
  row.component_ids === null ? null : (JSON.parse(row.component_ids) as number[])

export function toSubscriber(row: SubscriberRow): Subscriber {
  return {
    id: row.id,
    kind: row.kind,
    email: row.email,
    url: row.url,
    componentIds: componentIdsOf(row),
    source: row.source,
    status: row.kind === 'webhook' || row.confirmed_at !== null ? 'confirmed' : 'pending',
    confirmedAt: row.confirmed_at,
    unsubscribed: row.unsubscribed_at !== null,
    createdAt: row.created_at,
  }
}

/** The page a token or form is about, as the public side shows it. */
export interface PublicPage {
  id: number
  name: string
  url: string
  visibility: 'public' | 'private'
  blocked: boolean
  components: Array<{ id: number; name: string }>
}

export type ManageView = { subscriber: Subscriber; page: PublicPage }
/** A page row's columns that decide its public address (status-pages/urls.ts). */
type PageAddressRow = { slug: string; custom_domain: string | null; custom_domain_state: DomainState | null; plan: Owner['plan'] }
/** `language` and `timeZone`: the page's default language and its zone (what a subscriber's mails fall back to and are timed in). */
type LoadedPage = PublicPage & { plan: Owner['plan']; slug: string; language: string; timeZone: string }

export interface SubscribersServiceDeps {
  repo: SubscribersRepo
  pages: Pick<StatusPagesService, 'get'>
  outbox: OutboxWriter
  clock: Clock
  config: Pick<Config, 'scheme' | 'statusDomain' | 'baseUrl'>
  deliveries: DeliveryLog
}

export class SubscribersService {
  readonly tokens: ManageTokens

  constructor(private readonly deps: SubscribersServiceDeps) {
    const { clock } = deps
    this.tokens = new ManageTokens(() => clock.now())
  }

  now(): number {
    return this.deps.clock.now()
  }

  get mailEnabled(): boolean {
    return this.deps.outbox.mailEnabled
  }

  /** What the event views and webhook payloads need of the configuration. */
  get urls(): Pick<Config, 'scheme' | 'statusDomain' | 'baseUrl'> {
    return this.deps.config
  }

  pageUrl(page: PageAddressRow): string {
    return statusPageUrl({ slug: page.slug, customDomain: page.custom_domain, customDomainState: page.custom_domain_state, plan: page.plan }, this.deps.config)
  }

  private async publicPage(repo: SubscribersRepo, pageId: number): Promise<LoadedPage> {
    const page = await repo.page(pageId)
    if (!page) throw notFound('no such page')
    const components = await repo.components(pageId)
    return {
      id: page.id,
      name: page.name,
      slug: page.slug,
      url: this.pageUrl(page),
      visibility: page.visibility,
      blocked: page.blocked === 1,
      plan: page.plan,
      language: page.language,
      timeZone: page.time_zone,
      components: components.map((c) => ({ id: c.id, name: c.group_name ? `${c.group_name} · ${c.name}` : c.name })),
    }
  }

  /** Whether visitors may subscribe on the page themselves: public, not blocked, and mail on. */
  acceptsVisitors(page: { visibility: string; blocked: boolean }): boolean {
    return takesVisitorSubscriptions(page, this.deps.outbox.mailEnabled)
  }

  /** What the public form offers (404 where there is no form). */
  async form(pageId: number): Promise<LoadedPage> {
    const page = await this.publicPage(this.deps.repo, pageId)
    if (!this.acceptsVisitors(page)) throw notFound('this page takes no subscriptions')
    return page
  }

  /**
   * A visitor's subscription. Always the same outcome to the caller; the address alone learns,
   * by mail, what happened: a new or pending one gets the confirmation link (at most once an hour),
   * a subscribed one a reminder with its manage link (at most once a day). A page at its plan's
   * limit takes no new address (silently: the answer must not differ by address).
   */
  async subscribe(pageId: number, input: { email: string; componentIds: readonly number[]; language?: Language }): Promise<void> {
    const email = normalizeEmail(input.email)
    const page = await this.form(pageId)
    const componentIds = parseComponentIds(input.componentIds, page.components)
    const now = this.deps.clock.now()
    await this.deps.repo.transaction(async (repo, trx) => {
      const existing = await repo.activeEmail(pageId, email)
      if (existing && existing.confirmed_at !== null) {
        if (existing.notice_sent_at !== null && now - existing.notice_sent_at < REMINDER_EVERY_MS) return
        await repo.update(existing.id, { notice_sent_at: now })
        // The reminder speaks the language the address chose when it subscribed.
        const w = this.wordsFor(page, existing.language)
        const links = subscriberLinks(page.url, await this.tokens.token(repo, existing.id, existing.manage_key), w.lang)
        await this.deps.outbox.enqueue(trx, [{ target: `subscriber:${existing.id}`, mail: reminderMail(email, page, links, w) }])
        return
      }
      if (existing && existing.notice_sent_at !== null && now - existing.notice_sent_at < CONFIRM_RESEND_MS) return
      if (!existing && (await this.isFull(repo, page, now))) return
      const token = randomToken(32)
      const fields = {
        component_ids: componentIds === null ? null : JSON.stringify(componentIds),
        confirm_token_hash: await sha256Hex(token),
        confirm_expires_at: now + CONFIRM_TTL_MS,
        notice_sent_at: now,
        language: input.language ?? null,
      }
      const row = existing
        ? await repo.update(existing.id, fields)
        : await repo.insert({ page_id: pageId, kind: 'email', email, source: 'self', manage_key: randomToken(16), created_at: now, ...fields })
      const w = this.wordsFor(page, fields.language)
      await this.deps.outbox.enqueue(trx, [{ target: `subscriber:${row!.id}`, mail: confirmationMail(email, page, confirmLink(page.url, token, w.lang), w) }])
    })
  }

  /**
   * A visitor's Slack or Teams channel: like an address, always the same outcome to the caller; a
   * new or pending channel gets the confirmation link posted to it (at most once an hour), so only
   * people who read the channel can turn the updates on; one already on gets nothing.
   */
  async subscribeChannel(pageId: number, input: { kind: ChatKind; url: string; componentIds: readonly number[]; language?: Language }): Promise<void> {
    const url = normalizeWebhookUrl(input.url)
    const page = await this.form(pageId)
    const componentIds = parseComponentIds(input.componentIds, page.components)
    const now = this.deps.clock.now()
    await this.deps.repo.transaction(async (repo, trx) => {
      const existing = await repo.activeUrl(pageId, url)
      if (existing && (existing.confirmed_at !== null || existing.kind === 'webhook')) return
      if (existing && existing.notice_sent_at !== null && now - existing.notice_sent_at < CONFIRM_RESEND_MS) return
      if (!existing && (await this.isFull(repo, page, now))) return
      const token = randomToken(32)
      const fields = {
        kind: input.kind,
        component_ids: componentIds === null ? null : JSON.stringify(componentIds),
        confirm_token_hash: await sha256Hex(token),
        confirm_expires_at: now + CONFIRM_TTL_MS,
        notice_sent_at: now,
        language: input.language ?? null,
      }
      const row = existing
        ? await repo.update(existing.id, fields)
        : await repo.insert({ page_id: pageId, email: null, url, source: 'self', manage_key: randomToken(16), created_at: now, ...fields })
      const w = this.wordsFor(page, fields.language)
      const view = confirmationView(input.kind, page, confirmLink(page.url, token, w.lang), now, w)
      await this.deps.outbox.enqueue(trx, [{ target: `subscriber:${row!.id}`, request: confirmationRequest(input.kind, url, view) }])
    })
  }

  /** A subscriber's words: their language (else the page's default), times in the page's zone. */
  private wordsFor(page: Pick<LoadedPage, 'language' | 'timeZone'>, chosen: string | null | undefined): Words {
    return words(subscriberLanguage(chosen, page.language), page.timeZone)
  }

  private async isFull(repo: SubscribersRepo, page: { id: number; plan: Owner['plan'] }, now: number): Promise<boolean> {
    const limit = subscriberLimit(page.plan)
    return limit !== null && (await repo.countTowardsLimit(page.id, now)) >= limit
  }

  /** The pending subscription a confirmation link names (still valid), for the confirm page. */
  async pendingByConfirmToken(pageId: number, token: string): Promise<SubscriberRow | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined
    const row = await this.deps.repo.byConfirmHash(await sha256Hex(token))
    if (!row || row.page_id !== pageId || row.confirmed_at !== null) return undefined
    if (row.confirm_expires_at === null || row.confirm_expires_at <= this.deps.clock.now()) return undefined
    return row
  }

  /** Confirms the subscription the link names; undefined when the link is unknown, spent or expired. */
  async confirm(pageId: number, token: string): Promise<ManageView | undefined> {
    const row = await this.pendingByConfirmToken(pageId, token)
    if (!row) return undefined
    // The confirmation mail does not count as a reminder: asking again later reminds at once.
    const done = await this.deps.repo.update(row.id, { confirmed_at: this.deps.clock.now(), confirm_token_hash: null, confirm_expires_at: null, notice_sent_at: null })
    return { subscriber: toSubscriber(done!), page: await this.publicPage(this.deps.repo, pageId) }
  }

  /** The subscription a manage token names on this page (also once unsubscribed), or undefined. */
  private async byManageToken(pageId: number, token: string): Promise<SubscriberRow | undefined> {
    const id = ManageTokens.idOf(token)
    if (id === undefined) return undefined
    const row = await this.deps.repo.byId(id)
    if (!row || row.page_id !== pageId) return undefined
    return (await this.tokens.matches(this.deps.repo, token, row.id, row.manage_key)) ? row : undefined
  }

  async manageView(pageId: number, token: string): Promise<ManageView | undefined> {
    const row = await this.byManageToken(pageId, token)
    if (!row) return undefined
    return { subscriber: toSubscriber(row), page: await this.publicPage(this.deps.repo, pageId) }
  }

  /** Changes the components of the subscription the token names (404 once unsubscribed); with `language`, its mails' language too. */
  async setComponents(pageId: number, token: string, raw: readonly number[], language?: Language): Promise<ManageView> {
    const row = await this.byManageToken(pageId, token)
    if (!row || row.unsubscribed_at !== null) throw notFound('this link is not valid (any more)')
    const page = await this.publicPage(this.deps.repo, pageId)
    const ids = parseComponentIds(raw, page.components)
    const done = await this.deps.repo.update(row.id, { component_ids: ids === null ? null : JSON.stringify(ids), ...(language === undefined ? {} : { language }) })
    return { subscriber: toSubscriber(done!), page }
  }

  /** Unsubscribes (idempotent); false when the token names nothing on this page. */
  async unsubscribe(pageId: number, token: string): Promise<boolean> {
    const row = await this.byManageToken(pageId, token)
    if (!row) return false
    if (row.unsubscribed_at === null) await this.deps.repo.update(row.id, { unsubscribed_at: this.deps.clock.now(), unsubscribe_reason: 'subscriber' })
    return true
  }

  /**
   * Called (in the worker's transaction) when the outbox disables a subscriber's target after too
   * many dead deliveries in a row: a dead webhook or an address that keeps refusing mail is
   * unsubscribed, so it no longer counts or gets written to.
   */
  async disableTarget(db: Db, target: string): Promise<void> {
    const match = /^subscriber:(\d+)$/.exec(target)
    if (!match) return
    const repo = new SubscribersRepo(db)
    const row = await repo.byId(Number(match[1]))
    if (row && row.unsubscribed_at === null) await repo.update(row.id, { unsubscribed_at: this.deps.clock.now(), unsubscribe_reason: 'failing' })
  }

  // ─── The owner's side ───────────────────────────────────────────────────────────────────────

  async counts(owner: Owner, pageId: number): Promise<SubscriberCounts> {
    const page = await this.deps.pages.get(owner, pageId)
    return { ...(await this.deps.repo.counts(page.id)), limit: subscriberLimit(owner.plan) }
  }

  async list(owner: Owner, pageId: number, options: { afterId?: number; limit?: number } = {}): Promise<{ subscribers: Subscriber[]; counts: SubscriberCounts }> {
    const page = await this.deps.pages.get(owner, pageId)
    const rows = await this.deps.repo.listActive(page.id, { afterId: options.afterId, limit: Math.min(options.limit ?? 100, MAX_LIST) })
    return { subscribers: rows.map(toSubscriber), counts: { ...(await this.deps.repo.counts(page.id)), limit: subscriberLimit(owner.plan) } }
  }

  /** A subscriber the owner adds: confirmed at once, on the owner's word that they agreed (`consent`). */
  async add(owner: Owner, pageId: number, input: AddSubscriberInput): Promise<Subscriber> {
    const page = await this.deps.pages.get(owner, pageId)
    if (input.consent !== true) throw badRequest('consent must be true: confirm that this person agreed to get these updates')
    const components = await this.deps.repo.components(page.id)
    const componentIds = input.component_ids === undefined || input.component_ids === null ? null : parseComponentIds(input.component_ids, components)
    const kind = input.kind ?? 'email'
    const address = kind === 'email' ? { email: normalizeEmail(input.email ?? ''), url: null } : { email: null, url: normalizeWebhookUrl(input.url ?? '') }
    const now = this.deps.clock.now()
    return this.deps.repo.transaction(async (repo) => {
      if (address.email !== null) {
        const existing = await repo.activeEmail(page.id, address.email)
        if (existing?.confirmed_at !== null && existing) throw conflict('email is already subscribed to this page')
        // A visitor still pending: the owner's word confirms them.
        if (existing) return toSubscriber((await repo.update(existing.id, { confirmed_at: now, confirm_token_hash: null, confirm_expires_at: null, component_ids: componentIds === null ? null : JSON.stringify(componentIds) }))!)
      } else if ((await repo.activeAddresses(page.id)).has(address.url!)) throw conflict('url is already a subscriber of this page')
      await this.requireRoom(repo, owner, page.id, 1, now)
      const row = await repo.insert(this.ownerRow(page.id, kind, address, componentIds, 'owner', now))
      return { ...toSubscriber(row), ...(row.signing_secret ? { revealedSigningSecret: row.signing_secret } : {}) }
    })
  }

  private ownerRow(pageId: number, kind: SubscriberKind, address: { email: string | null; url: string | null }, componentIds: number[] | null, source: SubscriberSource, now: number): NewSubscriber {
    return {
      page_id: pageId,
      kind,
      ...address,
      component_ids: componentIds === null ? null : JSON.stringify(componentIds),
      source,
      confirmed_at: now,
      manage_key: randomToken(16),
      created_at: now,
      signing_secret: kind === 'webhook' ? generateSigningSecret() : null,
    }
  }

  private async requireRoom(repo: SubscribersRepo, owner: Owner, pageId: number, adding: number, now: number): Promise<void> {
    const limit = subscriberLimit(owner.plan)
    if (limit === null) return
    const count = await repo.countTowardsLimit(pageId, now)
    if (count + adding > limit) throw forbidden(`the ${planLabel(owner.plan)} plan allows ${limit} subscribers per page and this page has ${count}`)
  }

  /** An active subscriber of the owner's page; 404 for anyone else's. */
  private async ownSubscriber(owner: Owner, pageId: number, subscriberId: number): Promise<SubscriberRow> {
    const page = await this.deps.pages.get(owner, pageId)
    const row = await this.deps.repo.byId(subscriberId)
    if (!row || row.page_id !== page.id || row.unsubscribed_at !== null) throw notFound('no such subscriber')
    return row
  }

  async get(owner: Owner, pageId: number, subscriberId: number): Promise<Subscriber> {
    return toSubscriber(await this.ownSubscriber(owner, pageId, subscriberId))
  }

  async remove(owner: Owner, pageId: number, subscriberId: number): Promise<void> {
    const row = await this.ownSubscriber(owner, pageId, subscriberId)
    await this.deps.repo.update(row.id, { unsubscribed_at: this.deps.clock.now(), unsubscribe_reason: 'owner' })
  }

  /**
   * A new signing secret for a webhook subscriber, in force at once. The owner passes it on to
   * whoever runs the receiver: it is shown in full in this answer only.
   */
  async newSigningSecret(owner: Owner, pageId: number, subscriberId: number): Promise<Subscriber> {
    const row = await this.ownSubscriber(owner, pageId, subscriberId)
    if (row.kind !== 'webhook') throw badRequest('only webhook subscribers have a signing secret')
    const secret = generateSigningSecret()
    const updated = await this.deps.repo.update(row.id, { signing_secret: secret })
    return { ...toSubscriber(updated!), revealedSigningSecret: secret }
  }

  /** The subscriber's deliveries, newest first (the delivery log). */
  async deliveryLog(owner: Owner, pageId: number, subscriberId: number, options: { before?: number; limit?: number } = {}): Promise<DeliveryEntry[]> {
    const row = await this.ownSubscriber(owner, pageId, subscriberId)
    return this.deps.deliveries.list(`subscriber:${row.id}`, options)
  }

  /** Queues a finished delivery to the subscriber again ("send again"). */
  async resendDelivery(owner: Owner, pageId: number, subscriberId: number, deliveryId: number): Promise<DeliveryEntry> {
    const row = await this.ownSubscriber(owner, pageId, subscriberId)
    return this.deps.deliveries.resend(`subscriber:${row.id}`, deliveryId)
  }

  /** The key a webhook subscriber's requests are signed with at each attempt. */
  readonly signingKeys: SigningKeySource = async (target) => {
    const match = /^subscriber:(\d+)$/.exec(target)
    const row = match ? await this.deps.repo.byId(Number(match[1])) : undefined
    return row?.signing_secret ? { secret: row.signing_secret } : undefined
  }

  /**
   * Imports a CSV (header row; `email` or `url` column, optional `type` and `components`), all or
   * nothing: any bad row is reported (line and reason, up to 20) and nothing is added. Addresses
   * already subscribed are skipped, not errors, so importing an export again is harmless.
   */
  async importCsv(owner: Owner, pageId: number, input: { csv: string; consent: boolean }): Promise<{ imported: number; skipped: number }> {
    const page = await this.deps.pages.get(owner, pageId)
    if (input.consent !== true) throw badRequest('consent must be true: confirm that the people in this file agreed to get these updates')
    const components = await this.deps.repo.components(page.id)
    const read = readImport(input.csv, components, MAX_IMPORT_ROWS)
    if ('errors' in read) throw badRequest(`csv cannot be imported: ${read.errors.join('; ')}`)
    const now = this.deps.clock.now()
    return this.deps.repo.transaction(async (repo) => {
      const taken = await repo.activeAddresses(page.id)
      const fresh = read.rows.filter((row) => !taken.has(row.email ?? row.url!))
      await this.requireRoom(repo, owner, page.id, fresh.length, now)
      await repo.insertMany(fresh.map((row) => this.ownerRow(page.id, row.kind, { email: row.email, url: row.url }, row.componentIds, 'import', now)))
      return { imported: fresh.length, skipped: read.rows.length - fresh.length }
    })
  }

  /** Every active subscriber as CSV (the import's columns first); formula-like cells escaped. */
  async exportCsv(owner: Owner, pageId: number): Promise<string> {
    const page = await this.deps.pages.get(owner, pageId)
    const rows = await this.deps.repo.listActive(page.id)
    return exportCsv(rows.map(toSubscriber))
  }

  /** For the fan-out. */
  get store(): SubscribersRepo {
    return this.deps.repo
  }

  pageRef(page: PageAddressRow & { name: string }): PageRef & { slug: string } {
    return { name: page.name, url: this.pageUrl(page), slug: page.slug }
  }
}
