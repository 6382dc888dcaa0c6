/**
 * The subscriber fan-out (registered on `services.notifier`). An incident or maintenance event with
 * `notifySubscribers` writes ONE pending fan-out row in the producer's transaction, whatever the
 * number of subscribers: the mail and the webhook body rendered once, with a slot where each
 * subscriber's token goes. The outbox worker expands it into one outbox row per subscriber
 * (expansion.ts), so the request that caused the event never pays for the subscriber count.
 */
import type { Db } from '../../db/client.ts'
import { randomToken } from '../../lib/crypto.ts'
import type { Fanout, NotifyEvent, OutboundMail } from '../notify/contract.ts'
import { webhookDocsUrl, webhookPayload } from '../channels/adapters/webhook.ts'
import { loadEventView, type EventView } from '../channels/event-view.ts'
import { chatBodies } from './chat.ts'
import { incidentMessage, isSubscriberEvent, maintenanceMessage, type SubscriberEvent } from './events.ts'
import { isLanguage, words, type Language, type Words } from '../../lib/i18n.ts'
import { eventMail, lineText, subscriberLanguage, subscriberLinks, type EventMessage, type PageRef, type SubscriberLinks } from './messages.ts'
import { SubscribersRepo } from './repo.ts'
import type { SubscribersService } from './service.ts'

/** What a subscriber reads of an event in one language: the mail and the chat messages. */
export interface SpokenFanout {
  /** The mail without its `to`. */
  mail: OutboundMail
  /** The messages Slack and Teams subscribers get (absent in fan-outs written before they existed). */
  slackBody?: string
  teamsBody?: string
}

/** What a pending fan-out row holds (`subscriber_fanouts.payload_json`): the event in the page's default language at the top. */
export interface PendingFanoutPayload extends SpokenFanout {
  /** Stands for the subscriber's token in `mail` and `webhookBody` (base64url: escaping leaves it alone). */
  slot: string
  /** The JSON body webhook subscribers get: the payload webhook channels get, with the unsubscribe link. */
  webhookBody: string
  /**
   * The same in each other language the page's subscribers chose (absent in fan-outs written
   * before subscribers had one). A subscriber whose language is not here reads the default.
   */
  languages?: Partial<Record<Language, SpokenFanout>>
  /** The event's components; empty: the whole page (every subscriber hears it). */
  about: number[]
}

/**
 * Subscribers hear incidents and maintenance, never a component's status flip: of what one outage
 * causes they get the incident's message only. `onPending` runs after a row was written (the
 * worker loop looks at once instead of at its next tick).
 */
export function subscriberFanout(service: SubscribersService, onPending: () => void = () => {}): Fanout {
  return async (db: Db, events: readonly NotifyEvent[]) => {
    for (const event of events) {
      if (!isSubscriberEvent(event)) continue
      const repo = new SubscribersRepo(db)
      const upto = await repo.newestSubscriberId(event.pageId)
      if (upto === undefined) continue
      const payload = await renderFanout(service, repo, event)
      if (!payload) continue
      await repo.insertFanout({ page_id: event.pageId, event_kind: event.kind, payload_json: JSON.stringify(payload), upto_subscriber_id: upto, created_at: service.now() })
      onPending()
    }
  }
}

async function eventContent(repo: SubscribersRepo, event: SubscriberEvent) {
  if ('incidentId' in event) {
    const value = await repo.incident(event.incidentId, event.updateId)
    return value && { kind: 'incident' as const, value, componentIds: value.components.map((c) => c.id) }
  }
  const value = await repo.maintenance(event.maintenanceId)
  return value && { kind: 'maintenance' as const, value, componentIds: value.components.map((c) => c.id) }
}

/** The event as every subscriber gets it (the same for all but the token); undefined: nothing to send. */
export async function renderFanout(service: SubscribersService, repo: SubscribersRepo, event: SubscriberEvent): Promise<PendingFanoutPayload | undefined> {
  const page = await repo.page(event.pageId)
  if (!page || page.blocked === 1) return undefined
  const content = await eventContent(repo, event)
  const view = await loadEventView(repo.db, event, service.urls)
  if (!content || !view) return undefined
  const ref = service.pageRef(page)
  const slot = `t${randomToken(12)}`
  // Rendered once per language in use: the page's default, and each one its subscribers chose.
  const fallback = subscriberLanguage(null, page.language)
  const spoken = (lang: Language): SpokenFanout => {
    const w = words(lang, page.time_zone)
    const message = content.kind === 'incident' ? incidentMessage(event.kind, ref, content.value, w) : maintenanceMessage(event.kind as Parameters<typeof maintenanceMessage>[0], ref, content.value, w)
    const links = subscriberLinks(ref.url, slot, lang)
    return { mail: eventMail('', ref, message, links, w), ...chatBodies(chatView(view, ref, message, links, w)) }
  }
  const others = (await repo.languages(event.pageId)).filter((lang): lang is Language => isLanguage(lang) && lang !== fallback)
  return {
    slot,
    ...spoken(fallback),
    webhookBody: JSON.stringify(webhookPayload(view, { documentation: webhookDocsUrl(service.urls.baseUrl), unsubscribe: subscriberLinks(ref.url, slot).unsubscribe })),
    ...(others.length > 0 ? { languages: Object.fromEntries(others.map((lang) => [lang, spoken(lang)])) } : {}),
    about: content.componentIds,
  }
}

/** What a chat subscriber reads: the subscriber words of the mail, its link, and how to stop. */
function chatView(view: EventView, page: PageRef, message: EventMessage, links: SubscriberLinks, w: Words): EventView {
  return { ...view, title: `[${page.name}] ${message.subject}`, lines: [...message.lines.map(lineText), w.t('chat.stop', { link: links.unsubscribe })], link: message.link }
}
