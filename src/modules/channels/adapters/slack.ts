/** Slack incoming webhook: `text` (notifications, fallbacks) plus Block Kit blocks. */
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import { cut, footer, jsonPost } from './shared.ts'

/** Slack's mrkdwn treats & < > as control characters: escaped, so a title cannot @-mention or link. */
export const slackEscape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')

const EMOJI = { critical: ':red_circle:', warning: ':large_orange_circle:', info: ':large_blue_circle:', ok: ':large_green_circle:' } as const

export function slackPayload(view: EventView) {
  const bottom = footer(view)
  return {
    text: cut(`${view.title}`, 3000),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: cut(view.title, 150), emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: cut(`${EMOJI[view.severity]} ${view.lines.map(slackEscape).join('\n')}`, 3000) } },
      ...(bottom ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: cut(view.link ? `<${view.link}|${slackEscape(view.page?.name ?? 'Open')}>` : slackEscape(bottom), 3000) }] }] : []),
    ],
  }
}

export const slackRequest = (view: EventView, settings: { url: string }): OutboundRequest => jsonPost(settings.url, slackPayload(view))
