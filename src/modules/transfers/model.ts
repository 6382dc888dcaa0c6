import { t, type Static } from 'elysia'
import { toIso, toIsoOrNull } from '../../lib/time.ts'
import { modelRef, namedModels } from '../../http/schemas.ts'
import { WHAT_MOVES, WHAT_STAYS } from './mails.ts'
import type { Transfer, TransferOffer } from './service.ts'

/** Start a transfer: the recipient's address and the owner's own password again. */
export const StartTransferBody = t.Object({
  email: t.String({ minLength: 1, maxLength: 320, error: 'email must be an address of at most 320 characters' }),
  password: t.String({ minLength: 1, maxLength: 1024, error: 'password is required (your own, to confirm)' }),
})
export type StartTransferInput = Static<typeof StartTransferBody>

export const TokenParams = t.Object({ token: t.String({ maxLength: 100, error: 'token must be the code from the mail link' }) })

const StatusSchema = t.Union(['pending', 'accepted', 'cancelled', 'expired', 'declined'].map((status) => t.Literal(status)))

const TransferJson = t.Object({
  id: t.Integer(),
  status_page_id: t.Integer(),
  page_name: t.String(),
  page_slug: t.String(),
  from_email: t.String(),
  to_email: t.String(),
  status: StatusSchema,
  created_at: t.String({ description: 'RFC 3339' }),
  expires_at: t.String({ description: 'RFC 3339; a pending transfer expires 7 days after it started' }),
  decided_at: t.Nullable(t.String({ description: 'RFC 3339' })),
})

const TransferOfferJson = t.Composite([
  TransferJson,
  t.Object({
    custom_domain: t.Nullable(t.String()),
    visibility: t.Union([t.Literal('public'), t.Literal('private')]),
    component_count: t.Integer(),
    monitor_count: t.Integer(),
    subscriber_count: t.Integer({ description: 'Confirmed, active subscribers of the page' }),
    moves: t.Array(t.String(), { description: 'What comes with the page' }),
    stays: t.Array(t.String(), { description: 'What stays with the previous owner' }),
  }),
])

export const transferModels = namedModels({ PageTransfer: TransferJson, PageTransferOffer: TransferOfferJson })
export const TransferRef = modelRef(transferModels, 'PageTransfer')
export const TransferOfferRef = modelRef(transferModels, 'PageTransferOffer')

export function transferJson(transfer: Transfer): Static<typeof TransferJson> {
  return {
    id: transfer.id,
    status_page_id: transfer.pageId,
    page_name: transfer.pageName,
    page_slug: transfer.pageSlug,
    from_email: transfer.fromEmail,
    to_email: transfer.toEmail,
    status: transfer.status,
    created_at: toIso(transfer.createdAt),
    expires_at: toIso(transfer.expiresAt),
    decided_at: toIsoOrNull(transfer.decidedAt),
  }
}

export function transferOfferJson(offer: TransferOffer): Static<typeof TransferOfferJson> {
  return {
    ...transferJson(offer),
    custom_domain: offer.customDomain,
    visibility: offer.visibility,
    component_count: offer.componentCount,
    monitor_count: offer.monitorCount,
    subscriber_count: offer.subscriberCount,
    moves: [...WHAT_MOVES],
    stays: [...WHAT_STAYS],
  }
}
