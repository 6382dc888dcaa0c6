/**
 * Expands pending subscriber fan-outs (fanout.ts) into outbox rows: a step of the outbox worker,
 * run before it claims rows (by its loop and by `drain()`).
 *
 * Each batch is one transaction: the outbox rows of up to `batchSize` subscribers after the row's
 * `last_subscriber_id`, and that progress moved to the batch's last subscriber (or the row deleted
 * when none is left). A crash rolls the whole batch back, so nothing is lost or written twice; the
 * move is conditional on the progress read, so two expanders never write the same batch. Who gets
 * the event is decided at expansion: someone who unsubscribed in between gets nothing. Deliveries
 * stay at least once: the outbox may send a row again after a crash mid-send.
 */
import type { Db } from '../../db/client.ts'
import { webhookRequestOf } from '../channels/adapters/webhook.ts'
import { chatRequest, isChatKind } from './chat.ts'
import type { Delivery, OutboxWriter } from '../notify/contract.ts'
import type { Language } from '../../lib/i18n.ts'
import type { PendingFanoutPayload, SpokenFanout } from './fanout.ts'
import { SubscribersRepo } from './repo.ts'
import { componentIdsOf, type SubscribersService } from './service.ts'

/** Subscribers per transaction: 500 outbox rows are one INSERT, well under SQLite's variable limit. */
export const EXPAND_BATCH = 500
/** Batches per worker step, so claiming (and sending) starts while a huge fan-out is expanded. */
export const BATCHES_PER_STEP = 10

/** Someone else moved the progress between our read and our write: roll back, read again. */
class LostRace extends Error {}

export class SubscriberFanoutExpander {
  constructor(
    private readonly db: Db,
    private readonly service: SubscribersService,
    private readonly outbox: OutboxWriter,
    private readonly batchSize = EXPAND_BATCH,
  ) {}

  /** The worker step: expands up to `maxBatches` batches; true while pending fan-outs remain. */
  readonly step = (): Promise<boolean> => this.expand(BATCHES_PER_STEP)

  /** Expands oldest first, until nothing is pending or `maxBatches` ran; true while some remain. */
  async expand(maxBatches = Number.POSITIVE_INFINITY): Promise<boolean> {
    const repo = new SubscribersRepo(this.db)
    for (let batches = 0; batches < maxBatches; batches++) {
      const next = await repo.fanout()
      if (!next) return false
      await this.expandBatch(next.id)
    }
    return (await repo.fanout()) !== undefined
  }

  /** One batch of one fan-out, in one transaction; returns the outbox deliveries it wrote. */
  async expandBatch(fanoutId: number): Promise<number> {
    try {
      return await new SubscribersRepo(this.db).transaction(async (repo, trx) => {
        const fanout = await repo.fanout(fanoutId)
        if (!fanout) return 0
        const from = fanout.last_subscriber_id
        const page = await repo.page(fanout.page_id)
        if (!page || page.blocked === 1) {
          if (!(await repo.finishFanout(fanout.id, from))) throw new LostRace()
          return 0
        }
        const payload = JSON.parse(fanout.payload_json) as PendingFanoutPayload
        const batch = await repo.recipientsBetween(page.id, from, fanout.upto_subscriber_id, this.batchSize)
        const about = new Set(payload.about)
        const hears = (chosen: number[] | null) => chosen === null || about.size === 0 || chosen.some((id) => about.has(id))
        const recipients = batch.filter(
          (s) => (page.visibility === 'public' || s.source !== 'self') && (s.kind !== 'email' || this.outbox.mailEnabled) && (!isChatKind(s.kind) || payload.slackBody !== undefined) && hears(componentIdsOf(s)),
        )
        // The subscriber's language, when the fan-out has it; else the page's default at the top.
        const spoken = (language: string | null): SpokenFanout => (language !== null && payload.languages?.[language as Language]) || payload
        const fill = (text: string, token: string) => text.replaceAll(payload.slot, token)
        const deliveries = await Promise.all(
          recipients.map(async (s): Promise<Delivery> => {
            const token = await this.service.tokens.token(repo, s.id, s.manage_key)
            const target = `subscriber:${s.id}`
            const words = spoken(s.language)
            if (s.kind === 'email') {
              const { mail } = words
              const headers = Object.fromEntries(Object.entries(mail.headers ?? {}).map(([name, value]) => [name, fill(value, token)]))
              return { target, mail: { to: s.email!, subject: mail.subject, text: fill(mail.text, token), html: mail.html && fill(mail.html, token), headers } }
            }
            if (s.kind === 'slack') return { target, request: chatRequest(s.url!, fill((words.slackBody ?? payload.slackBody)!, token)) }
            if (s.kind === 'teams') return { target, request: chatRequest(s.url!, fill((words.teamsBody ?? payload.teamsBody)!, token)) }
            return { target, request: webhookRequestOf(s.url!, fill(payload.webhookBody, token)) }
          }),
        )
        if (deliveries.length > 0) await this.outbox.enqueue(trx, deliveries)
        // A short batch is the last one; a full one may be followed by more.
        const moved = batch.length < this.batchSize ? await repo.finishFanout(fanout.id, from) : await repo.advanceFanout(fanout.id, from, batch.at(-1)!.id)
        if (!moved) throw new LostRace()
        return deliveries.length
      })
    } catch (error) {
      if (error instanceof LostRace) return 0
      throw error
    }
  }
}
