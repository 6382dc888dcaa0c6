/**
 * Ownership transfer of a status page. The owner offers the page
 * to an address (re-entering their password); the account with that address gets a mail with a
 * link and accepts or declines while logged in; the owner can cancel; an offer expires after 7
 * days. Accepting runs in ONE transaction: the conditional update (still pending, not expired),
 * the slot check on the recipient's plan, then the owner columns change. Everything else belongs
 * to the page by its id and moves with it without a copy. Every step mails both parties through
 * the outbox, in the same transaction.
 *
 * Whether an address has an account is never revealed: the owner gets the same answer and the
 * same pending notice either way; without an account nothing is sent and nobody can accept.
 */
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { randomToken, sha256Hex } from '../../lib/crypto.ts'
import { badRequest, conflict, HttpError, notFound } from '../../lib/errors.ts'
import { normalizeEmail, type AccountsService, type Owner } from '../accounts/service.ts'
import { roleMay } from '../plans/roles.ts'
import type { Delivery, OutboxWriter } from '../notify/contract.ts'
import type { StatusPagesService } from '../status-pages/service.ts'
import { acceptedMails, cancelledMail, declinedMails, expiredMails, offerMail, offerSentMail, type TransferMailFacts } from './mails.ts'
import type { TransfersRepo } from './repo.ts'
import { slotRefusal } from './slots.ts'
import type { TransferStatus } from './tables.ts'
import { isUniqueViolationOn } from '../../db/errors.ts'

export const TRANSFER_TTL_MS = 7 * 24 * 3600_000
/** The token in the mail link: 32 random bytes, base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/
const SWEEP_BATCH = 100

export interface Transfer {
  id: number
  pageId: number
  pageName: string
  pageSlug: string
  fromEmail: string
  toEmail: string
  status: TransferStatus
  createdAt: number
  expiresAt: number
  decidedAt: number | null
}

/** What the recipient sees before deciding: the page and what comes with it. */
export interface TransferOffer extends Transfer {
  customDomain: string | null
  visibility: 'public' | 'private'
  componentCount: number
  monitorCount: number
  /** Confirmed, active subscribers. */
  subscriberCount: number
}

/** What happened to the page, for hooks that run inside the accept transaction: the teams it moved between. */
export interface PageMove {
  pageId: number
  fromOwnerId: number
  toOwnerId: number
  at: number
}

/**
 * Runs inside the accept transaction (pass-through `db` is the transaction). The channels feature
 * registers here to detach the page from the previous owner's notification channels
 * (`detachPageFromOwnerChannels`); the automatic-incidents feature may add its slot check by
 * throwing a 409 HttpError, which rolls everything back.
 */
export type PageMoveHook = (db: TransfersRepo['db'], move: PageMove) => Promise<void>

type TransferRow = NonNullable<Awaited<ReturnType<TransfersRepo['findById']>>>

function toTransfer(row: TransferRow): Transfer {
  return {
    id: row.id,
    pageId: row.page_id,
    pageName: row.page_name,
    pageSlug: row.page_slug,
    fromEmail: row.from_email,
    toEmail: row.to_email_lower,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    decidedAt: row.decided_at,
  }
}

const facts = (row: TransferRow): TransferMailFacts => ({ pageName: row.page_name, fromEmail: row.from_email, toEmail: row.to_email_lower, expiresAt: row.expires_at })
const account = (id: number) => `account:${id}`

/** Why a decided transfer cannot be decided again: gone (410) unless it was accepted (409: someone won). */
function noLongerPending(status: TransferStatus): HttpError {
  if (status === 'accepted') return conflict('this transfer was already accepted')
  return new HttpError(410, `this transfer ${status === 'expired' ? 'has expired' : `was ${status}`}`)
}

export interface TransfersServiceDeps {
  repo: TransfersRepo
  pages: StatusPagesService
  accounts: AccountsService
  outbox: OutboxWriter
  clock: Clock
  changes: ChangeFeed
  baseUrl: string
}

export class TransfersService {
  private readonly moveHooks: PageMoveHook[] = []

  constructor(private readonly deps: TransfersServiceDeps) {}

  /** Registers work that must happen in the accept transaction (see PageMoveHook). */
  onPageMoved(hook: PageMoveHook): this {
    this.moveHooks.push(hook)
    return this
  }

  get mailEnabled(): boolean {
    return this.deps.outbox.mailEnabled
  }

  acceptLink(token: string): string {
    return `${this.deps.baseUrl}/user/transfers/${token}`
  }

  /**
   * Offers the owner's page to `email`. The answer is the same whether or not an account has the
   * address; only when one does is the offer mailed (and can be accepted).
   */
  async start(owner: Owner, pageId: number, input: { email: string; password: string }, client: string): Promise<Transfer> {
    await this.deps.pages.get(owner, pageId)
    const email = normalizeEmail(input.email)
    await this.deps.accounts.confirmPassword(owner.userId, input.password, client)
    return this.offerPage(owner, pageId, email)
  }

