/** The management API of notification channels: /user/api/v1/notification-channels… */
import { Elysia, t } from 'elysia'
import { conflictResponse, errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { deliveryIdOf, deliveryJson, DeliveryLogAnswer, DeliveryLogQuery, deliveryLogJson, deliveryModels, DeliveryRef } from '../notify/delivery-log-model.ts'
import { channelJson, channelModels, ChannelRef, CreateChannelBody, UpdateChannelBody } from './model.ts'
import type { ChannelsService } from './service.ts'

const TAG = 'Notification channels'
const detail = (summary: string, description?: string) => ({ tags: [TAG], summary, description, security: apiKeySecurity })
const one = t.Object({ data: ChannelRef })
const limited = { ...errorResponses, 429: 'Error' } as const
const DeliveryParams = t.Object({ id: IdParams.properties.id, deliveryId: t.String({ maxLength: 40, description: 'A delivery id' }) })

export function channelsRoutes(deps: { accounts: AccountsService; channels: ChannelsService }) {
  const { channels } = deps
  return new Elysia({ prefix: '/user/api/v1' })
    .model(sharedModels)
    .model(channelModels)
    .model(deliveryModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/notification-channels',
      async ({ owner }) => {
        const list = (await channels.list(owner)).map(channelJson)
        return { data: list, meta: { count: list.length, mail_enabled: channels.mailEnabled } }
      },
      {
        response: { 200: t.Object({ data: t.Array(ChannelRef), meta: t.Object({ count: t.Integer(), mail_enabled: t.Boolean({ description: 'false: no SMTP settings, email channels receive nothing' }) }) }), ...errorResponses },
        detail: detail('List your notification channels', 'Each with its settings (secrets masked), pages, events, verification and the last delivery result.'),
      },
    )
    .post('/notification-channels', async ({ owner, body, status }) => status(201, { data: channelJson(await channels.create(owner, body)) }), {
      body: CreateChannelBody,
      response: { 201: one, ...errorResponses, ...conflictResponse },
      detail: detail(
        'Add a notification channel',
        'Settings by type: email `address`; webhook `url` + `secret`; slack, discord, teams `url`; telegram `bot_token` + `chat_id`; ntfy `topic` (+ `access_token`); pagerduty `routing_key`. An email channel gets a verification link (valid 24 h, single use) and receives nothing else until it is followed; the others are verified by a successful test send (POST …/test). At most 50 channels per account.',
      ),
    })
    .get('/notification-channels/:id', async ({ owner, params }) => ({ data: channelJson(await channels.get(owner, params.id)) }), {
      params: IdParams,
      response: { 200: one, ...errorResponses },
      detail: detail('Get a notification channel'),
    })
    .patch('/notification-channels/:id', async ({ owner, params, body }) => ({ data: channelJson(await channels.update(owner, params.id, body)) }), {
      params: IdParams,
      body: UpdateChannelBody,
      response: { 200: one, ...limited },
      detail: detail(
        'Change a notification channel',
        'Omitted fields stay; an empty secret keeps the saved one. Changing where it sends (address, URL, token, key) makes the channel unverified again (email: a new link is sent, within the resend limits: 429). Saving a channel the outbox disabled turns it back on.',
      ),
    })
    .delete(
      '/notification-channels/:id',
      async ({ owner, params }) => {
        await channels.delete(owner, params.id)
        return { data: { deleted: true } }
      },
      { params: IdParams, response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses }, detail: detail('Delete a notification channel', 'What is still queued for it is dropped.') },
    )
    .post('/notification-channels/:id/test', async ({ owner, params, status }) => status(202, { data: channelJson(await channels.sendTest(owner, params.id)) }), {
      params: IdParams,
      response: { 202: one, ...errorResponses, ...conflictResponse },
      detail: detail(
        'Send a test message',
        'Queued in the outbox and delivered like any notification (same adapter, address guard, retries). A webhook or chat channel counts as verified once this delivery succeeded (see `verified` and `last_delivery`). Email channels must be verified first (409).',
      ),
    })
    .post('/notification-channels/:id/signing-secret', async ({ owner, params }) => ({ data: channelJson(await channels.newSigningSecret(owner, params.id)) }), {
      params: IdParams,
      response: { 200: one, ...errorResponses },
      detail: detail(
        'Make a new signing secret for a webhook channel',
        'The new `whsec_` secret signs every attempt from now on (retries of older deliveries too); the answer carries it in full in `signing_secret`, once. 400 for channels of other types.',
      ),
    })
    .get('/notification-channels/:id/deliveries', async ({ owner, params, query }) => deliveryLogJson(await channels.deliveryLog(owner, params.id, query)), {
      params: IdParams,
      query: DeliveryLogQuery,
      response: { 200: DeliveryLogAnswer, ...errorResponses },
      detail: detail(
        'The delivery log of a channel',
        'Its deliveries, newest first (`limit`, default 50, at most 200, with ids below `before`): when each was queued, its status, attempts, the last attempt\'s time, HTTP status, latency and error, and the next retry. Finished deliveries are kept 30 days.',
      ),
    })
    .post(
      '/notification-channels/:id/deliveries/:deliveryId/resend',
      async ({ owner, params, status }) => status(202, { data: deliveryJson(await channels.resendDelivery(owner, params.id, deliveryIdOf(params.deliveryId))) }),
      {
        params: DeliveryParams,
        response: { 202: t.Object({ data: DeliveryRef }), ...errorResponses },
        detail: detail(
          'Send a delivery again',
          'Queues a copy of a finished delivery (sent or given up) with the same body and `webhook-id`, signed anew when it is sent; the answer is the new delivery. 409 while the delivery is still queued or when the channel was disabled after too many failures.',
        ),
      },
    )
    .post(
      '/notification-channels/:id/resend-verification',
      async ({ owner, params, status }) => status(202, { data: channelJson(await channels.resendVerification(owner, params.id)) }),
      {
        params: IdParams,
        response: { 202: one, ...limited, ...conflictResponse },
        detail: detail('Resend the verification mail of an email channel', 'A new link (the previous one stops working). At most once a minute and 5 times in 24 hours (429).'),
      },
    )
}
