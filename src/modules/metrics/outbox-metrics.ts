/**
 * The outbox's figures by channel kind: what waits (the database at each scrape) and each attempt's
 * result (the worker's listener, after the commit). The channel kind is a bounded label: an owner
 * channel's type (email, webhook, slack, …), `subscriber_email` or `subscriber_webhook` for page
 * subscribers, `direct_mail` for mails to an account or address (sign-up, invitations, reports).
 */
import { CHANNEL_TYPES } from '../channels/types.ts'
import type { DeliveryListener } from '../notify/worker.ts'
import type { OutboxKind } from '../notify/tables.ts'
import { Counts, labelText, type ExpositionWriter } from './exposition.ts'
import type { MetricsRepo } from './repo.ts'

const KNOWN_CHANNEL_TYPES: ReadonlySet<string> = new Set(CHANNEL_TYPES)
/** Channel ids whose type is remembered; past this the memory starts over. */
const REMEMBERED_CHANNELS = 10_000

const CHANNEL_ID = /^channel:(\d+)$/

const CHANNEL_KINDS: readonly string[] = [...CHANNEL_TYPES, 'subscriber_email', 'subscriber_webhook', 'direct_mail']

export class OutboxMetrics {
  private readonly deliveries = new Counts()
  private readonly channelTypes = new Map<number, string>()

  constructor(private readonly repo: MetricsRepo) {}

  /** The worker's listener: counts each attempt by channel kind and result (sent, failed, dead). */
  readonly delivered: DeliveryListener = (row, result) => {
    void this.kindOf(row.target, row.kind).then(
      (kind) => this.deliveries.add(labelText({ channel_kind: kind, result })),
      () => this.deliveries.add(labelText({ channel_kind: 'other', result })),
    )
  }

  async write(out: ExpositionWriter): Promise<void> {
    // Every kind is written, zeros included, so an empty queue reads 0 rather than no data.
    const waiting = new Map<string, number>(CHANNEL_KINDS.map((kind) => [kind, 0]))
    for (const row of await this.repo.queued()) {
      const kind = await this.kindOf(row.recipient, row.kind)
      waiting.set(kind, (waiting.get(kind) ?? 0) + row.queued)
    }
    out.family('lantern_outbox_queued', 'gauge', 'Deliveries waiting in the outbox (retries included), by channel kind')
    for (const [kind, queued] of waiting) out.sample('lantern_outbox_queued', labelText({ channel_kind: kind }), queued)
    this.deliveries.write(out, 'lantern_outbox_deliveries_total', 'Delivery attempts by channel kind and result: sent, failed (retried later) or dead (no retry left)')
  }

  /** The channel kind of a recipient (`channel:<id>`, `subscriber…`, anything else is a direct mail). */
  private async kindOf(recipient: string, kind: OutboxKind): Promise<string> {
    if (recipient === 'subscriber' || recipient.startsWith('subscriber:')) return kind === 'mail' ? 'subscriber_email' : 'subscriber_webhook'
    const channel = CHANNEL_ID.exec(recipient)
    if (!channel) return kind === 'mail' ? 'direct_mail' : 'other'
    const id = Number(channel[1])
    let type = this.channelTypes.get(id)
    if (type === undefined) {
      type = (await this.repo.channelTypes([id])).get(id) ?? 'other'
      if (this.channelTypes.size >= REMEMBERED_CHANNELS) this.channelTypes.clear()
      this.channelTypes.set(id, type)
    }
    return KNOWN_CHANNEL_TYPES.has(type) ? type : 'other'
  }
}
