/**
 * PagerDuty Events API v2 (`/v2/enqueue`): `trigger` with `dedup_key` = the event's alert key
 * (`lantern:incident:<id>`, `lantern:component:<id>`, …) and `resolve` with the same key when the
 * incident is resolved or the component is back up, so the resolve closes the alert it opened.
 */
import { toIso } from '../../../lib/time.ts'
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import { cut, jsonPost } from './shared.ts'

const SEVERITY = { critical: 'critical', warning: 'warning', info: 'info', ok: 'info' } as const

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
    ...(view.link ? { links: [{ href: view.link, text: view.page?.name ?? 'Status page' }] } : {}),
  }
}

export const pagerDutyRequest = (view: EventView, settings: { routing_key: string }, eventsUrl: string): OutboundRequest =>
  jsonPost(eventsUrl, pagerDutyPayload(view, settings.routing_key))
