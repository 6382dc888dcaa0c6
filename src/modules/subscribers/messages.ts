/**
 * The mails page subscribers get (pure): the confirmation link, the "already subscribed" reminder
 * and one mail per event. Plain text always, HTML beside it (every value escaped, the owner's Markdown
 * through the safe renderer and in its plain-text form in the text part); every mail to a
 * subscriber carries the manage link and the one-click unsubscribe headers (RFC 8058).
 */
import { html } from '../../lib/html.ts'
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

export function subscriberLinks(pageUrl: string, token: string): SubscriberLinks {
  const query = `token=${encodeURIComponent(token)}`
  return { manage: `${pageUrl}/subscribe/manage?${query}`, unsubscribe: `${pageUrl}/unsubscribe?${query}` }
}

/** One-click unsubscribe (RFC 8058): a POST of `List-Unsubscribe=One-Click` to the URL unsubscribes. */
export function unsubscribeHeaders(links: SubscriberLinks): Record<string, string> {
  return { 'List-Unsubscribe': `<${links.unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
}

const footerText = (page: PageRef, links: SubscriberLinks) =>
  `\n--\nYou get this because you subscribed to ${page.name} (${page.url}).\nManage your subscription: ${links.manage}\nUnsubscribe: ${links.unsubscribe}\n`

const footerHtml = (page: PageRef, links: SubscriberLinks) =>
  html`<hr><p>You get this because you subscribed to <a href="${page.url}">${page.name}</a>.<br><a href="${links.manage}">Manage your subscription</a> · <a href="${links.unsubscribe}">Unsubscribe</a></p>`

export function confirmationMail(to: string, page: PageRef, confirmUrl: string): OutboundMail {
  const subject = `Confirm your subscription to ${page.name}`
  const text = `Someone, hopefully you, asked to get status updates of ${page.name} (${page.url}) at this address.\n\nConfirm here (the link works for ${CONFIRM_DAYS} days):\n${confirmUrl}\n\nIf it was not you, ignore this mail: nothing will be sent without the confirmation.\n`
  const body = html`<p>Someone, hopefully you, asked to get status updates of <a href="${page.url}">${page.name}</a> at this address.</p>
<p><a href="${confirmUrl}">Confirm your subscription</a> (the link works for ${CONFIRM_DAYS} days).</p>
<p>If it was not you, ignore this mail: nothing will be sent without the confirmation.</p>`
  return { to, subject, text, html: htmlMailDocument(subject, body) }
}

export function reminderMail(to: string, page: PageRef, links: SubscriberLinks): OutboundMail {
  const subject = `Your subscription to ${page.name}`
  const text = `Someone asked to subscribe this address to ${page.name} again. It is already subscribed: nothing changed.\n${footerText(page, links)}`
  const body = html`<p>Someone asked to subscribe this address to ${page.name} again. It is already subscribed: nothing changed.</p>`
  return { to, subject, text, html: htmlMailDocument(subject, body + footerHtml(page, links)), headers: unsubscribeHeaders(links) }
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

export function eventMail(to: string, page: PageRef, message: EventMessage, links: SubscriberLinks): OutboundMail {
  const subject = `[${page.name}] ${message.subject}`
  const text = `${message.lines.map(lineText).join('\n')}\n\nMore: ${message.link}\n${footerText(page, links)}`
  const body = html`<h1>${message.subject}</h1>!${message.lines.map(lineHtml).join('')}<p><a href="${message.link}">See the status page</a></p>`
  return { to, subject, text, html: htmlMailDocument(subject, body + footerHtml(page, links)), headers: unsubscribeHeaders(links) }
}
