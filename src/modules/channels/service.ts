/**
 * Owner notification channels: CRUD with ownership (someone else's channel is a
 * 404), secrets masked on the way out, email verification, test sends, and the fan-out of events.
 *
 * Verification:
 * - email: a link valid 24 h, single use, its token `<channel id>.<secret>` stored as SHA-256 of
 *   the secret and compared in constant time; resent at most once a minute and 5 times in 24 h;
 *   an unverified address receives nothing but the verification mail;
 * - webhook and chat channels: verified by a successful test send. "Send test" goes through the
 *   outbox like every other delivery (same adapter, same address guard, same retries); the channel
 *   counts as verified once the outbox reports a delivery to it succeeded after the test was asked
 *   for (an unverified channel receives nothing else, so that delivery is the test): the worker's
 *   onTargetSent hook marks it in the transaction that records the success, so the next alert
 *   reaches it whether or not anyone looks at the channel in between.
 * Changing where a channel sends (address, URL, token, key) makes it unverified again.
 *
 * Webhook channels sign with a `whsec_` secret (Standard Webhooks): made by Lantern unless the owner
 * gives one, shown in full once (in the answer that made it), masked ever after.
 */
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import { constantTimeEqual, randomToken, sha256Hex } from '../../lib/crypto.ts'
import { badRequest, conflict, HttpError, notFound } from '../../lib/errors.ts'
import { parseIdList, parseText } from '../../lib/text.ts'
import type { Owner } from '../accounts/service.ts'
import { isMonitorEvent, type Delivery, type Fanout, type NotifyEvent, type NotifyEventKind, type OutboxWriter, type TargetDisabledHook, type TargetSentHook } from '../notify/contract.ts'
import type { DeliveryEntry, DeliveryLog } from '../notify/delivery-log.ts'
import type { TargetHistory } from '../notify/outbox.ts'
import { fromDomain } from '../notify/mail.ts'
import { generateSigningSecret, type SigningKeySource } from '../notify/webhook-signing.ts'
import { deliveryFor, testDeliveriesFor, webhookDocsUrl, type AdapterUrls } from './adapters/index.ts'
import { loadEventView, testEventView, type EventView, type MonitorFacts } from './event-view.ts'
import { causeOf, loadMonitorFacts, outageView } from './outage-view.ts'
import { ChannelsRepo, type ChannelRow } from './repo.ts'
import { verificationMail, disabledMail } from './mails.ts'
import {
  DEFAULT_EVENTS, FIELDS_OF, isChannelType, maskedSettings, parseEvents, parseSettings, PER_EVENT_TYPES,
  type ChannelSettingsInput, type ChannelType,
} from './types.ts'

// The settings' rules, pure, for those who compare channels before writing them (configuration as code).
export { DEFAULT_EVENTS, FIELDS_OF, isChannelType, parseEvents, parseSettings, SECRET_FIELDS, type ChannelType } from './types.ts'

export const MAX_CHANNELS_PER_OWNER = 50
export const MAX_CHANNEL_NAME = 100
export const VERIFY_TTL_MS = 24 * 3600_000
export const RESEND_INTERVAL_MS = 60_000
export const RESENDS_PER_DAY = 5

/** The outbox's view of where channels stand (notify/outbox.ts): last result, re-enabling, forgetting. */
export interface ChannelOutbox extends OutboxWriter {
  deliveryHistory(db: Db, targets: readonly string[]): Promise<Map<string, TargetHistory>>
  enableTarget(db: Db, target: string): Promise<void>
  forgetTarget(db: Db, target: string): Promise<void>
}

