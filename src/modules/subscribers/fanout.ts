/**
 * The subscriber fan-out (registered on `services.notifier`): an incident or maintenance event
 * with `notifySubscribers` becomes one mail per confirmed email subscriber and one POST per webhook
 * subscriber, written to the outbox in one call inside the producer's transaction. A subscriber
 * who chose components hears only events about one of them (events about the whole page reach
 * everyone). Private pages reach only the subscribers their owner added or imported.
 */
import type { Db } from '../../db/client.ts'
import { randomToken } from '../../lib/crypto.ts'
import type { Delivery, Fanout, NotifyEvent, OutboxWriter } from '../notify/contract.ts'
import { incidentMessage, isSubscriberEvent, maintenanceMessage, subscriberWebhookBody, type SubscriberEvent } from './events.ts'
import { eventMail, subscriberLinks } from './messages.ts'
import { SubscribersRepo } from './repo.ts'
import { componentIdsOf, type SubscribersService } from './service.ts'

export function subscriberFanout(service: SubscribersService, outbox: OutboxWriter): Fanout {
  return async (db: Db, event: NotifyEvent) => {
    if (!isSubscriberEvent(event)) return
    const deliveries = await subscriberDeliveries(service, new SubscribersRepo(db), event, outbox.mailEnabled)
    if (deliveries.length > 0) await outbox.enqueue(db, deliveries)
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

export async function subscriberDeliveries(service: SubscribersService, repo: SubscribersRepo, event: SubscriberEvent, mailEnabled: boolean): Promise<Delivery[]> {
  const page = await repo.page(event.pageId)
  if (!page || page.blocked === 1) return []
  const content = await eventContent(repo, event)
  if (!content) return []
  const ref = service.pageRef(page)
  const message = content.kind === 'incident' ? incidentMessage(event.kind, ref, content.value) : maintenanceMessage(event.kind as Parameters<typeof maintenanceMessage>[0], ref, content.value)
  const about = new Set(content.componentIds)
  const hears = (chosen: number[] | null) => chosen === null || about.size === 0 || chosen.some((id) => about.has(id))
  const recipients = (await repo.recipients(page.id)).filter(
    (s) => (page.visibility === 'public' || s.source !== 'self') && (s.kind === 'webhook' || mailEnabled) && hears(componentIdsOf(s)),
  )
  // Each mail differs only in its address and its token: rendered once with a random slot where
  // the token goes, then filled per subscriber (the slot is base64url, which escaping leaves alone).
  const slot = `t${randomToken(12)}`
  const template = eventMail('', ref, message, subscriberLinks(ref.url, slot))
  const fill = (text: string, token: string) => text.replaceAll(slot, token)
  return Promise.all(
    recipients.map(async (s): Promise<Delivery> => {
      const token = await service.tokens.token(repo, s.id, s.manage_key)
      const target = `subscriber:${s.id}`
      if (s.kind === 'email') {
        const headers = Object.fromEntries(Object.entries(template.headers ?? {}).map(([name, value]) => [name, fill(value, token)]))
        return { target, mail: { to: s.email!, subject: template.subject, text: fill(template.text, token), html: template.html && fill(template.html, token), headers } }
      }
      const body = JSON.stringify(subscriberWebhookBody(ref, event, content, subscriberLinks(ref.url, token).unsubscribe))
      return { target, request: { url: s.url!, headers: { 'content-type': 'application/json', 'user-agent': 'Lantern subscriber webhook' }, body } }
    }),
  )
}
