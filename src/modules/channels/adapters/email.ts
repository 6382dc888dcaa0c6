/** Email channel: the event as a plain-text mail (always) with a small escaped HTML part. */
import { sha256Hex } from '../../../lib/crypto.ts'
import { escapeHtml } from '../../../lib/html.ts'
import type { OutboundMail } from '../../notify/contract.ts'
import { htmlMailDocument } from '../../notify/mail.ts'
import type { EventView } from '../event-view.ts'
import { cut, footer } from './shared.ts'

/**
 * The Message-ID of an outage's first mail to a channel, made from the outage and the channel so
 * that the later mails of the outage (reminders, the recovery) can answer it without storing it.
 */
export async function outageThreadId(channelId: number, outageKey: string, domain: string): Promise<string> {
  return `<outage.${(await sha256Hex(`${channelId} ${outageKey}`)).slice(0, 32)}@${domain}>`
}

/**
 * One outage, one thread: the mail that starts the outage carries `threadId` as its Message-ID;
 * every later mail of it (reminders, the recovery) answers it (In-Reply-To, References).
 */
function threadOf(view: EventView, threadId: string | undefined): Pick<OutboundMail, 'messageId' | 'headers'> {
  if (!threadId || !view.outage) return {}
  const opens = view.outage.endedAt === null && view.outage.since === view.at
  return opens ? { messageId: threadId } : { headers: { 'In-Reply-To': threadId, References: threadId } }
}

export function eventMail(view: EventView, to: string, manageUrl: string, threadId?: string): OutboundMail {
  const bottom = footer(view)
  const text = [view.title, '', ...view.lines, '', ...(bottom ? [bottom] : []), `Your notification settings: ${manageUrl}`].join('\n')
  const subject = cut(`[Lantern] ${view.title}`.replace(/[\r\n]+/g, ' '), 200)
  const body = `<h1 style="font-size:18px">${escapeHtml(view.title)}</h1>${view.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}` +
    (view.link ? `<p><a href="${escapeHtml(view.link)}">${escapeHtml(view.page?.name ?? view.link)}</a></p>` : '') +
    `<p style="color:#666;font-size:12px"><a href="${escapeHtml(manageUrl)}">Your notification settings</a></p>`
  return { to, subject, text, html: htmlMailDocument(subject, body), ...threadOf(view, threadId) }
}