  /** The CLI's start: an administrator at the database needs no password of the owner. */
  async startAsAdministrator(owner: Owner, pageId: number, rawEmail: string): Promise<Transfer> {
    return this.offerPage(owner, pageId, normalizeEmail(rawEmail))
  }

  private async offerPage(owner: Owner, pageId: number, email: string): Promise<Transfer> {
    const page = await this.deps.pages.get(owner, pageId)
    if (email === owner.email.toLowerCase()) throw badRequest('email is your own address: you already own this page')
    await this.expireIfOverdue(page.id)
    const token = randomToken(32)
    const tokenHash = await sha256Hex(token)
    const now = this.deps.clock.now()
    const id = await this.deps.repo.transaction(async (repo) => {
      if (await repo.findPendingForPage(page.id)) throw conflict('a transfer of this page is already pending: cancel it first')
      const recipient = await repo.findUserIdByEmail(email)
      let id: number
      try {
        id = await repo.insert({ pageId: page.id, fromUserId: owner.userId, toEmail: email, toUserId: recipient?.id ?? null, tokenHash, now, expiresAt: now + TRANSFER_TTL_MS })
      } catch (error) {
        if (isUniqueViolationOn(error, 'page_transfers', 'page_id')) throw conflict('a transfer of this page is already pending: cancel it first')
        throw error
      }
      const row = (await repo.findById(id))!
      const deliveries: Delivery[] = [{ target: account(owner.userId), mail: offerSentMail(facts(row)) }]
      if (recipient) deliveries.push({ target: account(recipient.id), mail: offerMail(facts(row), this.acceptLink(token)) })
      await this.deps.outbox.enqueue(repo.db, deliveries)
      return id
    })
    return toTransfer((await this.deps.repo.findById(id))!)
  }

  /** The page's pending transfer (the owner's notice), or null; an overdue one is expired on the way. */
  async pending(owner: Owner, pageId: number): Promise<Transfer | null> {
    const page = await this.deps.pages.get(owner, pageId)
    await this.expireIfOverdue(page.id)
    const row = await this.deps.repo.findPendingForPage(page.id)
    return row ? toTransfer(row) : null
  }

  /** Withdraws the page's pending offer; the recipient is told. */
  async cancel(owner: Owner, pageId: number): Promise<Transfer> {
    const page = await this.deps.pages.get(owner, pageId)
    await this.expireIfOverdue(page.id)
    const now = this.deps.clock.now()
    const id = await this.deps.repo.transaction(async (repo) => {
      const row = await repo.findPendingForPage(page.id)
      if (!row || !(await repo.decide(row.id, 'cancelled', now))) throw notFound('no pending transfer for this page')
      if (row.to_user_id !== null) await this.deps.outbox.enqueue(repo.db, [{ target: account(row.to_user_id), mail: cancelledMail(facts(row)) }])
      return row.id
    })
    return toTransfer((await this.deps.repo.findById(id))!)
  }

  /** The offer behind a mail link, for the recipient only (anyone else: 404, as if there were none). */
  async offer(user: Owner, token: string): Promise<TransferOffer> {
    const row = await this.recipientRow(user, token)
    const page = (await this.deps.repo.findPage(row.page_id))!
    const [componentCount, monitors, subscriberCount] = await Promise.all([
      this.deps.repo.countComponents(page.id),
      this.deps.repo.pageMonitorStats(page.id),
      this.deps.repo.countSubscribers(page.id),
    ])
    return { ...toTransfer(row), customDomain: page.custom_domain, visibility: page.visibility, componentCount, monitorCount: monitors.count, subscriberCount }
  }

  /** Accepts the offer behind a mail link. */
  async accept(user: Owner, token: string): Promise<Transfer> {
    return this.acceptRow(user, await this.recipientRow(user, token))
  }

  /**
   * The CLI's accept (an administrator at the database): the pending transfer of a page addressed
   * to `user`, without the mail's token.
   */
  async acceptForPage(user: Owner, pageId: number): Promise<Transfer> {
    return this.acceptRow(user, await this.recipientRowOfPage(user, pageId))
  }

  async decline(user: Owner, token: string): Promise<Transfer> {
    return this.declineRow(await this.recipientRow(user, token))
  }

  async declineForPage(user: Owner, pageId: number): Promise<Transfer> {
    return this.declineRow(await this.recipientRowOfPage(user, pageId))
  }

  /** The sweeper: expires overdue offers (mailing both parties), a bounded batch per call. */
  async expireDue(): Promise<number> {
    let expired = 0
    for (const row of await this.deps.repo.listOverdue(this.deps.clock.now(), SWEEP_BATCH)) if (await this.expire(row)) expired++
    return expired
  }

