/** Page subscribers in the management API: list, add, remove, import and export (CSV). */
import { Elysia, t } from 'elysia'
import { notFound } from '../../lib/errors.ts'
import { conflictResponse, errorResponses, IdParams, sharedModels, textAnswer } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { deliveryIdOf, deliveryJson, DeliveryLogAnswer, DeliveryLogQuery, deliveryLogJson, deliveryModels, DeliveryRef } from '../notify/delivery-log-model.ts'
import { AddSubscriberBody, CountsRef, countsJson, ImportBody, ListQuery, SubscriberDeliveryParams, SubscriberParams, SubscriberRef, subscriberJson, subscriberModels } from './model.ts'
import type { SubscribersService } from './service.ts'

const subscriberIdOf = (raw: string): number => {
  if (!/^[1-9]\d{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw notFound('no such subscriber')
  return Number(raw)
}

const detail = (summary: string, description?: string) => ({ tags: ['Subscribers'], summary, description, security: apiKeySecurity })

export function subscribersRoutes(deps: { accounts: AccountsService; subscribers: SubscribersService }) {
  const { subscribers } = deps
  return new Elysia({ name: 'subscribers', prefix: '/user/api/v1/status-pages' })
    .model(sharedModels)
    .model(subscriberModels)
    .model(deliveryModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/:id/subscribers',
      async ({ owner, params, query }) => {
        const { subscribers: list, counts } = await subscribers.list(owner, params.id, { afterId: query.after, limit: query.limit })
        return { data: list.map(subscriberJson), counts: countsJson(counts) }
      },
      {
        params: IdParams,
        query: ListQuery,
        response: { 200: t.Object({ data: t.Array(SubscriberRef), counts: CountsRef }), ...errorResponses },
        detail: detail('List the active subscribers of a page', 'Oldest first, `limit` (default 100, at most 1000) after the id `after`; with the counts and the plan limit.'),
      },
    )
    .post(
      '/:id/subscribers',
      async ({ owner, params, body, status }) => status(201, { data: subscriberJson(await subscribers.add(owner, params.id, body)) }),
      {
        params: IdParams,
        body: AddSubscriberBody,
        response: { 201: t.Object({ data: SubscriberRef }), ...errorResponses, ...conflictResponse },
        detail: detail(
          'Add a subscriber (email or webhook)',
          'Confirmed at once, without a confirmation mail: `consent: true` states that the person agreed. 409 when the address is already subscribed; 403 over the plan limit.',
        ),
      },
    )
    .delete(
      '/:id/subscribers/:subscriberId',
      async ({ owner, params }) => {
        await subscribers.remove(owner, params.id, subscriberIdOf(params.subscriberId))
        return { data: { deleted: true } }
      },
      {
        params: SubscriberParams,
        response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses },
        detail: detail('Remove a subscriber'),
      },
    )
    .post(
      '/:id/subscribers/:subscriberId/signing-secret',
      async ({ owner, params }) => ({ data: subscriberJson(await subscribers.newSigningSecret(owner, params.id, subscriberIdOf(params.subscriberId))) }),
      {
        params: SubscriberParams,
        response: { 200: t.Object({ data: SubscriberRef }), ...errorResponses },
        detail: detail(
          'Make a new signing secret for a webhook subscriber',
          'In force at once; the answer carries it in full in `signing_secret`, once: pass it on to whoever runs the receiver. 400 for email subscribers.',
        ),
      },
    )
    .get(
      '/:id/subscribers/:subscriberId/deliveries',
      async ({ owner, params, query }) => deliveryLogJson(await subscribers.deliveryLog(owner, params.id, subscriberIdOf(params.subscriberId), query)),
      {
        params: SubscriberParams,
        query: DeliveryLogQuery,
        response: { 200: DeliveryLogAnswer, ...errorResponses },
        detail: detail('The delivery log of a subscriber', 'Its deliveries, newest first, as the delivery log of a channel. Finished deliveries are kept 30 days.'),
      },
    )
    .post(
      '/:id/subscribers/:subscriberId/deliveries/:deliveryId/resend',
      async ({ owner, params, status }) =>
        status(202, { data: deliveryJson(await subscribers.resendDelivery(owner, params.id, subscriberIdOf(params.subscriberId), deliveryIdOf(params.deliveryId))) }),
      {
        params: SubscriberDeliveryParams,
        response: { 202: t.Object({ data: DeliveryRef }), ...errorResponses },
        detail: detail('Send a delivery to a subscriber again', 'Queues a copy of a finished delivery with the same body and `webhook-id`. 409 while it is still queued.'),
      },
    )
    .post(
      '/:id/subscribers/import',
      async ({ owner, params, body }) => ({ data: await subscribers.importCsv(owner, params.id, body) }),
      {
        params: IdParams,
        body: ImportBody,
        response: { 200: t.Object({ data: t.Object({ imported: t.Integer(), skipped: t.Integer() }) }), ...errorResponses },
        detail: detail(
          'Import subscribers from CSV (all or nothing)',
          'A header row with `email` (or `url` for webhooks), optional `type` and `components` (ids separated by `;`). Every row is checked first; any bad row is reported by line and nothing is added. Addresses already subscribed are skipped. `consent: true` states that everyone in the file agreed.',
        ),
      },
    )
    .get(
      '/:id/subscribers/export',
      async ({ owner, params }) =>
        new Response(await subscribers.exportCsv(owner, params.id), {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="subscribers-page-${params.id}.csv"`,
            'cache-control': 'no-store',
          },
        }),
      {
        params: IdParams,
        response: { 200: textAnswer('text/csv', 'Every active subscriber; cells that a spreadsheet would run as a formula start with \''), ...errorResponses },
        detail: detail('Export the subscribers of a page as CSV'),
      },
    )
}
