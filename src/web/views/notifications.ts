/**
 * The notification channels screens (pure): the list with verification and the last delivery
 * result, the type chooser, the add/edit form (the type's settings, pages, events), the channel
 * page with "Send test" / "Resend verification", the delete confirmation, and the public
 * verification pages of email channels.
 */
import { withArticle } from '../../lib/words.ts'
import { formatDateTime } from '../../lib/human-time.ts'
import { html } from '../../lib/html.ts'
import type { Channel } from '../../modules/channels/service.ts'
import { CHANNEL_TYPE_LABELS, CHANNEL_TYPES, EVENT_LABELS, FIELDS_OF, SECRET_FIELDS, type ChannelType, type SettingName } from '../../modules/channels/types.ts'
import { NOTIFY_EVENT_KINDS } from '../../modules/notify/contract.ts'
import type { DeliveryEntry } from '../../modules/notify/delivery-log.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { deliveryLogSection, signingSecretNotice, signingSecretSection } from './deliveries.ts'
import { checkboxField, errorSummary, textField, type FormState, fieldErrorText } from '../kit/forms.ts'
import type { Crumb } from '../kit/layout.ts'

export const LABELS: Record<string, string> = {
  name: 'Name', address: 'Email address', url: 'Webhook URL', signing_secret: 'Signing secret', secret: 'Old secret (deprecated header)', bot_token: 'Bot token', chat_id: 'Chat id',
  topic: 'Topic', access_token: 'Access token', routing_key: 'Integration (routing) key', all_pages: 'All pages', all_monitors: 'Every monitor', page_ids: 'Pages',
  events: 'Events', enabled: 'Enabled',
}

const TYPE_HINTS: Record<ChannelType, string> = {
  email: 'Mail to an address, after it confirms a link we send.',
  webhook: 'Statuspage-shaped JSON to your URL, signed the Standard Webhooks way.',
  slack: 'An incoming-webhook URL of a Slack app, or a bot token and channel id instead: a bot edits an outage\'s message when it recovers, a webhook posts a second one.',
  discord: 'A channel webhook URL (Server settings → Integrations).',
  telegram: 'A bot of yours posting to a chat or channel.',
  teams: 'A Workflows URL ("Post to a channel when a webhook request is received").',
  ntfy: 'Push notifications to an ntfy topic.',
  pagerduty: 'Events API v2: incidents and outages open alerts, recoveries resolve them.',
}

const FIELD_HINTS: Partial<Record<SettingName, string>> = {
  url: 'The full URL the service gave you: https, or plain http (not encrypted on the way). It works like a password: it is shown shortened after saving.',
  signing_secret: 'Optional: leave it empty and Lantern makes one (shown once). Or paste a Standard Webhooks secret: whsec_ and 16 to 64 bytes in base64.',
  secret: 'Deprecated, optional: a secret of your own (at least 16 characters) for the old X-Lantern-Signature header, sent beside the standard headers for now.',
  bot_token: 'From @BotFather, like 123456789:AA…',
  chat_id: 'A numeric chat id (groups start with -) or @channelname.',
  topic: 'Letters, digits, _ and -. Anyone who knows a topic on a public server can read it: pick a hard one.',
  access_token: 'Optional: for a topic protected on your ntfy server.',
  routing_key: 'The 32-character key of an "Events API v2" integration of your PagerDuty service.',
}

export const notificationsCrumbs = (...rest: Crumb[]): Crumb[] =>
  rest.length === 0 ? [{ label: 'Notifications' }] : [{ label: 'Notifications', href: '/user/notifications' }, ...rest]

const when = (ms: number | null) => (ms === null ? '' : formatDateTime(ms))

export function verificationText(channel: Channel): string {
  if (channel.disabledAt !== null) return 'Disabled'
  if (channel.verifiedAt !== null) return channel.enabled ? 'Verified' : 'Verified, paused'
  return channel.type === 'email' ? 'Waiting for the link' : 'Not verified: send a test'
}

