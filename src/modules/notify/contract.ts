/**
 * The notification contract every feature codes against.
 *
 * Producers (incidents, maintenances, component status, monitors, SLA, certificates, DNSBL,
 * ownership transfer) call `notifier.emit(db, event)` INSIDE the transaction that made the change,
 * with that transaction as `db`. Each registered fan-out (owner channels, page subscribers) turns
 * the event into outbox rows through `outbox.enqueue(db, deliveries)` in the same transaction, so
 * a crash loses nothing: the outbox worker delivers the rows later, with retries (at least once).
 *
 * Direct mails that are not page events (verification links, invitations, "target disabled")
 * go straight to `outbox.enqueue` with a `mail` delivery.
 *
 * One outage, one message: the events one monitor change causes (the component's status, then the
 * automatic incident opened, reopened or resolved) are written in separate transactions by
 * separate services. They carry the same `cause`; the Notifier holds them (in the database, in each
 * emitting transaction) until the producer says the cause is complete (`flush`), and then hands
 * them to every fan-out as ONE group. A fan-out turns a group into one delivery per mail or chat
 * channel; webhook channels still get one payload per event. A cause that is never flushed (the
 * process died in between) is flushed by the outbox worker after HOLD_LIMIT_MS. Events made by a
 * person carry no cause and go out at once, each on its own.
 */
import type { Db } from '../../db/client.ts'

/**
 * What caused an event that no person made: a change of monitors' confirmed state. Every event
 * one change causes for one component carries the same cause.
 */
export interface NotifyCause {
  /** Unique per change and component; the events held under it become one group. */
  key: string
  /** The monitors whose confirmed state changed: messages name them, their target and the reason. */
  monitorIds: number[]
}

/** Every event a page owner or subscriber can hear. `at` is epoch milliseconds. */
export type NotifyEvent =
  | { kind: 'incident.opened' | 'incident.updated' | 'incident.resolved' | 'incident.postmortem'; pageId: number; incidentId: number; updateId?: number; notifySubscribers: boolean; at: number; cause?: NotifyCause }
  | { kind: 'component.status_changed'; pageId: number; componentId: number; from: string; to: string; at: number; cause?: NotifyCause }
  | { kind: 'maintenance.scheduled' | 'maintenance.started' | 'maintenance.ended'; pageId: number; maintenanceId: number; notifySubscribers: boolean; at: number }
  /** SLA error budget crossed `thresholdPct` (50, 80, 100) for a component in the period starting at `periodStart`. */
  | { kind: 'sla.breach'; pageId: number; componentId: number; thresholdPct: number; periodStart: number; targetPct: number; actualPct: number; at: number }
  /** A monitored certificate nears expiry (30, 15, 5 days) or was renewed. */
  | { kind: 'certificate.expiring' | 'certificate.renewed'; pageId: number | null; ownerId: number; monitorId: number; host: string; daysLeft: number; notAfter: number; at: number }
  /** A DNSBL monitor's target was listed or delisted on a zone. */
  | { kind: 'dnsbl.listed' | 'dnsbl.delisted'; pageId: number | null; ownerId: number; monitorId: number; target: string; zone: string; at: number }
  /**
   * A monitor's confirmed state changed, whether or not it feeds a component (with `reminder`: the
   * n-th reminder that it is still down). `since`: when the outage began (for `monitor.up`, the
   * outage that ended).
   */
  | { kind: MonitorEventKind; pageId: number | null; ownerId: number; monitorId: number; from: string; to: string; since: number; at: number; reminder?: number; cause?: NotifyCause }
  /** An email-authentication monitor's result changed. */
  | { kind: 'email_auth.changed'; pageId: number | null; ownerId: number; monitorId: number; domain: string; summary: string; at: number }

export type NotifyEventKind = NotifyEvent['kind']

export const MONITOR_EVENT_KINDS = ['monitor.down', 'monitor.up', 'monitor.degraded', 'monitor.misconfigured'] as const
export type MonitorEventKind = (typeof MONITOR_EVENT_KINDS)[number]
export const isMonitorEvent = (event: NotifyEvent): event is Extract<NotifyEvent, { kind: MonitorEventKind }> => event.kind.startsWith('monitor.')

export const NOTIFY_EVENT_KINDS: readonly NotifyEventKind[] = [
  'incident.opened', 'incident.updated', 'incident.resolved', 'incident.postmortem',
  'component.status_changed',
  'maintenance.scheduled', 'maintenance.started', 'maintenance.ended',
  'sla.breach', 'certificate.expiring', 'certificate.renewed',
  'dnsbl.listed', 'dnsbl.delisted', 'email_auth.changed',
  ...MONITOR_EVENT_KINDS,
]

/** A mail as the outbox stores it: plain text always, HTML optional, no executable templates. */
export interface OutboundMail {
  to: string
  subject: string
  text: string
  html?: string
  /** Extra headers, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058). */
  headers?: Record<string, string>
  /** `<…@…>`; the outbox gives each mail a new one when it is queued unless the producer set it. */
  messageId?: string
  attachments?: { filename: string; contentType: string; contentBase64: string }[]
}

