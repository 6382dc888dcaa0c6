/**
 * Telegram Bot API sendMessage with parse_mode HTML: every text escaped (Telegram's HTML subset).
 * An outage is one message: the answer to its first (`result.message_id`) is kept, and its later
 * ones (the recovery) are editMessageText of that message. Reminders are new messages.
 */
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import { cut, jsonPost, outageRole } from './shared.ts'

/** The escaping Telegram asks for in HTML mode: &, < and > (quotes too, for the link attribute). */
export const telegramEscape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

export function telegramText(view: EventView): string {
  // 4096 is Telegram's limit: the plain text is cut before escaping, never inside markup.
  const lines = [`<b>${telegramEscape(cut(view.title, 300))}</b>`, telegramEscape(cut(view.lines.join('\n'), 3000))]
  if (view.link) lines.push(`<a href="${telegramEscape(view.link)}">${telegramEscape(cut(view.page?.name ?? 'Open', 200))}</a>`)
  return lines.join('\n')
}

export function telegramRequest(view: EventView, settings: { bot_token: string; chat_id: string }, apiUrl: string): OutboundRequest {
  const message = { chat_id: settings.chat_id, text: telegramText(view), parse_mode: 'HTML', disable_web_page_preview: true }
  const request = jsonPost(`${apiUrl}/bot${settings.bot_token}/sendMessage`, message)
  const role = outageRole(view)
  if (!view.outage || (role !== 'opens' && role !== 'updates')) return request
  if (role === 'opens') return { ...request, thread: { key: view.outage.key, keep: { message_id: 'result.message_id' } } }
  const edit = { method: 'POST' as const, url: `${apiUrl}/bot${settings.bot_token}/editMessageText`, body: JSON.stringify({ ...message, message_id: '{{message_id}}' }) }
  return { ...request, thread: { key: view.outage.key, edit } }
}
