/**
 * PagerDuty Events API v2.
 *
 * - Alerts (`/v2/enqueue`): `trigger` with `dedup_key` = the event's alert key
 *   (`lantern:incident:<id>`, `lantern:component:<id>`, …) and `resolve` with the same key when the
 *   incident is resolved or the component is back up, so the resolve closes the alert it opened.
 * - Maintenance is planned work, not an alert: its events go to the Change Events endpoint (the
 *   service's change timeline; nothing pages anyone, nothing stays open).
 * - "Send test" triggers an alert and resolves it at once with the same key (two deliveries, sent
 *   in queue order), so a test never leaves an open alert behind.
 */
import { toIso } from '../../../lib/time.ts'
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import { cut, jsonPost } from './shared.ts'

const SEVERITY = { critical: 'critical', warning: 'warning', info: 'info', ok: 'info' } as const

const isMaintenance = (view: EventView) => view.kind.startsWith('maintenance.')

/**
 * The Change Events endpoint beside an Events endpoint: PagerDuty serves `/v2/change/enqueue` next
 * to `/v2/enqueue`; an address not ending in `/enqueue` gets `/change` added.
 */
export function pagerDutyChangeUrl(eventsUrl: string): string {
  return eventsUrl.endsWith('/enqueue') ? `${eventsUrl.slice(0, -'/enqueue'.length)}/change/enqueue` : `${eventsUrl}/change`
}

const links = (view: EventView) => (view.link ? { links: [{ href: view.link, text: view.page?.name ?? 'Status page' }] } : {})

export function pagerDutyPayload(view: EventView, routingKey: string) {
  if (view.resolves) return { routing_key: routingKey, event_action: 'resolve', dedup_key: view.alertKey }
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: view.alertKey,
    payload: {
      summary: cut(view.title, 1024),
      source: view.page?.url ?? 'lantern',
      severity: SEVERITY[view.severity],
      timestamp: toIso(view.at),
      ...(view.component ? { component: view.component.name } : {}),
      ...(view.page ? { group: view.page.name } : {}),
      class: view.kind,
      custom_details: { lines: view.lines, ...view.details },
    },
    ...links(view),
  }
}

/** A change event (Change Events API): what changed and when, with no alert to open or close. */
export function pagerDutyChangePayload(view: EventView, routingKey: string) {
  return {
    routing_key: routingKey,
    payload: {
      summary: cut(view.title, 1024),
      source: view.page?.url ?? 'lantern',
      timestamp: toIso(view.at),
      custom_details: { event: view.kind, lines: view.lines, ...view.details },
    },
    ...links(view),
  }
}

export function pagerDutyRequest(view: EventView, settings: { routing_key: string }, eventsUrl: string): OutboundRequest {
  if (isMaintenance(view)) return jsonPost(pagerDutyChangeUrl(eventsUrl), pagerDutyChangePayload(view, settings.routing_key))
  return jsonPost(eventsUrl, pagerDutyPayload(view, settings.routing_key))
}

/** "Send test": the alert, then its resolve (same key), so the test closes itself. */
export function pagerDutyTestRequests(view: EventView, settings: { routing_key: string }, eventsUrl: string): OutboundRequest[] {
  return [pagerDutyRequest(view, settings, eventsUrl), pagerDutyRequest({ ...view, resolves: true }, settings, eventsUrl)]
}