export interface Channel {
  id: number
  type: ChannelType
  name: string
  /** The settings with secrets masked. */
  settings: Record<string, string>
  allPages: boolean
  /** Hears the monitor events of every monitor of the owner (else only of monitors that picked it). */
  allMonitors: boolean
  pages: Array<{ id: number; name: string }>
  events: NotifyEventKind[]
  enabled: boolean
  verifiedAt: number | null
  /** Email channels: when the verification link expires (null when none is pending). */
  verifyExpiresAt: number | null
  testRequestedAt: number | null
  disabledAt: number | null
  disabledReason: string | null
  /** The outbox's last result for the channel (null before anything was queued). */
  lastDelivery: TargetHistory | null
  createdAt: number
  updatedAt: number
  /** A webhook's signing secret in full: only in the answer that made it (create, new secret). */
  revealedSigningSecret?: string
}

export interface ChannelInput extends ChannelSettingsInput {
  type?: string
  name?: string
  all_pages?: boolean
  all_monitors?: boolean
  page_ids?: number[]
  events?: string[]
  enabled?: boolean
}

export const channelTarget = (id: number) => `channel:${id}`

const settingsOf = (row: ChannelRow) => JSON.parse(row.config_json) as Record<string, string>

export interface ChannelsServiceDeps {
  repo: ChannelsRepo
  outbox: ChannelOutbox
  clock: Clock
  config: Config
  deliveries: DeliveryLog
}

export class ChannelsService {
  constructor(private readonly deps: ChannelsServiceDeps) {}

  get mailEnabled(): boolean {
    return this.deps.outbox.mailEnabled
  }

  private get urls(): AdapterUrls {
    const from = this.deps.config.mail.from
    return {
      ...this.deps.config.channels,
      manageUrl: `${this.deps.config.baseUrl}/user/notifications`,
      webhookDocsUrl: webhookDocsUrl(this.deps.config.baseUrl),
      ...(from ? { mailDomain: fromDomain(from) } : {}),
    }
  }

  // ---- owner API ----------------------------------------------------------------------------

  async list(owner: Owner): Promise<Channel[]> {
    return this.hydrate(await this.deps.repo.listByOwner(owner.id))
  }

  async get(owner: Owner, id: number): Promise<Channel> {
    return (await this.hydrate([await this.ownRow(owner, id)]))[0]!
  }

  /**
   * The owner's channels' settings with their secrets in full, by channel id: what configuration as
   * code compares a file with (it writes the secrets as references, never as values). No answer shows them.
   */
  async settingsInFull(owner: Owner): Promise<Map<number, Record<string, string>>> {
    return new Map((await this.deps.repo.listByOwner(owner.id)).map((row) => [row.id, settingsOf(row)]))
  }

  async create(owner: Owner, input: ChannelInput): Promise<Channel> {
    if (input.type === undefined) throw badRequest('type is required')
    if (!isChannelType(input.type)) throw badRequest('type must be one of email, webhook, slack, discord, telegram, teams, ntfy, pagerduty')
    if (input.name === undefined) throw badRequest('name is required')
    const type = input.type
    const name = parseText('name', input.name, { max: MAX_CHANNEL_NAME })
    const settings = parseSettings(type, input)
    const made = type === 'webhook' && !settings.signing_secret ? generateSigningSecret() : undefined
    if (made) settings.signing_secret = made
    const events = input.events === undefined ? [...DEFAULT_EVENTS] : parseEvents(input.events)
    const allPages = input.all_pages ?? (input.page_ids === undefined || input.page_ids.length === 0)
    const pageIds = await this.ownedPageIds(owner, input.page_ids ?? [])
    if (!allPages && pageIds.length === 0) throw badRequest('page_ids must name at least one page unless all_pages is true')
    if ((await this.deps.repo.countByOwner(owner.id)).n >= MAX_CHANNELS_PER_OWNER) throw conflict(`an account may have at most ${MAX_CHANNELS_PER_OWNER} notification channels`)
    const now = this.deps.clock.now()
    const id = await this.deps.repo.transaction(async (repo) => {
      const row = await repo.insert({
        owner_id: owner.id, type, name, config_json: JSON.stringify(settings), events_json: JSON.stringify(events),
        all_pages: allPages ? 1 : 0, all_monitors: input.all_monitors ? 1 : 0, enabled: input.enabled === false ? 0 : 1, created_at: now, updated_at: now,
      })
      await repo.setPages(row.id, allPages ? [] : pageIds)
      if (type === 'email') await this.sendVerification(repo, row, now)
      return row.id
    })
    return { ...(await this.get(owner, id)), ...(made ? { revealedSigningSecret: made } : {}) }
  }

