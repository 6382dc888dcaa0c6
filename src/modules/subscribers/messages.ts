/**
 * The mails page subscribers get (pure): the confirmation link, the "already subscribed" reminder
 * and one mail per event, in the subscriber's language (`Words`: the words of
 * src/content/locales/ and the page's time zone). Plain text always, HTML beside it (every value
 * escaped, the owner's Markdown through the safe renderer and in its plain-text form in the text
 * part); every mail to a subscriber carries the manage link and the one-click unsubscribe headers
 * (RFC 8058).
 */
import { escapeHtml, html } from '../../lib/html.ts'
import { DEFAULT_LANGUAGE, isLanguage, words, type Language, type Words } from '../../lib/i18n.ts'
import { markdownToText, renderSafeMarkdown } from '../../lib/safe-markdown.ts'
import type { OutboundMail } from '../notify/contract.ts'
import { htmlMailDocument } from '../notify/mail.ts'

export const CONFIRM_DAYS = 7

export interface PageRef {
  name: string
  /** `scheme://host` of the status page, no trailing slash. */
  url: string
}

export interface SubscriberLinks {
  manage: string
  unsubscribe: string
}

/** The language a subscriber reads: the one chosen when subscribing, else the page's default. */
export function subscriberLanguage(chosen: string | null | undefined, pageDefault: string): Language {
  if (isLanguage(chosen)) return chosen
  return isLanguage(pageDefault) ? pageDefault : DEFAULT_LANGUAGE
}

/** The manage and unsubscribe links; with `lang`, the pages they open speak it. */
export function subscriberLinks(pageUrl: string, token: string, lang?: Language): SubscriberLinks {
  const query = `token=${encodeURIComponent(token)}${lang ? `&lang=${lang}` : ''}`
  return { manage: `${pageUrl}/subscribe/manage?${query}`, unsubscribe: `${pageUrl}/unsubscribe?${query}` }
}

/** One-click unsubscribe (RFC 8058): a POST of `List-Unsubscribe=One-Click` to the URL unsubscribes. */
export function unsubscribeHeaders(links: SubscriberLinks): Record<string, string> {
  return { 'List-Unsubscribe': `<${links.unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
}

const english = () => words('en')

/** `key`'s sentence with the page's name as a link (HTML part): the sentence escaped, then the link put in. */
function withPageLink(w: Words, key: string, page: PageRef): string {
  const mark = '\u0000name\u0000'
  return escapeHtml(w.t(key, { name: mark })).replace(mark, html`<a href="${page.url}">${page.name}</a>`)
}

const footerText = (page: PageRef, links: SubscriberLinks, w: Words) =>
  `\n--\n${w.t('mail.footer.why', { name: `${page.name} (${page.url})` })}\n${w.t('mail.footer.manage')}: ${links.manage}\n${w.t('subscribe.unsubscribe')}: ${links.unsubscribe}\n`

const footerHtml = (page: PageRef, links: SubscriberLinks, w: Words) =>
  html`<hr><p>!${withPageLink(w, 'mail.footer.why', page)}<br><a href="${links.manage}">${w.t('mail.footer.manage')}</a> · <a href="${links.unsubscribe}">${w.t('subscribe.unsubscribe')}</a></p>`

export function confirmationMail(to: string, page: PageRef, confirmUrl: string, w: Words = english()): OutboundMail {
  const subject = w.t('mail.confirm.subject', { name: page.name })
  const here = w.t('mail.confirm.here', { days: CONFIRM_DAYS })
  const text = `${w.t('mail.confirm.asked', { name: `${page.name} (${page.url})` })}\n\n${here}\n${confirmUrl}\n\n${w.t('mail.confirm.ignore')}\n`
  const body = html`<p>!${withPageLink(w, 'mail.confirm.asked', page)}</p>
<p>${here}<br><a href="${confirmUrl}">${w.t('subscribe.confirm_button')}</a></p>
<p>${w.t('mail.confirm.ignore')}</p>`
  return { to, subject, text, html: htmlMailDocument(subject, body, w.lang) }
}

export function reminderMail(to: string, page: PageRef, links: SubscriberLinks, w: Words = english()): OutboundMail {
  const subject = w.t('mail.reminder.subject', { name: page.name })
  const said = w.t('mail.reminder.text', { name: page.name })
  const text = `${said}\n${footerText(page, links, w)}`
  const body = html`<p>${said}</p>`
  return { to, subject, text, html: htmlMailDocument(subject, body + footerHtml(page, links, w), w.lang), headers: unsubscribeHeaders(links) }
}

/** A line of plain text, or an owner's Markdown (after a label such as the incident's state). */
export type EventLine = string | { label?: string; markdown: string }

/** What an event says, whatever the channel: the mail and the webhook are made from it. */
export interface EventMessage {
  subject: string
  lines: EventLine[]
  /** Where to read more on the page. */
  link: string
}

/** A line in the text part: Markdown in its plain-text form, a block of several lines set apart. */
export function lineText(line: EventLine): string {
  if (typeof line === 'string') return line
  const text = markdownToText(line.markdown)
  if (line.label === undefined) return text.includes('\n') ? `\n${text}\n` : text
  return text.includes('\n') ? `${line.label}:\n\n${text}\n` : `${line.label}: ${text}`
}

/** A line in the HTML part: Markdown through the safe renderer, everything else escaped. */
function lineHtml(line: EventLine): string {
  if (typeof line === 'string') return html`<p>${line}</p>`
  const label = line.label === undefined ? '' : html`<p><strong>${line.label}:</strong></p>`
  return `${label}<div>${renderSafeMarkdown(line.markdown)}</div>`
}

export function eventMail(to: string, page: PageRef, message: EventMessage, links: SubscriberLinks, w: Words = english()): OutboundMail {
  const subject = `[${page.name}] ${message.subject}`
  const text = `${message.lines.map(lineText).join('\n')}\n\n${w.t('mail.more')}: ${message.link}\n${footerText(page, links, w)}`
  const body = html`<h1>${message.subject}</h1>!${message.lines.map(lineHtml).join('')}<p><a href="${message.link}">${w.t('mail.see_page')}</a></p>`
  return { to, subject, text, html: htmlMailDocument(subject, body + footerHtml(page, links, w), w.lang), headers: unsubscribeHeaders(links) }
}
