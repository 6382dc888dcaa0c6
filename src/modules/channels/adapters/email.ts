/** Email channel: the event as a plain-text mail (always) with a small escaped HTML part. */
import { escapeHtml } from '../../../lib/html.ts'
import type { OutboundMail } from '../../notify/contract.ts'
import { htmlMailDocument } from '../../notify/mail.ts'
import type { EventView } from '../event-view.ts'
import { cut, footer } from './shared.ts'

export function eventMail(view: EventView, to: string, manageUrl: string): OutboundMail {
  const bottom = footer(view)
  const text = [view.title, '', ...view.lines, '', ...(bottom ? [bottom] : []), `Your notification settings: ${manageUrl}`].join('\n')
  const subject = cut(`[Lantern] ${view.title}`.replace(/[\r\n]+/g, ' '), 200)
  const body = `<h1 style="font-size:18px">${escapeHtml(view.title)}</h1>${view.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}` +
    (view.link ? `<p><a href="${escapeHtml(view.link)}">${escapeHtml(view.page?.name ?? view.link)}</a></p>` : '') +
    `<p style="color:#666;font-size:12px"><a href="${escapeHtml(manageUrl)}">Your notification settings</a></p>`
  return { to, subject, text, html: htmlMailDocument(subject, body) }
}