/** A request the outbox makes (a POST unless `method` says otherwise): webhooks and chat services. The URL goes through the address guard. */
export interface OutboundRequest {
  url: string
  headers: Record<string, string>
  body: string
  method?: 'POST' | 'PATCH'
  /** One outage, one chat message, where the service can edit what it posted (worker.ts). */
  thread?: ChatThread
  /**
   * Signed at each attempt by the worker (webhook-signing.ts), with the target's keys at that moment:
   * the signature's time is the attempt's, not the queue's. The row keeps the body only.
   */
  signed?: boolean
  /**
   * A dotted path in the JSON answer that must be `true` for the delivery to count as sent: Slack's
   * Web API answers 200 with `"ok": false` and an `error` code when it refuses a message.
   */
  okWhen?: string
}

/**
 * The first message of an outage and the later ones that edit it, on a chat service that can edit
 * (Discord webhooks, Telegram bots, Slack bots). The request that opens the outage says where the service's
 * JSON answer names the message (`keep`); the worker keeps those values under the receiver and
 * `key`. A later request of the outage carries `edit`: while the first message is known, the worker
 * sends the edit instead, each `{{name}}` in its URL and `"{{name}}"` in its body replaced by the
 * kept value; when it is not known (the first one failed) or the service no longer has it (4xx),
 * the request itself is sent, as a new message.
 */
export interface ChatThread {
  /** The outage: `monitor:<id>:<since>` or `component:<id>:<since>`. */
  key: string
  /** name → dotted path in the answer's JSON, e.g. `{ message_id: 'result.message_id' }`. */
  keep?: Record<string, string>
  edit?: { method: 'POST' | 'PATCH'; url: string; body: string; okWhen?: string }
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

/**
 * Turns a group of events into deliveries (through `outbox.enqueue`) in the caller's transaction.
 * A group is one event, or every event of one cause in the order they were emitted.
 */
export type Fanout = (db: Db, events: readonly NotifyEvent[]) => Promise<void>

/** Where the Notifier keeps the events of a cause until it is complete (held-events.ts). */
export interface HeldEvents {
  /** Keeps `event` under `key`, in the emitting transaction `db`. */
  hold(db: Db, key: string, event: NotifyEvent): Promise<void>
  /** Runs `work` in one transaction; `take` inside it reads and removes a cause's events. */
  transaction<T>(work: (db: Db) => Promise<T>): Promise<T>
  /** The events held under `key`, in the order they were emitted, removed from the store. */
  take(db: Db, key: string): Promise<NotifyEvent[]>
  /** Keys whose first event was held longer than `ms` ago (causes nobody flushed). */
  heldLongerThan(ms: number, limit: number): Promise<string[]>
}

/** A cause nobody flushed within this time is flushed by the outbox worker (a crash in between). */
export const HOLD_LIMIT_MS = 60_000

/** Called by the worker when a target is disabled after too many failed deliveries in a row. */
export type TargetDisabledHook = (db: Db, target: string) => Promise<void>

/**
 * Called by the worker when a delivery to a target succeeded, in the transaction that records the
 * success, with the time it is recorded at (channels: a successful test send verifies the channel).
 */
export type TargetSentHook = (db: Db, target: string, at: number) => Promise<void>

/** The one place producers hand events to. Fan-outs and the store register at the composition root. */
export class Notifier {
  private readonly fanouts: Fanout[] = []
  private held: HeldEvents | undefined

  use(fanout: Fanout): this {
    this.fanouts.push(fanout)
    return this
  }

  /** Holds events that carry a cause until `flush`; without a store every event goes out at once. */
  holdWith(store: HeldEvents): this {
    this.held = store
    return this
  }

  async emit(db: Db, event: NotifyEvent): Promise<void> {
    const cause = 'cause' in event ? event.cause : undefined
    if (cause && this.held) await this.held.hold(db, cause.key, event)
    else await this.fanOut(db, [event])
  }

  /** The cause is complete: its held events reach every fan-out as one group, in one transaction. */
  async flush(key: string): Promise<void> {
    const held = this.held
    if (!held) return
    await held.transaction(async (trx) => {
      const events = await held.take(trx, key)
      if (events.length > 0) await this.fanOut(trx, events)
    })
  }

  /** Flushes causes held longer than HOLD_LIMIT_MS (an outbox worker step; never "more remains"). */
  readonly flushStale = async (): Promise<boolean> => {
    if (!this.held) return false
    for (const key of await this.held.heldLongerThan(HOLD_LIMIT_MS, 100)) await this.flush(key)
    return false
  }

  private async fanOut(db: Db, events: readonly NotifyEvent[]): Promise<void> {
    for (const fanout of this.fanouts) await fanout(db, events)
  }
}
