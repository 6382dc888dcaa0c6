/**
 * The subscriber pages of a status host (pure): the subscribe form, "check your inbox", the
 * confirmation, the manage page and the unsubscribe page. In the page's look, no script, every
 * value escaped; forms post to the page's own host.
 */
import { html } from '../../lib/html.ts'
import { statusPage, siteHeader, type Assets } from '../status-site/render/shared.ts'
import type { PublicPage } from './service.ts'

export interface SiteFrame {
  name: string
  assets: Assets
  /** The header links to the subscribe form (pages that take visitors' subscriptions). */
  subscribe: boolean
}

function frame(view: SiteFrame, title: string, body: string, current?: 'subscribe'): string {
  return statusPage(`${title} · ${view.name}`, view.assets, { noindex: true }, html`
!${siteHeader({ ...view, current })}
<main id="main" class="gate card subscribe">
!${body}
</main>
`)
}

function componentChoices(page: PublicPage, chosen: readonly number[] | null, legend: string): string {
  if (page.components.length === 0) return ''
  const boxes = page.components.map(
    (c) => html`<label class="check"><input type="checkbox" name="components" value="${c.id}"!${chosen?.includes(c.id) ? ' checked' : ''}> ${c.name}</label>`,
  )
  return html`<fieldset><legend>${legend}</legend><p class="hint" id="components-hint">None ticked: every component.</p>!${boxes.join('\n')}</fieldset>`
}

export function subscribeFormPage(
  view: SiteFrame,
  page: PublicPage,
  form: { email?: string; via?: string; url?: string; chosen?: number[]; error?: string; errorOn?: 'email' | 'url' } = {},
): string {
  const via = form.via === 'slack' || form.via === 'teams' ? form.via : 'email'
  const invalid = (field: 'email' | 'url') => (form.error && (form.errorOn ?? 'email') === field ? ` aria-invalid="true" aria-describedby="${field}-error"` : '')
  const error = (field: 'email' | 'url') => (form.error && (form.errorOn ?? 'email') === field ? html`<p class="alert" id="${field}-error" role="alert">${form.error}</p>` : '')
  const option = (value: string, label: string) => html`<label class="check"><input type="radio" name="via" value="${value}"!${via === value ? ' checked' : ''}> ${label}</label>`
  return frame(
    view,
    'Subscribe',
    html`<h2>Get status updates</h2>
<p>We tell you when an incident or maintenance of ${page.name} is posted: by mail, or in a Slack or Microsoft Teams channel. You confirm first, and every message has a link to change or stop it.</p>
<form method="post" action="/subscribe">
<fieldset><legend>Where to</legend>!${option('email', 'Email')}!${option('slack', 'Slack channel')}!${option('teams', 'Microsoft Teams channel')}</fieldset>
<label for="email">Email address (for mail)</label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="254" value="${form.email ?? ''}"!${invalid('email')}>
!${error('email')}
<label for="url">Incoming webhook URL (for Slack or Teams)</label>
<input id="url" name="url" type="url" autocomplete="off" maxlength="2048" aria-describedby="url-hint" value="${form.url ?? ''}"!${invalid('url')}>
<p class="hint" id="url-hint">Slack: an incoming webhook of the channel (https://hooks.slack.com/services/…). Teams: a Workflows "post to a channel when a webhook request is received" URL. The confirmation link is posted there.</p>
!${error('url')}
<div class="hp" aria-hidden="true"><label for="website">Leave this empty</label><input id="website" name="website" type="text" tabindex="-1" autocomplete="off"></div>
!${componentChoices(page, form.chosen ?? null, 'Only these components (optional)')}
<button type="submit">Subscribe</button>
</form>`,
    'subscribe',
  )
}

export function checkInboxPage(view: SiteFrame): string {
  return frame(
    view,
    'Check your inbox',
    html`<h2>Check your inbox</h2>
<p role="status">If this address can be subscribed, a mail is on its way. Follow the link in it to confirm; it works for 7 days.</p>
<p><a href="/">Back to the status page</a></p>`,
  )
}

export function messagePage(view: SiteFrame, title: string, text: string): string {
  return frame(view, title, html`<h2>${title}</h2><p role="status">${text}</p><p><a href="/">Back to the status page</a></p>`)
}

export function checkChannelPage(view: SiteFrame): string {
  return frame(
    view,
    'Check your channel',
    html`<h2>Check your channel</h2>
<p role="status">If this channel can be subscribed, a message with a confirmation link is on its way to it. Open the link to confirm; it works for 7 days.</p>
<p><a href="/">Back to the status page</a></p>`,
  )
}

export function confirmPage(view: SiteFrame, email: string, token: string): string {
  return frame(
    view,
    'Confirm your subscription',
    html`<h2>Confirm your subscription</h2>
<p>Send status updates of ${view.name} to <strong>${email}</strong>?</p>
<form method="post" action="/subscribe/confirm">
<input type="hidden" name="token" value="${token}">
<button type="submit">Confirm subscription</button>
</form>`,
  )
}

export function managePage(view: SiteFrame, page: PublicPage, input: { address: string; chosen: number[] | null; token: string; saved?: boolean }): string {
  return frame(
    view,
    'Your subscription',
    html`<h2>Your subscription</h2>
!${input.saved ? '<p role="status" class="alert">Saved.</p>' : ''}
<p>Updates of ${page.name} go to <strong>${input.address}</strong>.</p>
<form method="post" action="/subscribe/manage">
<input type="hidden" name="token" value="${input.token}">
!${componentChoices(page, input.chosen, 'Only these components')}
<button type="submit" name="action" value="save">Save</button>
</form>
<form method="post" action="/subscribe/manage">
<input type="hidden" name="token" value="${input.token}">
<button type="submit" name="action" value="unsubscribe" class="secondary">Unsubscribe</button>
</form>`,
  )
}

export function unsubscribePage(view: SiteFrame, token: string): string {
  return frame(
    view,
    'Unsubscribe',
    html`<h2>Unsubscribe</h2>
<p>Stop getting status updates of ${view.name}?</p>
<form method="post" action="/unsubscribe?token=${encodeURIComponent(token)}">
<button type="submit">Unsubscribe</button>
</form>`,
  )
}
