/** Telegram Bot API sendMessage with parse_mode HTML: every text escaped (Telegram's HTML subset). */
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import { cut, jsonPost } from './shared.ts'

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
  return jsonPost(`${apiUrl}/bot${settings.bot_token}/sendMessage`, {
    chat_id: settings.chat_id,
    text: telegramText(view),
    parse_mode: 'HTML',
    disable_web_page_preview: true,
  })
}
