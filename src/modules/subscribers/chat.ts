/**
 * Slack and Microsoft Teams subscribers: a page's updates posted to a chat channel's incoming
 * webhook in that service's own format (the owner's chat channels' adapters), the subscriber words
 * of the mail, and a line to stop them. A visitor's channel confirms like an address does: the
 * confirmation link is posted to the channel, so only people who read it can turn it on.
 */
import { slackPayload } from '../channels/adapters/slack.ts'
import { teamsPayload } from '../channels/adapters/teams.ts'
import type { EventView } from '../channels/event-view.ts'
import type { OutboundRequest } from '../notify/contract.ts'
import { words, type Words } from '../../lib/i18n.ts'
import type { SubscriberKind } from './tables.ts'

export type ChatKind = Extract<SubscriberKind, 'slack' | 'teams'>
export const CHAT_KINDS: readonly ChatKind[] = ['slack', 'teams']
export const isChatKind = (kind: string): kind is ChatKind => kind === 'slack' || kind === 'teams'
export const CHAT_NAMES: Record<ChatKind, string> = { slack: 'Slack', teams: 'Microsoft Teams' }

/** Both chat bodies of one event view, rendered once per fan-out. */
export function chatBodies(view: EventView): { slackBody: string; teamsBody: string } {
  return { slackBody: JSON.stringify(slackPayload(view)), teamsBody: JSON.stringify(teamsPayload(view)) }
}

/** The request to a chat subscriber (no signature: these services do not check one). */
export function chatRequest(url: string, body: string): OutboundRequest {
  return { url, headers: { 'content-type': 'application/json' }, body }
}

/** The confirmation a visitor's channel gets: the one message before any update, in the language of the form. */
export function confirmationView(kind: ChatKind, page: { id: number; name: string }, confirmUrl: string, at: number, w: Words = words('en')): EventView {
  return {
    kind: 'test',
    at,
    id: `subscribe-confirm-${page.id}-${at}`,
    title: `[${page.name}] ${w.t('chat.confirm.title')}`,
    lines: [w.t('chat.confirm.asked', { name: page.name, service: CHAT_NAMES[kind] }), w.t('chat.confirm.open', { link: confirmUrl }), w.t('chat.confirm.ignore')],
    severity: 'info',
    page: null,
    link: confirmUrl,
    alertKey: `lantern:subscribe:${page.id}`,
    resolves: false,
    details: {},
  }
}

export function confirmationRequest(kind: ChatKind, url: string, view: EventView): OutboundRequest {
  return chatRequest(url, kind === 'slack' ? JSON.stringify(slackPayload(view)) : JSON.stringify(teamsPayload(view)))
}

/** How the confirm and manage pages name a chat subscriber: "the Slack channel at hooks.slack.com". */
export function chatDestination(kind: ChatKind, url: string, w: Words = words('en')): string {
  return w.t('subscribe.chat_destination', { service: CHAT_NAMES[kind], host: new URL(url).host })
}
