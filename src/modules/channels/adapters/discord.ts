/** Discord webhook: one embed; mentions switched off, so a title cannot ping @everyone. */
import { toIso } from '../../../lib/time.ts'
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import { cut, jsonPost, SEVERITY_COLOURS } from './shared.ts'

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

export const discordRequest = (view: EventView, settings: { url: string }): OutboundRequest => jsonPost(settings.url, discordPayload(view))
