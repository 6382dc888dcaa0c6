import { t, type Static } from 'elysia'
import { entityId, boundedText, modelRef, namedModels } from '../../http/schemas.ts'
import { toIso, toIsoOrNull } from '../../lib/time.ts'
import { NOTIFY_EVENT_KINDS } from '../notify/contract.ts'
import { MAX_CHANNEL_NAME, type Channel } from './service.ts'
import { CHANNEL_TYPES } from './types.ts'

const TYPE_ERROR = `type must be one of ${CHANNEL_TYPES.join(', ')}`
const ChannelType = t.Union(CHANNEL_TYPES.map((type) => t.Literal(type)), { error: TYPE_ERROR })
const setting = (field: string, max: number, description: string) =>
  t.Optional(t.String({ maxLength: max, error: `${field} must be a string of at most ${max} characters`, description }))

/** The settings every type takes (which ones a type needs: the guide and the error of a missing one). */
const settings = {
  address: setting('address', 254, 'email: the address to notify (gets a verification link first)'),
  url: setting('url', 2000, 'webhook, slack, discord, teams: the full webhook URL (Teams: a Workflows URL; Slack: an incoming webhook, or give bot_token and chat_id instead). Secret: shown masked'),
  signing_secret: setting('signing_secret', 100, 'webhook: the Standard Webhooks signing secret, `whsec_` + 16–64 bytes in base64. Leave it out and Lantern makes one (shown once, in the answer). Secret: shown masked; empty on a change keeps it'),
  secret: setting('secret', 200, 'webhook, deprecated: a secret of your own (16–200 characters) for the old `X-Lantern-Signature` header, sent beside the Standard Webhooks headers while the deprecation lasts. Secret'),
  bot_token: setting('bot_token', 200, 'telegram: the bot token from @BotFather; slack (instead of url): a bot token xoxb-… with the chat:write scope, whose outage messages are edited on recovery. Secret'),
  chat_id: setting('chat_id', 100, 'telegram: numeric chat id or @channelname; slack (with bot_token): the channel id, like C0123456789'),
  topic: setting('topic', 64, 'ntfy: the topic (posted to NTFY_URL/<topic>)'),
  access_token: setting('access_token', 200, 'ntfy: optional access token of a protected topic. Secret'),
  routing_key: setting('routing_key', 64, 'pagerduty: the integration (routing) key of an Events API v2 integration. Secret'),
}
const pageIds = t.Array(entityId('page_ids must contain positive integer ids'), {
  maxItems: 100,
  error: 'page_ids must be an array of at most 100 page ids',
  description: 'The pages whose events the channel hears (with all_pages false)',
})
const events = t.Array(t.String({ maxLength: 40 }), {
  maxItems: 20,
  error: 'events must be an array of event names',
  description: `Event kinds the channel hears: ${NOTIFY_EVENT_KINDS.join(', ')}. Default: the incident, component and maintenance events`,
})

export const CreateChannelBody = t.Object({
  type: ChannelType,
  name: boundedText('name', MAX_CHANNEL_NAME),
  ...settings,
  all_pages: t.Optional(t.Boolean({ error: 'all_pages must be true or false', description: 'Every page of yours, and events without a page (certificates, DNSBL). Default: true unless page_ids is given' })),
  all_monitors: t.Optional(t.Boolean({ error: 'all_monitors must be true or false', description: 'Hear the monitor.* events of every monitor of yours, not only of monitors that picked this channel. Default: false' })),
  page_ids: t.Optional(pageIds),
  events: t.Optional(events),
  enabled: t.Optional(t.Boolean({ error: 'enabled must be true or false' })),
})

export const UpdateChannelBody = t.Object({
  name: t.Optional(boundedText('name', MAX_CHANNEL_NAME)),
  ...settings,
  all_pages: t.Optional(t.Boolean({ error: 'all_pages must be true or false' })),
  all_monitors: t.Optional(t.Boolean({ error: 'all_monitors must be true or false' })),
  page_ids: t.Optional(pageIds),
  events: t.Optional(events),
  enabled: t.Optional(t.Boolean({ error: 'enabled must be true or false' })),
})

const DeliveryJson = t.Nullable(
  t.Object({
    result: t.Nullable(t.Union([t.Literal('sent'), t.Literal('failed'), t.Literal('dead')], { description: 'failed = will be retried, dead = gave up' })),
    error: t.Nullable(t.String()),
    at: t.Nullable(t.String({ description: 'RFC 3339' })),
    queued: t.Integer({ description: 'Deliveries waiting to be sent' }),
  }),
  { description: 'The last delivery to this channel, from the outbox' },
)

const ChannelJson = t.Object({
  id: t.Integer(),
  type: ChannelType,
  name: t.String(),
  settings: t.Record(t.String(), t.String(), { description: 'The settings, secrets masked (…last 4 characters)' }),
  all_pages: t.Boolean(),
  all_monitors: t.Boolean({ description: 'Hears the monitor.* events of every monitor of the owner' }),
  pages: t.Array(t.Object({ id: t.Integer(), name: t.String() })),
  events: t.Array(t.String()),
  enabled: t.Boolean(),
  verified: t.Boolean({ description: 'email: the link was followed; others: a test send succeeded' }),
  verified_at: t.Nullable(t.String()),
  verification_expires_at: t.Nullable(t.String({ description: 'email channels waiting for their link' })),
  test_requested_at: t.Nullable(t.String()),
  disabled: t.Boolean({ description: 'The outbox gave up after too many failures; save or test the channel to turn it back on' }),
  disabled_reason: t.Nullable(t.String()),
  last_delivery: DeliveryJson,
  created_at: t.String(),
  updated_at: t.String(),
  signing_secret: t.Optional(t.String({ description: 'Webhook channels: the signing secret in full, only in the answer that made it (create without one, POST …/signing-secret). Keep it: it is not shown again' })),
})

export const channelModels = namedModels({ NotificationChannel: ChannelJson })
export const ChannelRef = modelRef(channelModels, 'NotificationChannel')

export function channelJson(channel: Channel): Static<typeof ChannelJson> {
  const last = channel.lastDelivery
  return {
    id: channel.id,
    type: channel.type,
    name: channel.name,
    settings: channel.settings,
    all_pages: channel.allPages,
    all_monitors: channel.allMonitors,
    pages: channel.pages,
    events: channel.events,
    enabled: channel.enabled,
    verified: channel.verifiedAt !== null,
    verified_at: toIsoOrNull(channel.verifiedAt),
    verification_expires_at: toIsoOrNull(channel.verifyExpiresAt),
    test_requested_at: toIsoOrNull(channel.testRequestedAt),
    disabled: channel.disabledAt !== null,
    disabled_reason: channel.disabledReason,
    last_delivery: last ? { result: last.lastResult, error: last.lastError, at: toIsoOrNull(last.lastAt), queued: last.queued } : null,
    created_at: toIso(channel.createdAt),
    updated_at: toIso(channel.updatedAt),
    ...(channel.revealedSigningSecret ? { signing_secret: channel.revealedSigningSecret } : {}),
  }
}