  /** A new signing secret for a webhook channel, in force at once; shown in full in this answer only. */
  async newSigningSecret(owner: Owner, id: number): Promise<Channel> {
    const row = await this.ownRow(owner, id)
    if (row.type !== 'webhook') throw badRequest('only webhook channels have a signing secret')
    const secret = generateSigningSecret()
    await this.deps.repo.update(id, { config_json: JSON.stringify({ ...settingsOf(row), signing_secret: secret }), updated_at: this.deps.clock.now() })
    return { ...(await this.get(owner, id)), revealedSigningSecret: secret }
  }

  /** The channel's deliveries, newest first (the delivery log). */
  async deliveryLog(owner: Owner, id: number, options: { before?: number; limit?: number } = {}): Promise<DeliveryEntry[]> {
    await this.ownRow(owner, id)
    return this.deps.deliveries.list(channelTarget(id), options)
  }

  /** Queues a finished delivery of the channel again ("send again"). */
  async resendDelivery(owner: Owner, id: number, deliveryId: number): Promise<DeliveryEntry> {
    await this.ownRow(owner, id)
    return this.deps.deliveries.resend(channelTarget(id), deliveryId)
  }

  async update(owner: Owner, id: number, input: ChannelInput): Promise<Channel> {
    const row = await this.ownRow(owner, id)
    if (input.type !== undefined && input.type !== row.type) throw badRequest('type cannot be changed; create a new channel')
    const type = row.type as ChannelType
    const current = settingsOf(row)
    const settings = parseSettings(type, input, current)
    const moved = FIELDS_OF[type].some((field) => settings[field] !== current[field])
    const now = this.deps.clock.now()
    const changes: Parameters<ChannelsRepo['update']>[1] = { config_json: JSON.stringify(settings), updated_at: now }
    if (input.name !== undefined) changes.name = parseText('name', input.name, { max: MAX_CHANNEL_NAME })
    if (input.events !== undefined) changes.events_json = JSON.stringify(parseEvents(input.events))
    if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0
    if (input.all_monitors !== undefined) changes.all_monitors = input.all_monitors ? 1 : 0
    // Saving a channel the outbox disabled gives it a fresh start (the owner has looked at it).
    const reenable = row.disabled_at !== null
    if (reenable) Object.assign(changes, { disabled_at: null, disabled_reason: null })
    let pageIds: number[] | undefined
    if (input.page_ids !== undefined) pageIds = await this.ownedPageIds(owner, input.page_ids)
    const allPages = input.all_pages ?? (pageIds === undefined ? row.all_pages === 1 : pageIds.length === 0)
    changes.all_pages = allPages ? 1 : 0
    if (!allPages && pageIds === undefined && row.all_pages === 1) throw badRequest('page_ids must name at least one page unless all_pages is true')
    if (!allPages && pageIds !== undefined && pageIds.length === 0) throw badRequest('page_ids must name at least one page unless all_pages is true')
    if (moved) Object.assign(changes, { verified_at: null, test_requested_at: null })
    await this.deps.repo.transaction(async (repo) => {
      if (moved && type === 'email') this.checkResend(row, now)
      const updated = await repo.update(id, changes)
      if (reenable) await this.deps.outbox.enableTarget(repo.db, channelTarget(id))
      if (allPages) await repo.setPages(id, [])
      else if (pageIds !== undefined) await repo.setPages(id, pageIds)
      if (moved && type === 'email') await this.sendVerification(repo, updated, now, { resend: true })
    })
    return this.get(owner, id)
  }

