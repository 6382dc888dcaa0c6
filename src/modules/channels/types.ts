/**
 * Channel types and their settings: parsing what the owner typed, masking secrets for display.
 * Secrets (webhook signing secret, chat webhook URLs — whoever knows one can post —, the Telegram
 * bot token, the ntfy access token, the PagerDuty routing key) are never shown back in full.
 */
import { badRequest } from '../../lib/errors.ts'
import { NOTIFY_EVENT_KINDS, type NotifyEventKind } from '../notify/contract.ts'
import { signingKeyBytes } from '../notify/webhook-signing.ts'

export const CHANNEL_TYPES = ['email', 'webhook', 'slack', 'discord', 'telegram', 'teams', 'ntfy', 'pagerduty'] as const
export type ChannelType = (typeof CHANNEL_TYPES)[number]

export const CHANNEL_TYPE_LABELS: Record<ChannelType, string> = {
  email: 'Email',
  webhook: 'Webhook',
  slack: 'Slack',
  discord: 'Discord',
  telegram: 'Telegram',
  teams: 'Microsoft Teams',
  ntfy: 'ntfy',
  pagerduty: 'PagerDuty',
}

/** The settings of each type, as stored in config_json. */
export interface ChannelConfigs {
  email: { address: string }
  /** `signing_secret`: whsec_ (Standard Webhooks); `secret`: the deprecated X-Lantern-Signature's, channels from before only. */
  webhook: { url: string; signing_secret: string; secret?: string }
  /** An incoming webhook (`url`), or a bot (`bot_token` and the channel in `chat_id`), whose outage messages are edited. */
  slack: { url: string } | { bot_token: string; chat_id: string }
  discord: { url: string }
  teams: { url: string }
  telegram: { bot_token: string; chat_id: string }
  ntfy: { topic: string; access_token?: string }
  pagerduty: { routing_key: string }
}
export type ChannelConfig = ChannelConfigs[ChannelType]

/** The flat fields the API and the form take; which ones a type uses is in FIELDS_OF. */
export interface ChannelSettingsInput {
  address?: string
  url?: string
  secret?: string
  signing_secret?: string
  bot_token?: string
  chat_id?: string
  topic?: string
  access_token?: string
  routing_key?: string
}
export type SettingName = keyof ChannelSettingsInput
export const SETTING_NAMES: readonly SettingName[] = ['address', 'url', 'secret', 'signing_secret', 'bot_token', 'chat_id', 'topic', 'access_token', 'routing_key']

export const FIELDS_OF: Record<ChannelType, readonly SettingName[]> = {
  email: ['address'],
  webhook: ['url', 'signing_secret', 'secret'],
  slack: ['url', 'bot_token', 'chat_id'],
  discord: ['url'],
  teams: ['url'],
  telegram: ['bot_token', 'chat_id'],
  ntfy: ['topic', 'access_token'],
  pagerduty: ['routing_key'],
}

/** Fields shown masked; on a change, an omitted or empty one keeps the saved value. */
export const SECRET_FIELDS: ReadonlySet<SettingName> = new Set(['url', 'secret', 'signing_secret', 'bot_token', 'access_token', 'routing_key'])
/** Optional: the ntfy token; a webhook's signing secret (made when none is given) and its deprecated secret. */
const OPTIONAL_FIELDS: ReadonlySet<SettingName> = new Set(['access_token', 'signing_secret', 'secret'])

/** Types whose fields are alternatives, each set complete on its own (checked by `oneOf`). */
const ALTERNATIVES: Partial<Record<ChannelType, ReadonlyArray<readonly SettingName[]>>> = {
  slack: [['url'], ['bot_token', 'chat_id']],
}

/**
 * The kinds a new channel hears unless told otherwise: the page events, and the monitor events
 * (which reach it only from monitors that picked it, or every monitor when it takes them all).
 */
