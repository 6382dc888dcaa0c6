/**
 * The transfer API, for the owner and for the recipient:
 *
 *   POST   /user/api/v1/status-pages/:id/transfer     start (email + your password)   201
 *   GET    /user/api/v1/status-pages/:id/transfer     the pending transfer, or null
 *   DELETE /user/api/v1/status-pages/:id/transfer     cancel it
 *   GET    /user/api/v1/transfers/:token              the offer (recipient only)
 *   POST   /user/api/v1/transfers/:token/accept       accept (409 names the plan limit; 410 expired)
 *   POST   /user/api/v1/transfers/:token/decline      decline
 */
import { Elysia, t } from 'elysia'
import { clientKey } from '../../http/context.ts'
import { conflictResponse, errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { StartTransferBody, TokenParams, transferJson, transferModels, TransferOfferRef, transferOfferJson, TransferRef } from './model.ts'
import type { TransfersService } from './service.ts'

const detail = (summary: string, description?: string) => ({ tags: ['Page transfers'], summary, description, security: apiKeySecurity })
const decided = { 200: t.Object({ data: TransferRef }), 410: 'Error', 429: 'Error', ...errorResponses, ...conflictResponse } as const

export function transfersRoutes(deps: { accounts: AccountsService; transfers: TransfersService }) {
  const { transfers } = deps
  return new Elysia({ prefix: '/user/api/v1' })
    .model(sharedModels)
    .model(transferModels)
    .use(ownerAuth(deps.accounts))
    .post(
      '/status-pages/:id/transfer',
      async ({ owner, params, body, request, status }) => status(201, { data: transferJson(await transfers.start(owner, params.id, body, clientKey(request))) }),
      {
        params: IdParams,
        body: StartTransferBody,
        response: { 201: t.Object({ data: TransferRef }), 429: 'Error', ...errorResponses, ...conflictResponse },
        detail: detail(
          'Offer a status page to another account',
          'The answer is the same whether or not an account has the address; only an existing account receives the mail with the accept link. Expires after 7 days.',
        ),
      },
    )
    .get('/status-pages/:id/transfer', async ({ owner, params }) => ({ data: await transfers.pending(owner, params.id).then((x) => (x ? transferJson(x) : null)) }), {
      params: IdParams,
      response: { 200: t.Object({ data: t.Nullable(TransferRef) }), ...errorResponses },
      detail: detail('The pending transfer of a status page (null: none)'),
    })
    .delete('/status-pages/:id/transfer', async ({ owner, params }) => ({ data: transferJson(await transfers.cancel(owner, params.id)) }), {
      params: IdParams,
      response: { 200: t.Object({ data: TransferRef }), ...errorResponses },
      detail: detail('Cancel the pending transfer of a status page (the recipient is told)'),
    })
    .get('/transfers/:token', async ({ owner, params }) => ({ data: transferOfferJson(await transfers.offer(owner, params.token)) }), {
      params: TokenParams,
      response: { 200: t.Object({ data: TransferOfferRef }), 410: 'Error', ...errorResponses },
      detail: detail('A transfer offered to you: the page, its counts and what moves (the token is from the mail link)'),
    })
    .post('/transfers/:token/accept', async ({ owner, params }) => ({ data: transferJson(await transfers.accept(owner, params.token)) }), {
      params: TokenParams,
      response: decided,
      detail: detail('Accept a transfer offered to you', '409 when the page does not fit your plan (the text names the limit; nothing moves), 410 when it expired or was cancelled.'),
    })
    .post('/transfers/:token/decline', async ({ owner, params }) => ({ data: transferJson(await transfers.decline(owner, params.token)) }), {
      params: TokenParams,
      response: decided,
      detail: detail('Decline a transfer offered to you'),
    })
}
