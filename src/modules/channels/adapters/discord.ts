/**
 * Discord webhook: one embed; mentions switched off, so a title cannot ping @everyone. An outage is
 * one message: its first is posted with `?wait=true` (Discord answers the message, whose `id` is
 * kept) and its later ones (the recovery) edit it with PATCH <webhook>/messages/<id>, as Discord's
 * webhook API allows. Reminders are new messages.
 */
import { toIso } from '../../../lib/time.ts'
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import { cut, jsonPost, outageRole, SEVERITY_COLOURS } from './shared.ts'

export function discordPayload(view: EventView) {
  return {
    username: 'Lantern',
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: cut(view.title, 256),
        description: cut(view.lines.join('\n'), 4096),
        ...(view.link ? { url: view.link } : {}),
        color: SEVERITY_COLOURS[view.severity],
        timestamp: toIso(view.at),
        ...(view.page ? { footer: { text: cut(view.page.name, 2048) } } : {}),
      },
    ],
  }
}

/** The webhook's address with `?wait=true` (Discord then answers the message it posted). */
function waiting(url: string): string {
  const parsed = new URL(url)
  parsed.searchParams.set('wait', 'true')
  return parsed.href
}

/** Where the webhook edits one of its messages (`{{id}}` is filled by the worker); a thread_id query stays. */
function messageUrl(url: string): string {
  const parsed = new URL(url)
  parsed.searchParams.delete('wait')
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}/messages/{{id}}${parsed.search}`
}

export function discordRequest(view: EventView, settings: { url: string }): OutboundRequest {
  const request = jsonPost(settings.url, discordPayload(view))
  const role = outageRole(view)
  if (!view.outage || (role !== 'opens' && role !== 'updates')) return request
  if (role === 'opens') return { ...request, url: waiting(settings.url), thread: { key: view.outage.key, keep: { id: 'id' } } }
  return { ...request, thread: { key: view.outage.key, edit: { method: 'PATCH', url: messageUrl(settings.url), body: request.body } } }
}