export const DEFAULT_EVENTS: readonly NotifyEventKind[] = [
  'incident.opened', 'incident.updated', 'incident.resolved', 'component.status_changed',
  'maintenance.scheduled', 'maintenance.started', 'maintenance.ended',
  'monitor.down', 'monitor.up', 'monitor.degraded', 'monitor.misconfigured',
]

export const isChannelType = (raw: string): raw is ChannelType => (CHANNEL_TYPES as readonly string[]).includes(raw)

/**
 * Types that get one delivery per event even when one outage caused several: machine consumers
 * expect the Statuspage-shaped `component_update` and `incident` payloads apart. Every other type
 * (mail, chat, paging) gets what one outage caused as one message.
 */
export const PER_EVENT_TYPES: ReadonlySet<ChannelType> = new Set(['webhook'])

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const MIN_SECRET_LENGTH = 16

function parseUrl(field: string, raw: string): string {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw badRequest(`${field} must be an absolute https or http URL`)
  }
  // Plain http only for receivers on the owner's own network (the outbox's address guard decides
  // which addresses may be reached at all); credentials in URLs end up in logs.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest(`${field} must be an absolute https or http URL`)
  if (url.username || url.password) throw badRequest(`${field} must not contain a user name or password`)
  if (url.hash) throw badRequest(`${field} must not contain a #fragment`)
  if (url.href.length > 2000) throw badRequest(`${field} must be at most 2000 characters`)
  return url.href
}

function parseField(type: ChannelType, field: SettingName, raw: string): string {
  const value = raw.trim()
  if (/[\u0000-\u001f\u007f]/.test(value) || !value.isWellFormed()) throw badRequest(`${field} must not contain control characters`)
  switch (field) {
    case 'address': {
      const email = value.toLowerCase()
      if (email.length > 254 || !EMAIL_PATTERN.test(email)) throw badRequest('address is not a valid email address')
      return email
    }
    case 'url':
      return parseUrl('url', value)
    case 'signing_secret':
      if (!signingKeyBytes(value)) throw badRequest('signing_secret must be whsec_ followed by 16 to 64 bytes in base64 (leave it empty and Lantern makes one)')
      return value
    case 'secret':
      if (value.length < MIN_SECRET_LENGTH || value.length > 200) throw badRequest(`secret must be ${MIN_SECRET_LENGTH} to 200 characters (e.g. openssl rand -hex 32)`)
      return value
    case 'bot_token':
      if (type === 'slack') {
        if (!/^xox[bp]-[A-Za-z0-9-]{10,200}$/.test(value)) throw badRequest('bot_token must be a Slack bot token, xoxb-… (OAuth & Permissions of your Slack app, with the chat:write scope)')
        return value
      }
      if (!/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/.test(value)) throw badRequest('bot_token must look like 123456789:AA… (from @BotFather)')
      return value
    case 'chat_id':
      if (type === 'slack') {
        if (!/^[CG][A-Z0-9]{6,20}$/.test(value)) throw badRequest('chat_id must be the Slack channel id, like C0123456789 (channel details → About, at the bottom)')
        return value
      }
      if (!/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,64})$/.test(value)) throw badRequest('chat_id must be a numeric chat id or an @channelname')
      return value
    case 'topic':
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw badRequest('topic must be 1 to 64 letters, digits, _ or -')
      return value
    case 'access_token':
      if (!/^[\x21-\x7e]{1,200}$/.test(value)) throw badRequest('access_token must be printable ASCII without spaces')
      return value
    case 'routing_key':
      if (!/^[A-Za-z0-9]{20,64}$/.test(value)) throw badRequest('routing_key must be the 32-character integration key of a PagerDuty service')
      return value
  }
  throw badRequest(`${field} is not a setting of ${type} channels`)
}

/**
 * The settings of a channel of `type` from the input; `current` (a change) supplies omitted fields,
 * and secrets sent empty keep their saved value. Fields of other types are refused.
 */