  async delete(owner: Owner, id: number): Promise<void> {
    await this.ownRow(owner, id)
    await this.deps.repo.transaction(async (repo) => {
      await repo.delete(id)
      await this.deps.outbox.forgetTarget(repo.db, channelTarget(id))
    })
  }

  /**
   * Queues a test message to the channel (through the outbox, like every delivery). An email
   * channel must be verified first: nothing but the verification mail goes to an unverified address.
   */
  async sendTest(owner: Owner, id: number): Promise<Channel> {
    const row = await this.ownRow(owner, id)
    if (row.type === 'email') {
      if (row.verified_at === null) throw conflict('the address is not verified yet: follow the link in the verification mail first')
      if (!this.deps.outbox.mailEnabled) throw conflict('mail is off on this Lantern (no SMTP settings), so email channels cannot be tested')
    }
    const now = this.deps.clock.now()
    await this.deps.repo.transaction(async (repo) => {
      await repo.update(id, { test_requested_at: now, disabled_at: null, disabled_reason: null })
      // A test is the owner's way back after the outbox disabled the channel.
      await this.deps.outbox.enableTarget(repo.db, channelTarget(id))
      const deliveries = await testDeliveriesFor({ id, type: row.type as ChannelType, settings: settingsOf(row) }, testEventView(row.name, now, this.deps.config), this.urls)
      await this.deps.outbox.enqueue(repo.db, deliveries)
    })
    return this.get(owner, id)
  }

  /** Sends a new verification link (the old one stops working): once a minute, 5 times in 24 h. */
  async resendVerification(owner: Owner, id: number): Promise<Channel> {
    const row = await this.ownRow(owner, id)
    if (row.type !== 'email') throw badRequest('only email channels are verified by mail; use "Send test" for the others')
    if (row.verified_at !== null) throw conflict('the address is already verified')
    if (!this.deps.outbox.mailEnabled) throw conflict('mail is off on this Lantern (no SMTP settings), so no verification mail can be sent')
    const now = this.deps.clock.now()
    this.checkResend(row, now)
    await this.deps.repo.transaction((repo) => this.sendVerification(repo, row, now, { resend: true }))
    return this.get(owner, id)
  }

  // ---- the verification link (no login: the token is the proof) -----------------------------