  private async acceptRow(user: Owner, row: TransferRow): Promise<Transfer> {
    if (row.status !== 'pending') throw noLongerPending(row.status)
    const now = this.deps.clock.now()
    await this.deps.repo.transaction(async (repo) => {
      // The conditional update decides the race: of two accepts exactly one changes the row.
      if (!(await repo.decide(row.id, 'accepted', now))) {
        const current = (await repo.findById(row.id))!
        throw noLongerPending(current.status === 'pending' ? 'expired' : current.status)
      }
      const page = await repo.findPage(row.page_id)
      // The page changed team in another way since the offer, or the person who offered it may no
      // longer move it (left the team, demoted): it no longer holds.
      const offeredBy = page && (await repo.roleIn(page.owner_id, row.from_user_id))
      if (!page || !offeredBy || !roleMay(offeredBy, 'manage')) throw new HttpError(410, 'this transfer no longer applies: the page changed owner')
      if (page.owner_id === user.id) throw badRequest('this page is already in the team you act in: switch to the team that should receive it')
      const refusal = slotRefusal({
        recipientPlan: user.plan,
        recipientMonitors: await repo.countMonitorsOfOwner(user.id),
        page: { customDomain: page.custom_domain, visibility: page.visibility },
        pageMonitors: await repo.pageMonitorStats(page.id),
        recipientAutoIncidentComponents: await repo.countAutoIncidentComponentsOfOwner(user.id),
        pageAutoIncidentComponents: await repo.countAutoIncidentComponentsOfPage(page.id),
        pageSubscribers: await repo.countSubscribers(page.id),
      })
      // Thrown inside the transaction: the status goes back to pending and nothing moves.
      if (refusal) throw conflict(refusal)
      await repo.moveOwnership(page.id, user.id, now)
      await repo.revokeShareTokens(page.id, now)
      for (const hook of this.moveHooks) await hook(repo.db, { pageId: page.id, fromOwnerId: page.owner_id, toOwnerId: user.id, at: now })
      const mails = acceptedMails(facts(row))
      await this.deps.outbox.enqueue(repo.db, [
        { target: account(row.from_user_id), mail: mails.toOwner },
        { target: account(user.userId), mail: mails.toRecipient },
      ])
    })
    // Every cache of the page (status JSON, badge, page HTML, lookups by slug and domain) is emptied
    // at once; the management API reads the owner from the database on every request.
    this.deps.changes.pageChanged(row.page_id, { lookups: true })
    return toTransfer((await this.deps.repo.findById(row.id))!)
  }

  private async declineRow(row: TransferRow): Promise<Transfer> {
    if (row.status !== 'pending') throw noLongerPending(row.status)
    const now = this.deps.clock.now()
    await this.deps.repo.transaction(async (repo) => {
      if (!(await repo.decide(row.id, 'declined', now))) {
        const current = (await repo.findById(row.id))!
        throw noLongerPending(current.status === 'pending' ? 'expired' : current.status)
      }
      const mails = declinedMails(facts(row))
      await this.deps.outbox.enqueue(repo.db, [
        { target: account(row.from_user_id), mail: mails.toOwner },
        { target: account(row.to_user_id!), mail: mails.toRecipient },
      ])
    })
    return toTransfer((await this.deps.repo.findById(row.id))!)
  }

  /** The transfer a token names, if `user` is its recipient; an overdue offer is expired on the way. */
  private async recipientRow(user: Owner, token: string): Promise<TransferRow> {
    if (!TOKEN_PATTERN.test(token)) throw notFound()
    const row = await this.deps.repo.findByTokenHash(await sha256Hex(token))
    return this.checkedRecipientRow(user, row)
  }

  private async recipientRowOfPage(user: Owner, pageId: number): Promise<TransferRow> {
    return this.checkedRecipientRow(user, await this.deps.repo.findPendingForPage(pageId))
  }

  private async checkedRecipientRow(user: Owner, row: TransferRow | undefined): Promise<TransferRow> {
    // The address must still be the logged-in user's: an offer is for a person, not an account id alone.
    if (!row || row.to_user_id !== user.userId || row.to_email_lower !== user.email.toLowerCase()) throw notFound()
    if (row.status === 'pending' && row.expires_at <= this.deps.clock.now()) {
      await this.expire(row)
      return (await this.deps.repo.findById(row.id))!
    }
    return row
  }

  private async expireIfOverdue(pageId: number): Promise<void> {
    const row = await this.deps.repo.findPendingForPage(pageId)
    if (row && row.expires_at <= this.deps.clock.now()) await this.expire(row)
  }

  /** Marks an overdue offer expired and tells both parties (once: the conditional update decides). */
  private async expire(row: TransferRow): Promise<boolean> {
    return this.deps.repo.transaction(async (repo) => {
      if (!(await repo.decide(row.id, 'expired', this.deps.clock.now()))) return false
      const mails = expiredMails(facts(row))
      const deliveries: Delivery[] = [{ target: account(row.from_user_id), mail: mails.toOwner }]
      if (row.to_user_id !== null) deliveries.push({ target: account(row.to_user_id), mail: mails.toRecipient })
      await this.deps.outbox.enqueue(repo.db, deliveries)
      return true
    })
  }
}
