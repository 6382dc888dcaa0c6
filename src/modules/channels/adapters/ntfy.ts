/**
 * ntfy: POST <NTFY_URL>/<topic> with the message as the body and Title, Priority (4 for down,
 * 3 otherwise), Tags and Click headers. Header values are ASCII: a non-ASCII title travels as an
 * RFC 2047 encoded word, which ntfy decodes. ntfy keeps a body of at most 4,096 bytes as a message
 * (a longer one becomes an attachment): the body is cut by bytes, between two characters.
 */
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import { cutToBytes } from '../../../lib/text.ts'
import { cut } from './shared.ts'

/** ntfy's message size limit, in bytes of UTF-8. */
export const NTFY_MAX_BODY_BYTES = 4096

const TAGS = { critical: 'rotating_light', warning: 'warning', info: 'information_source', ok: 'white_check_mark' } as const

export function headerText(text: string): string {
  const clean = cut(text.replace(/[\r\n]+/g, ' '), 250)
  if (/^[\x20-\x7e]*$/.test(clean)) return clean
  const bytes = new TextEncoder().encode(clean)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `=?UTF-8?B?${btoa(binary)}?=`
}

export function ntfyRequest(view: EventView, settings: { topic: string; access_token?: string }, baseUrl: string): OutboundRequest {
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: headerText(view.title),
    priority: view.severity === 'critical' ? '4' : '3',
    tags: TAGS[view.severity],
  }
  if (view.link) headers.click = view.link
  if (settings.access_token) headers.authorization = `Bearer ${settings.access_token}`
  return { url: `${baseUrl}/${settings.topic}`, headers, body: cutToBytes(view.lines.join('\n'), NTFY_MAX_BODY_BYTES) }
}
