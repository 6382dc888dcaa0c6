/**
 * The subscriber pages of a status host (pure): the subscribe form, "check your inbox", the
 * confirmation, the manage page and the unsubscribe page. In the page's look and the visitor's
 * language (the words of src/content/locales/), no script, every value escaped; forms post to the
 * page's own host and keep a language the visitor picked (`?lang=`).
 */
import { html } from '../../lib/html.ts'
import type { Language } from '../../lib/i18n.ts'
import { languageSwitcher, sentenceWith, statusPage, siteHeader, type Assets, type Speech, type SwitcherTarget } from '../status-site/render/shared.ts'
import { CONFIRM_DAYS } from './messages.ts'
import type { PublicPage } from './service.ts'

export interface SiteFrame {
  name: string
  assets: Assets
  /** The header links to the subscribe form (pages that take visitors' subscriptions). */
  subscribe: boolean
  /** The visitor's words, and the query their links keep. */
  speech: Speech
  /** The language the visitor picked with `?lang=` (forms keep it), or undefined. */
  picked: Language | undefined
  /** Where the language switcher's links go: this page in another language. */
  here: SwitcherTarget
}

/** `?lang=xx` when the visitor picked a language, for a form's action ('' otherwise). */
const langQuery = (view: SiteFrame, joiner: '?' | '&' = '?'): string => (view.picked ? `${joiner}lang=${view.picked}` : '')

function frame(view: SiteFrame, title: string, body: string, current?: 'subscribe'): string {
  const { w } = view.speech
  return statusPage(`${title} · ${view.name}`, view.assets, { noindex: true, lang: w.lang }, html`
!${siteHeader({ ...view, current })}
<main id="main" class="gate card subscribe">
!${body}
</main>
<footer><div class="wrap">!${languageSwitcher(w, view.here)}<p>${w.t('footer.powered')}</p></div></footer>
`)
}

function componentChoices(view: SiteFrame, page: PublicPage, chosen: readonly number[] | null, legendKey: 'subscribe.only_optional' | 'subscribe.only'): string {
  if (page.components.length === 0) return ''
  const { w } = view.speech
  const boxes = page.components.map(
    (c) => html`<label class="check"><input type="checkbox" name="components" value="${c.id}"!${chosen?.includes(c.id) ? ' checked' : ''}> ${c.name}</label>`,
  )
  return html`<fieldset><legend>${w.t(legendKey)}</legend><p class="hint" id="components-hint">${w.t('subscribe.none_ticked')}</p>!${boxes.join('\n')}</fieldset>`
}

/** What a field's error says to a visitor: the service's 400 reason, in the visitor's words. */
export type FormErrorKey = 'email_required' | 'email_invalid' | 'url_invalid' | 'url_credentials' | 'components'

/** The visitor's words for a 400 of the subscribe service (validate.ts), by the field it is about. */
export function formErrorKey(message: string, field: 'email' | 'url'): FormErrorKey {
  if (message.startsWith('component_ids')) return 'components'
  if (field === 'email') return message === 'email is required' ? 'email_required' : 'email_invalid'
  return message.includes('user name or password') ? 'url_credentials' : 'url_invalid'
}

export function subscribeFormPage(
  view: SiteFrame,
  page: PublicPage,
  form: { email?: string; via?: string; url?: string; chosen?: number[]; error?: FormErrorKey; errorOn?: 'email' | 'url' } = {},
): string {
  const { w } = view.speech
  const via = form.via === 'slack' || form.via === 'teams' ? form.via : 'email'
  const on = (field: 'email' | 'url') => form.error !== undefined && (form.errorOn ?? 'email') === field
  const invalid = (field: 'email' | 'url') => (on(field) ? ` aria-invalid="true" aria-describedby="${field}-error"` : '')
  const error = (field: 'email' | 'url') => (on(field) ? html`<p class="alert" id="${field}-error" role="alert">${w.t(`subscribe.error.${form.error}`)}</p>` : '')
  const option = (value: string, label: string) => html`<label class="check"><input type="radio" name="via" value="${value}"!${via === value ? ' checked' : ''}> ${label}</label>`
  return frame(
    view,
    w.t('subscribe.title'),
    html`<h2>${w.t('subscribe.heading')}</h2>
<p>${w.t('subscribe.intro', { name: page.name })}</p>
<form method="post" action="/subscribe!${langQuery(view)}">
<fieldset><legend>${w.t('subscribe.where')}</legend>!${option('email', w.t('subscribe.via_email'))}!${option('slack', w.t('subscribe.via_slack'))}!${option('teams', w.t('subscribe.via_teams'))}</fieldset>
<label for="email">${w.t('subscribe.email')}</label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="254" value="${form.email ?? ''}"!${invalid('email')}>
!${error('email')}
<label for="url">${w.t('subscribe.url')}</label>
<input id="url" name="url" type="url" autocomplete="off" maxlength="2048" aria-describedby="url-hint" value="${form.url ?? ''}"!${invalid('url')}>
<p class="hint" id="url-hint">${w.t('subscribe.url_hint')}</p>
!${error('url')}
<div class="hp" aria-hidden="true"><label for="website">${w.t('subscribe.honeypot')}</label><input id="website" name="website" type="text" tabindex="-1" autocomplete="off"></div>
!${componentChoices(view, page, form.chosen ?? null, 'subscribe.only_optional')}
<button type="submit">${w.t('subscribe.submit')}</button>
</form>`,
    'subscribe',
  )
}