export function parseSettings(type: ChannelType, input: ChannelSettingsInput, current?: Record<string, string>): Record<string, string> {
  for (const field of SETTING_NAMES) {
    const value = input[field]
    if (value !== undefined && value !== '' && !FIELDS_OF[type].includes(field)) throw badRequest(`${field} is not a setting of ${type} channels`)
  }
  const choices = ALTERNATIVES[type]
  if (!choices) return parseFields(type, FIELDS_OF[type], input, current)
  // The set the input names wins (a change may switch sets); else the saved one; else the first.
  const named = (set: readonly SettingName[]) => set.some((field) => input[field] !== undefined && input[field] !== '')
  const given = choices.filter(named)
  const takes = `${type} channels take ${choices.map((set) => set.join(' and ')).join(', or ')}`
  if (given.length > 1) throw badRequest(`${takes}: not both`)
  const chosen = given[0] ?? choices.find((set) => set.every((field) => current?.[field] !== undefined))
  if (!chosen) throw badRequest(takes)
  return parseFields(type, chosen, input, given.length === 0 ? current : Object.fromEntries(Object.entries(current ?? {}).filter(([field]) => chosen.includes(field as SettingName))))
}

function parseFields(type: ChannelType, own: readonly SettingName[], input: ChannelSettingsInput, current?: Record<string, string>): Record<string, string> {
  const settings: Record<string, string> = {}
  for (const field of own) {
    const raw = input[field]
    const kept = current?.[field]
    if (raw === undefined || raw === '') {
      if (kept !== undefined && (raw === undefined || SECRET_FIELDS.has(field))) settings[field] = kept
      else if (!OPTIONAL_FIELDS.has(field)) throw badRequest(`${field} is required for ${type} channels`)
      continue
    }
    settings[field] = parseField(type, field, raw)
  }
  return settings
}

/** A secret for display: enough to recognise it, never enough to use it. */
export function maskSecret(value: string): string {
  return value.length >= 16 ? `…${value.slice(-4)}` : '…'
}

export function maskUrl(value: string): string {
  try {
    const url = new URL(value)
    return `${url.origin}/…${value.length >= 24 ? value.slice(-4) : ''}`
  } catch {
    return '…'
  }
}

/** The settings as shown to the owner: secrets masked. */
export function maskedSettings(settings: Record<string, string>): Record<string, string> {
  const shown: Record<string, string> = {}
  for (const [field, value] of Object.entries(settings)) {
    shown[field] = field === 'url' ? maskUrl(value) : SECRET_FIELDS.has(field as SettingName) ? maskSecret(value) : value
  }
  return shown
}

export function parseEvents(raw: readonly string[]): NotifyEventKind[] {
  if (raw.length === 0) throw badRequest('events must name at least one event')
  const kinds = new Set<NotifyEventKind>()
  for (const kind of raw) {
    if (!(NOTIFY_EVENT_KINDS as readonly string[]).includes(kind)) throw badRequest(`events holds "${kind}", which is not an event kind`)
    kinds.add(kind as NotifyEventKind)
  }
  return NOTIFY_EVENT_KINDS.filter((kind) => kinds.has(kind))
}

export const EVENT_LABELS: Record<NotifyEventKind, string> = {
  'incident.opened': 'Incident opened',
  'incident.updated': 'Incident updated',
  'incident.resolved': 'Incident resolved',
  'incident.postmortem': 'Postmortem published',
  'component.status_changed': 'Component status changed',
  'maintenance.scheduled': 'Maintenance scheduled',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
  'sla.breach': 'SLA error budget crossed',
  'certificate.expiring': 'Certificate expiring',
  'certificate.renewed': 'Certificate renewed',
  'dnsbl.listed': 'Listed on a blocklist',
  'dnsbl.delisted': 'Removed from a blocklist',
  'email_auth.changed': 'Email authentication changed',
  'monitor.down': 'Monitor down (and reminders)',
  'monitor.up': 'Monitor up again',
  'monitor.degraded': 'Monitor degraded',
  'monitor.misconfigured': 'Monitor misconfigured',
}
