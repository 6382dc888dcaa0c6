/**
 * Microsoft Teams through a Workflows (Power Automate) URL: a message with one Adaptive Card 1.4.
 * The retired Office 365 connectors are not supported (their URLs stopped working in 2025).
 */
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import { cut, jsonPost } from './shared.ts'

const COLOURS = { critical: 'Attention', warning: 'Warning', info: 'Accent', ok: 'Good' } as const

export function teamsPayload(view: EventView) {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: cut(view.title, 500), weight: 'Bolder', size: 'Medium', wrap: true, color: COLOURS[view.severity] },
            ...view.lines.map((line) => ({ type: 'TextBlock', text: cut(line, 2000), wrap: true })),
            ...(view.page ? [{ type: 'TextBlock', text: view.page.name, isSubtle: true, size: 'Small', wrap: true }] : []),
          ],
          ...(view.link ? { actions: [{ type: 'Action.OpenUrl', title: 'Open status page', url: view.link }] } : {}),
        },
      },
    ],
  }
}

export const teamsRequest = (view: EventView, settings: { url: string }): OutboundRequest => jsonPost(settings.url, teamsPayload(view))