const back = (view: SiteFrame) => html`<p><a href="/${view.speech.keep}">${view.speech.w.t('subscribe.back')}</a></p>`

export function checkInboxPage(view: SiteFrame): string {
  const { w } = view.speech
  return frame(
    view,
    w.t('subscribe.check_inbox'),
    html`<h2>${w.t('subscribe.check_inbox')}</h2>
<p role="status">${w.t('subscribe.check_inbox_text', { days: CONFIRM_DAYS })}</p>
!${back(view)}`,
  )
}

/** A page of one heading and one sentence: subscribed, unsubscribed, a link not valid, too many attempts. */
export type MessageKey = 'subscribed' | 'unsubscribed' | 'invalid' | 'too_many'

export function messagePage(view: SiteFrame, key: MessageKey): string {
  const { w } = view.speech
  const title = w.t(`subscribe.${key}`)
  return frame(view, title, html`<h2>${title}</h2><p role="status">${w.t(`subscribe.${key}_text`, { days: CONFIRM_DAYS })}</p>!${back(view)}`)
}

export function checkChannelPage(view: SiteFrame): string {
  const { w } = view.speech
  return frame(
    view,
    w.t('subscribe.check_channel'),
    html`<h2>${w.t('subscribe.check_channel')}</h2>
<p role="status">${w.t('subscribe.check_channel_text', { days: CONFIRM_DAYS })}</p>
!${back(view)}`,
  )
}

export function confirmPage(view: SiteFrame, address: string, token: string): string {
  const { w } = view.speech
  return frame(
    view,
    w.t('subscribe.confirm_title'),
    html`<h2>${w.t('subscribe.confirm_title')}</h2>
<p>!${sentenceWith(w, 'subscribe.confirm_question', { name: view.name }, { address: html`<strong>${address}</strong>` })}</p>
<form method="post" action="/subscribe/confirm!${langQuery(view)}">
<input type="hidden" name="token" value="${token}">
<button type="submit">${w.t('subscribe.confirm_button')}</button>
</form>`,
  )
}

export function managePage(view: SiteFrame, page: PublicPage, input: { address: string; chosen: number[] | null; token: string; saved?: boolean }): string {
  const { w } = view.speech
  return frame(
    view,
    w.t('subscribe.manage_title'),
    html`<h2>${w.t('subscribe.manage_title')}</h2>
!${input.saved ? html`<p role="status" class="alert">${w.t('subscribe.saved')}</p>` : ''}
<p>!${sentenceWith(w, 'subscribe.manage_to', { name: page.name }, { address: html`<strong>${input.address}</strong>` })}</p>
<form method="post" action="/subscribe/manage!${langQuery(view)}">
<input type="hidden" name="token" value="${input.token}">
!${componentChoices(view, page, input.chosen, 'subscribe.only')}
<button type="submit" name="action" value="save">${w.t('subscribe.save')}</button>
</form>
<form method="post" action="/subscribe/manage!${langQuery(view)}">
<input type="hidden" name="token" value="${input.token}">
<button type="submit" name="action" value="unsubscribe" class="secondary">${w.t('subscribe.unsubscribe')}</button>
</form>`,
  )
}

export function unsubscribePage(view: SiteFrame, token: string): string {
  const { w } = view.speech
  return frame(
    view,
    w.t('subscribe.unsubscribe'),
    html`<h2>${w.t('subscribe.unsubscribe')}</h2>
<p>${w.t('subscribe.unsubscribe_question', { name: view.name })}</p>
<form method="post" action="/unsubscribe?token=${encodeURIComponent(token)}!${langQuery(view, '&')}">
<button type="submit">${w.t('subscribe.unsubscribe')}</button>
</form>`,
  )
}