const statusBadge = (channel: Channel) =>
  html`<span class="badge!${channel.verifiedAt !== null && channel.disabledAt === null ? ' ok' : ''}">${verificationText(channel)}</span>`

export function lastDeliveryText(channel: Channel): string {
  const last = channel.lastDelivery
  if (!last || (last.lastResult === null && last.queued === 0)) return 'Nothing sent yet'
  const queued = last.queued > 0 ? ` (${last.queued} waiting)` : ''
  if (last.lastResult === null) return `Queued${queued}`
  const result = last.lastResult === 'sent' ? 'Delivered' : last.lastResult === 'failed' ? 'Failed, will retry' : 'Failed, gave up'
  return `${result} ${when(last.lastAt)}${last.lastError ? `: ${last.lastError}` : ''}${queued}`
}

const where = (channel: Channel) => Object.values(channel.settings)[0] ?? ''

export const mailOffNotice = (mailEnabled: boolean) =>
  mailEnabled
    ? ''
    : '<p class="form-error" role="note">Mail is off on this Lantern (no SMTP settings): email channels receive nothing, not even their verification link. Chat and webhook channels work.</p>'

export function channelsListView(channels: Channel[], mailEnabled: boolean): string {
  const rows = channels.map(
    (channel) => html`<tr>
  <td><a href="/user/notifications/${String(channel.id)}">${channel.name}</a></td>
  <td>${CHANNEL_TYPE_LABELS[channel.type]}<br><span class="muted">${where(channel)}</span></td>
  <td>${channel.allPages ? 'All pages' : channel.pages.map((p) => p.name).join(', ')}</td>
  <td>!${statusBadge(channel)}</td>
  <td>${lastDeliveryText(channel)}</td>
</tr>`,
  )
  const list =
    channels.length === 0
      ? '<p>No channels yet. A channel tells you (or your team\'s chat, or PagerDuty) when an incident opens, a component goes down or maintenance starts.</p>'
      : html`<section class="scroll" tabindex="0" aria-label="Your notification channels"><table><caption class="visually-hidden">Your notification channels</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Pages</th><th scope="col">State</th><th scope="col">Last delivery</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table></section>`
  const types = CHANNEL_TYPES.map(
    (type) => html`<li><a href="/user/notifications/new?type=${type}">${CHANNEL_TYPE_LABELS[type]}</a> <span class="muted">— ${TYPE_HINTS[type]}</span></li>`,
  )
  return html`<h1>Notifications</h1>
!${mailOffNotice(mailEnabled)}
<section class="card" aria-labelledby="channels-heading"><h2 id="channels-heading">Your channels</h2>!${list}</section>
<section class="card" aria-labelledby="add-heading"><h2 id="add-heading">Add a channel</h2><ul class="types">!${types.join('')}</ul></section>`
}

function pagesFieldset(pages: StatusPage[], form: FormState): string {
  const ticked = new Set((form.values.page_ids ?? '').split(',').filter(Boolean))
  const error = fieldErrorText(form, 'page_ids', 'Pages')
  const boxes = pages.map(
    (page) => html`<li><input type="checkbox" id="f-page-${String(page.id)}" name="page_ids" value="${String(page.id)}"!${ticked.has(String(page.id)) ? ' checked' : ''}> <label for="f-page-${String(page.id)}">${page.name}</label></li>`,
  )
  return html`<fieldset class="field!${error ? ' has-error' : ''}" id="f-page_ids"!${error ? ' aria-describedby="f-page_ids-error"' : ''}>
  <legend>Pages</legend>
  !${checkboxField({ name: 'all_pages', label: 'All my pages (also events without a page: certificates, blocklists)', state: form })}
  !${checkboxField({ name: 'all_monitors', label: 'Every monitor of mine (its down, up, degraded and misconfigured alerts; otherwise only monitors that pick this channel)', state: form })}
  !${pages.length === 0 ? '<p class="hint">You have no pages yet.</p>' : html`<p class="hint">Or only these pages (with "All my pages" unticked):</p><ul class="choices">!${boxes.join('')}</ul>`}
  !${error ? html`<p class="field-error" id="f-page_ids-error">${error}</p>` : ''}
</fieldset>`
}

