/**
 * Slack: `text` (notifications, fallbacks) plus Block Kit blocks, through an incoming webhook or a
 * bot. Incoming webhooks cannot change what they posted, so an outage's recovery is a second
 * message there. A bot posts with chat.postMessage, whose answer names the message (`channel`,
 * `ts`), and the outage's later messages (the recovery) are chat.update of it. The Web API answers
 * 200 with `"ok": false` when it refuses: the delivery then fails with Slack's error code.
 * Reminders are new messages.
 */
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import { cut, footer, jsonPost, outageRole } from './shared.ts'

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

export function slackRequest(view: EventView, settings: { url?: string; bot_token?: string; chat_id?: string }, apiUrl: string): OutboundRequest {
  if (settings.url) return jsonPost(settings.url, slackPayload(view))
  const message = { channel: settings.chat_id!, ...slackPayload(view), unfurl_links: false }
  const headers = { authorization: `Bearer ${settings.bot_token!}`, 'content-type': 'application/json; charset=utf-8' }
  const request: OutboundRequest = { ...jsonPost(`${apiUrl}/chat.postMessage`, message, headers), okWhen: 'ok' }
  const role = outageRole(view)
  if (!view.outage || (role !== 'opens' && role !== 'updates')) return request
  if (role === 'opens') return { ...request, thread: { key: view.outage.key, keep: { channel: 'channel', ts: 'ts' } } }
  const edit = { method: 'POST' as const, url: `${apiUrl}/chat.update`, body: JSON.stringify({ ...message, channel: '{{channel}}', ts: '{{ts}}' }), okWhen: 'ok' }
  return { ...request, thread: { key: view.outage.key, edit } }
}
