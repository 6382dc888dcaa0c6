/**
 * The notification contract every feature codes against (issue 14).
 *
 * Producers (incidents, maintenances, component status, monitors, SLA, certificates, DNSBL,
 * ownership transfer) call `notifier.emit(db, event)` INSIDE the transaction that made the change,
 * with that transaction as `db`. Each registered fan-out (owner channels, page subscribers) turns
 * the event into outbox rows through `outbox.enqueue(db, deliveries)` in the same transaction, so
 * a crash loses nothing: the outbox worker delivers the rows later, with retries (at least once).
 *
 * Direct mails that are not page events (verification links, invitations, "target disabled")
 * go straight to `outbox.enqueue` with a `mail` delivery.
 */
import type { Db } from '../../db/client.ts'

/** Every event a page owner or subscriber can hear. `at` is epoch milliseconds. */
export type NotifyEvent =
  | { kind: 'incident.opened' | 'incident.updated' | 'incident.resolved'; pageId: number; incidentId: number; updateId?: number; notifySubscribers: boolean; at: number }
  | { kind: 'component.status_changed'; pageId: number; componentId: number; from: string; to: string; at: number }
  | { kind: 'maintenance.scheduled' | 'maintenance.started' | 'maintenance.ended'; pageId: number; maintenanceId: number; notifySubscribers: boolean; at: number }
  /** SLA error budget crossed `thresholdPct` (50, 80, 100) for a component in the period starting at `periodStart` (issue 15). */
  | { kind: 'sla.breach'; pageId: number; componentId: number; thresholdPct: number; periodStart: number; targetPct: number; actualPct: number; at: number }
  /** A monitored certificate nears expiry (30, 15, 5 days) or was renewed (issue 16). */
  | { kind: 'certificate.expiring' | 'certificate.renewed'; pageId: number | null; ownerId: number; monitorId: number; host: string; daysLeft: number; notAfter: number; at: number }
  /** A DNSBL monitor's target was listed or delisted on a zone (issue 16). */
  | { kind: 'dnsbl.listed' | 'dnsbl.delisted'; pageId: number | null; ownerId: number; monitorId: number; target: string; zone: string; at: number }
  /** An email-authentication monitor's result changed (issue 16). */
  | { kind: 'email_auth.changed'; pageId: number | null; ownerId: number; monitorId: number; domain: string; summary: string; at: number }

export type NotifyEventKind = NotifyEvent['kind']

export const NOTIFY_EVENT_KINDS: readonly NotifyEventKind[] = [
  'incident.opened', 'incident.updated', 'incident.resolved',
  'component.status_changed',
  'maintenance.scheduled', 'maintenance.started', 'maintenance.ended',
  'sla.breach', 'certificate.expiring', 'certificate.renewed',
  'dnsbl.listed', 'dnsbl.delisted', 'email_auth.changed',
]

/** A mail as the outbox stores it: plain text always, HTML optional, no executable templates. */
export interface OutboundMail {
  to: string
  subject: string
  text: string
  html?: string
  /** Extra headers, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058). */
  headers?: Record<string, string>
  attachments?: { filename: string; contentType: string; contentBase64: string }[]
}

/** A POST the outbox makes: webhooks and chat services. The URL goes through the address guard. */
export interface OutboundRequest {
  url: string
  headers: Record<string, string>
  body: string
  /**
   * Signed at each attempt by the worker (webhook-signing.ts), with the target's keys at that moment:
   * the signature's time is the attempt's, not the queue's. The row keeps the body only.
   */
  signed?: boolean
}

/**
 * One thing to deliver. `target` names who receives it, stable across deliveries, so the worker can
 * count failures in a row per target, disable it after too many and show the last result:
 * `channel:<id>`, `subscriber:<id>`, `account:<id>`, `address:<email>`.
 */
export type Delivery =
  | { target: string; mail: OutboundMail }
  | { target: string; request: OutboundRequest }

/** Writes deliveries in the caller's transaction. Mail deliveries are dropped when mail is off. */
export interface OutboxWriter {
  readonly mailEnabled: boolean
  enqueue(db: Db, deliveries: readonly Delivery[]): Promise<void>
}

/** Turns one event into deliveries (through `outbox.enqueue`) in the caller's transaction. */
export type Fanout = (db: Db, event: NotifyEvent) => Promise<void>

/** Called by the worker when a target is disabled after too many failed deliveries in a row. */
export type TargetDisabledHook = (db: Db, target: string) => Promise<void>

/** The one place producers hand events to. Fan-outs register at the composition root. */
export class Notifier {
  private readonly fanouts: Fanout[] = []

  use(fanout: Fanout): this {
    this.fanouts.push(fanout)
    return this
  }

  async emit(db: Db, event: NotifyEvent): Promise<void> {
    for (const fanout of this.fanouts) await fanout(db, event)
  }
}