function eventsFieldset(form: FormState): string {
  const ticked = new Set((form.values.events ?? '').split(',').filter(Boolean))
  const error = fieldErrorText(form, 'events', 'Events')
  const boxes = NOTIFY_EVENT_KINDS.map(
    (kind) => html`<li><input type="checkbox" id="f-event-${kind.replace('.', '-')}" name="events" value="${kind}"!${ticked.has(kind) ? ' checked' : ''}> <label for="f-event-${kind.replace('.', '-')}">${EVENT_LABELS[kind]}</label></li>`,
  )
  return html`<fieldset class="field!${error ? ' has-error' : ''}" id="f-events"!${error ? ' aria-describedby="f-events-error"' : ''}>
  <legend>Events</legend>
  <ul class="choices">!${boxes.join('')}</ul>
  !${error ? html`<p class="field-error" id="f-events-error">${error}</p>` : ''}
</fieldset>`
}

/** Slack takes a webhook URL or a bot: its fields say which, and none is required on its own. */
const SLACK_HINTS: Partial<Record<SettingName, string>> = {
  url: 'An incoming webhook: fill this, or the bot token and channel id below.',
  bot_token: 'A bot instead of a webhook: the Bot User OAuth Token (xoxb-…) of your Slack app, with the chat:write scope. Invite the bot to the channel.',
  chat_id: "With a bot token: the channel's id, like C0123456789 (channel details → About).",
}

function settingFields(type: ChannelType, form: FormState, saved?: Record<string, string>): string {
  return FIELDS_OF[type]
    .map((field) => {
      const secret = SECRET_FIELDS.has(field)
      const kept = saved?.[field]
      const hint = [(type === 'slack' ? SLACK_HINTS : FIELD_HINTS)[field], secret && kept ? `Saved: ${kept}. Leave empty to keep it.` : ''].filter(Boolean).join(' ')
      return textField({
        name: field,
        label: LABELS[field]!,
        state: form,
        hint: hint || undefined,
        type: field === 'address' ? 'email' : field === 'url' ? 'url' : 'text',
        required: !saved && field !== 'access_token' && type !== 'slack',
        autocomplete: 'off',
        maxLength: field === 'url' ? 2000 : 254,
      })
    })
    .join('')
}

export function channelFormView(type: ChannelType, pages: StatusPage[], form: FormState, mailEnabled: boolean): string {
  return html`<h1>Add ${withArticle(`${CHANNEL_TYPE_LABELS[type]} channel`)}</h1>
!${type === 'email' ? mailOffNotice(mailEnabled) : ''}
<section class="card" aria-labelledby="form-heading">
  <h2 id="form-heading" class="visually-hidden">Settings</h2>
  <p class="muted">${TYPE_HINTS[type]}</p>
  !${errorSummary(form, LABELS)}
  <form method="post" action="/user/notifications" class="stack" novalidate>
    <input type="hidden" name="type" value="${type}">
    !${textField({ name: 'name', label: 'Name', hint: 'For you, e.g. "Ops on-call".', required: true, maxLength: 100, state: form, autocomplete: 'off' })}
    !${settingFields(type, form)}
    !${pagesFieldset(pages, form)}
    !${eventsFieldset(form)}
    <button type="submit">Add channel</button>
  </form>
</section>`
}

