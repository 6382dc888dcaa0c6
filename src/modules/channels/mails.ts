/** The channel mails: plain text always, a small escaped HTML part; no templates that run code. */
import { escapeHtml } from '../../lib/html.ts'
import type { OutboundMail } from '../notify/contract.ts'
import { htmlMailDocument } from '../notify/mail.ts'

export function verificationMail(to: string, channelName: string, link: string): OutboundMail {
  const text = [
    `Someone (hopefully you) added ${to} as the notification channel "${channelName}" on Lantern.`,
    '',
    'Confirm the address to start receiving notifications:',
    link,
    '',
    'The link works once, for 24 hours. If you did not expect this mail, ignore it: nothing else will be sent to this address.',
  ].join('\n')
  const subject = 'Confirm your address for Lantern notifications'
  const body = `<p>Someone (hopefully you) added ${escapeHtml(to)} as the notification channel “${escapeHtml(channelName)}” on Lantern.</p>` +
    `<p><a href="${escapeHtml(link)}">Confirm the address</a></p>` +
    '<p>The link works once, for 24 hours. If you did not expect this mail, ignore it: nothing else will be sent to this address.</p>'
  return { to, subject, text, html: htmlMailDocument(subject, body) }
}

export function disabledMail(to: string, channelName: string, reason: string, manageUrl: string): OutboundMail {
  const text = [
    `Lantern stopped sending to your notification channel "${channelName}".`,
    '',
    `Why: ${reason}`,
    '',
    `Check its settings and send a test to turn it back on: ${manageUrl}`,
  ].join('\n')
  const subject = `Notification channel "${channelName.replace(/[\r\n]+/g, ' ')}" was disabled`
  const body = `<p>Lantern stopped sending to your notification channel “${escapeHtml(channelName)}”.</p><p>Why: ${escapeHtml(reason)}</p>` +
    `<p><a href="${escapeHtml(manageUrl)}">Check its settings and send a test</a> to turn it back on.</p>`
  return { to, subject, text, html: htmlMailDocument(subject, body) }
}