  /** Verifies an email channel from its link; a 400 for unknown, used or expired links. */
  async verify(token: string): Promise<{ name: string; address: string }> {
    const refused = badRequest('This verification link is not valid: it expired (links work for 24 hours) or was already used. Ask for a new one in the web app.')
    const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token.trim())
    if (!match) throw refused
    const row = await this.deps.repo.find(Number(match[1]))
    if (!row || row.type !== 'email' || row.verify_token_hash === null || row.verify_expires_at === null) throw refused
    if (!constantTimeEqual(await sha256Hex(match[2]!), row.verify_token_hash)) throw refused
    const now = this.deps.clock.now()
    if (now >= row.verify_expires_at) throw refused
    // Single use: the hash is cleared with the verification, in one statement.
    await this.deps.repo.update(row.id, { verified_at: now, verify_token_hash: null, verify_expires_at: null, updated_at: now })
    return { name: row.name, address: settingsOf(row).address ?? '' }
  }

  // ---- fan-out and the outbox hooks (registered in services.ts) ------------------------------

  /**
   * A group of events (one, or all that one outage caused) to every listening channel of the
   * owner, in the emitting transaction: ONE delivery per mail and chat channel for the events it
   * listens to, and one per event for webhook channels (PER_EVENT_TYPES).
   */
  readonly fanout: Fanout = async (db, events) => {
    const first = events[0]
    if (!first) return
    // One group is about one owner: a page's events, a monitor's, or both for one outage.
    const repo = new ChannelsRepo(db)
    const ownerId = first.pageId !== null ? await repo.pageOwner(first.pageId) : 'ownerId' in first ? first.ownerId : undefined
    if (ownerId === undefined) return
    const monitorIds = [...new Set(events.filter(isMonitorEvent).map((event) => event.monitorId))]
    const pageEvents = events.some((event) => !isMonitorEvent(event))
    const forPages = pageEvents ? new Set((await repo.listening(ownerId, first.pageId)).map((row) => row.id)) : new Set<number>()
    const forMonitors = monitorIds.length > 0 ? await repo.monitorListeners(ownerId, monitorIds) : new Map<number, Set<number>>()
    // A monitor event reaches the channels its monitor picked (or that take every monitor); a page event the page's.
    const hears = (row: ChannelRow, event: NotifyEvent) =>
      isMonitorEvent(event) ? (forMonitors.get(row.id)?.has(event.monitorId) ?? false) : forPages.has(row.id)
    const channels = (await repo.active(ownerId)).filter((row) => forPages.has(row.id) || forMonitors.has(row.id))
    if (channels.length === 0) return
    const views = new Map<NotifyEvent, Promise<EventView | undefined>>()
    const viewOf = (event: NotifyEvent) => {
      let view = views.get(event)
      if (!view) views.set(event, (view = loadEventView(db, event, this.deps.config)))
      return view
    }
    let monitors: Promise<MonitorFacts[]> | undefined
    const deliveries: Delivery[] = []
    for (const row of channels) {
      const kinds = JSON.parse(row.events_json) as string[]
      const heard = (await Promise.all(events.filter((event) => kinds.includes(event.kind) && hears(row, event)).map(viewOf))).filter((view) => view !== undefined)
      if (heard.length === 0) continue
      const channel = { id: row.id, type: row.type as ChannelType, settings: settingsOf(row) }
      if (PER_EVENT_TYPES.has(channel.type)) {
        for (const view of heard) deliveries.push(await deliveryFor(channel, view, this.urls))
        continue
      }
      monitors ??= loadMonitorFacts(db, causeOf(events))
      deliveries.push(await deliveryFor(channel, outageView(heard, await monitors), this.urls))
    }
    await this.deps.outbox.enqueue(db, deliveries)
  }

  /** The outbox gave up on a channel: mark it and tell its owner (at the account's address). */
  readonly onTargetDisabled: TargetDisabledHook = async (db, target) => {
    const match = /^channel:(\d+)$/.exec(target)
    if (!match) return
    const repo = new ChannelsRepo(db)
    const row = await repo.find(Number(match[1]))
    if (!row || row.disabled_at !== null) return
    const now = this.deps.clock.now()
    const reason = 'Deliveries failed too many times in a row.'
    await repo.update(row.id, { disabled_at: now, disabled_reason: reason })
    const account = await repo.accountEmail(row.owner_id)
    if (account) await this.deps.outbox.enqueue(db, [{ target: `account:${account.id}`, mail: disabledMail(account.email, row.name, reason, this.urls.manageUrl) }])
  }

  /**
   * The outbox delivered to a target: when it is a webhook or chat channel waiting for its test,
   * that delivery was the test (an unverified channel receives nothing else) and the channel is
   * verified, in the transaction that records the success: the next fan-out reaches it.
   */
  readonly onTargetSent: TargetSentHook = async (db, target, at) => {
    const match = /^channel:(\d+)$/.exec(target)
    if (match) await new ChannelsRepo(db).verifyByTest(Number(match[1]), at)
  }

  /** The keys a webhook channel's requests are signed with at each attempt (its current secrets). */
  readonly signingKeys: SigningKeySource = async (target) => {
    const match = /^channel:(\d+)$/.exec(target)
    const row = match ? await this.deps.repo.find(Number(match[1])) : undefined
    const settings = row ? settingsOf(row) : undefined
    if (!settings?.signing_secret) return undefined
    return { secret: settings.signing_secret, ...(settings.secret ? { legacySecret: settings.secret } : {}) }
  }

  // ---- internals ----------------------------------------------------------------------------

  private async ownRow(owner: Owner, id: number): Promise<ChannelRow> {
    const row = await this.deps.repo.find(id)
    if (!row || row.owner_id !== owner.id) throw notFound()
    return row
  }

  private async ownedPageIds(owner: Owner, raw: readonly number[]): Promise<number[]> {
    const ids = parseIdList('page_ids', raw)
    const found = new Set((await this.deps.repo.ownedPages(owner.id, ids)).map((p) => p.id))
    const missing = ids.find((id) => !found.has(id))
    if (missing !== undefined) throw badRequest(`page_ids holds ${missing}, which is not one of your pages`)
    return ids
  }

  private checkResend(row: ChannelRow, now: number): void {
    if (row.verify_last_sent_at !== null && now - row.verify_last_sent_at < RESEND_INTERVAL_MS) {
      throw new HttpError(429, 'a verification mail was sent less than a minute ago; wait a minute before asking again')
    }
    const windowOpen = row.verify_window_start !== null && now - row.verify_window_start < VERIFY_TTL_MS
    if (windowOpen && row.verify_window_count >= RESENDS_PER_DAY) {
      throw new HttpError(429, `at most ${RESENDS_PER_DAY} verification mails may be resent in 24 hours; try again later`)
    }
  }

  /** A fresh token (the previous one stops working), its hash stored, the mail queued. */
  private async sendVerification(repo: ChannelsRepo, row: ChannelRow, now: number, options: { resend?: boolean } = {}): Promise<void> {
    const secret = randomToken(32)
    const changes: Parameters<ChannelsRepo['update']>[1] = {
      verify_token_hash: await sha256Hex(secret),
      verify_expires_at: now + VERIFY_TTL_MS,
      verify_last_sent_at: now,
    }
    if (options.resend) {
      const windowOpen = row.verify_window_start !== null && now - row.verify_window_start < VERIFY_TTL_MS
      changes.verify_window_start = windowOpen ? row.verify_window_start : now
      changes.verify_window_count = windowOpen ? row.verify_window_count + 1 : 1
    }
    const updated = await repo.update(row.id, changes)
    const link = `${this.deps.config.baseUrl}/user/notifications/verify?token=${row.id}.${secret}`
    await this.deps.outbox.enqueue(repo.db, [{ target: channelTarget(row.id), mail: verificationMail(settingsOf(updated).address!, row.name, link) }])
  }

  private async hydrate(rows: ChannelRow[]): Promise<Channel[]> {
    const ids = rows.map((row) => row.id)
    const [pages, history] = await Promise.all([this.deps.repo.pagesOf(ids), this.deps.outbox.deliveryHistory(this.deps.repo.db, ids.map(channelTarget))])
    const pagesOf = Map.groupBy(pages, (p) => p.channel_id)
    const channels: Channel[] = []
    for (const row of rows) {
      const last = history.get(channelTarget(row.id)) ?? null
      channels.push({
        id: row.id,
        type: row.type as ChannelType,
        name: row.name,
        settings: maskedSettings(settingsOf(row)),
        allPages: row.all_pages === 1,
        allMonitors: row.all_monitors === 1,
        pages: (pagesOf.get(row.id) ?? []).map((p) => ({ id: p.id, name: p.name })),
        events: JSON.parse(row.events_json) as NotifyEventKind[],
        enabled: row.enabled === 1,
        verifiedAt: row.verified_at,
        verifyExpiresAt: row.type === 'email' && row.verified_at === null ? row.verify_expires_at : null,
        testRequestedAt: row.test_requested_at,
        disabledAt: row.disabled_at,
        disabledReason: row.disabled_reason,
        lastDelivery: last,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      })
    }
    return channels
  }
}