export function channelView(channel: Channel, pages: StatusPage[], form: FormState, mailEnabled: boolean, deliveries: readonly DeliveryEntry[] = []): string {
  const id = String(channel.id)
  const webhook = channel.type === 'webhook'
  const verifyAction =
    channel.type === 'email'
      ? channel.verifiedAt === null
        ? html`<p>We sent a link to ${channel.settings.address ?? ''}!${channel.verifyExpiresAt ? html`, valid until ${when(channel.verifyExpiresAt)}` : ''}. Nothing else is sent to the address until it is followed.</p>
<form method="post" action="/user/notifications/${id}/resend" class="inline"><button type="submit" class="secondary">Resend verification mail</button></form>`
        : html`<form method="post" action="/user/notifications/${id}/test" class="inline"><button type="submit">Send test</button></form>`
      : html`<p class="hint">!${channel.verifiedAt === null ? 'A successful test send verifies the channel; until then it receives nothing else.' : 'Sends a test message now (through the delivery queue).'}</p>
<form method="post" action="/user/notifications/${id}/test" class="inline"><button type="submit">Send test</button></form>`
  return html`<h1>${channel.name}</h1>
!${channel.revealedSigningSecret ? signingSecretNotice(channel.revealedSigningSecret, 'Your receiver checks each request with this secret.') : ''}
!${channel.type === 'email' ? mailOffNotice(mailEnabled) : ''}
<section class="card" aria-labelledby="state-heading">
  <h2 id="state-heading">State</h2>
  <dl class="facts">
    <dt>Type</dt><dd>${CHANNEL_TYPE_LABELS[channel.type]}</dd>
    <dt>Verification</dt><dd>!${statusBadge(channel)}</dd>
    <dt>Last delivery</dt><dd>${lastDeliveryText(channel)}</dd>
    !${channel.disabledAt !== null ? html`<dt>Disabled</dt><dd>${when(channel.disabledAt)}: ${channel.disabledReason ?? ''} Save the channel or send a test to turn it back on.</dd>` : ''}
  </dl>
  !${verifyAction}
</section>
!${webhook ? signingSecretSection(`/user/notifications/${id}/signing-secret`, channel.settings.signing_secret) : ''}
!${deliveryLogSection(deliveries, (delivery) => `/user/notifications/${id}/deliveries/${delivery}/resend`)}
<section class="card" aria-labelledby="edit-heading">
  <h2 id="edit-heading">Settings</h2>
  !${errorSummary(form, LABELS)}
  <form method="post" action="/user/notifications/${id}" class="stack" novalidate>
    !${textField({ name: 'name', label: 'Name', required: true, maxLength: 100, state: form, autocomplete: 'off' })}
    !${settingFields(channel.type, form, channel.settings)}
    !${checkboxField({ name: 'enabled', label: 'Enabled (untick to pause the channel)', state: form })}
    !${pagesFieldset(pages, form)}
    !${eventsFieldset(form)}
    <button type="submit">Save channel</button>
  </form>
</section>
<section class="card danger" aria-labelledby="delete-heading">
  <h2 id="delete-heading">Delete</h2>
  <p><a class="button danger" href="/user/notifications/${id}/delete">Delete channel…</a></p>
</section>`
}

export function deleteChannelView(channel: Channel): string {
  const id = String(channel.id)
  return html`<h1>Delete the channel "${channel.name}"?</h1>
<section class="card narrow danger">
  <p>Nothing more is sent to it; what is still queued is dropped.</p>
  <form method="post" action="/user/notifications/${id}/delete" class="stack">
    <button type="submit" class="danger">Delete channel</button>
    <a href="/user/notifications/${id}">Cancel</a>
  </form>
</section>`
}

/** The page an email verification link opens: one button (mail scanners that fetch links confirm nothing). */
export function verifyView(token: string): string {
  return html`<section class="card narrow"><h1>Confirm your address</h1>
<p>Confirm to receive Lantern notifications at this address.</p>
<form method="post" action="/user/notifications/verify" class="stack">
  <input type="hidden" name="token" value="${token}">
  <button type="submit">Confirm address</button>
</form></section>`
}

export function verifiedView(name: string, address: string): string {
  return html`<section class="card narrow"><h1>Address confirmed</h1>
<p>${address} now receives the notifications of the channel "${name}".</p></section>`
}
