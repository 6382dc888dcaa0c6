/** Schemas of page subscribers in the management API; the answers are named models. */
import { t, type Static } from 'elysia'
import { entityId, modelRef, namedModels } from '../../http/schemas.ts'
import { toIso, toIsoOrNull } from '../../lib/time.ts'
import type { Subscriber, SubscriberCounts } from './service.ts'
import { MAX_EMAIL, MAX_URL } from './validate.ts'

export const MAX_CSV_CHARS = 2_000_000

const ComponentIds = t.Array(entityId('component_ids must be component ids'), {
  maxItems: 100,
  error: 'component_ids must be a list of at most 100 component ids',
})

export const AddSubscriberBody = t.Object({
  kind: t.Optional(
    t.Union([t.Literal('email'), t.Literal('webhook'), t.Literal('slack'), t.Literal('teams')], {
      error: 'kind must be email, webhook, slack or teams',
      description: 'Default email; `slack` (a Slack incoming webhook) and `teams` (a Teams Workflows URL) get messages in those services\' formats at `url`',
    }),
  ),
  email: t.Optional(t.String({ maxLength: MAX_EMAIL, error: `email must be an address of at most ${MAX_EMAIL} characters` })),
  url: t.Optional(t.String({ maxLength: MAX_URL, error: `url must be an http(s) address of at most ${MAX_URL} characters` })),
  component_ids: t.Optional(t.Nullable(ComponentIds, { description: 'Only events about these components; null or empty: every event' })),
  consent: t.Boolean({ error: 'consent must be true: confirm that this person agreed to get these updates', description: 'The owner confirms that the person agreed: no confirmation mail is sent' }),
})
export type AddSubscriberInput = Static<typeof AddSubscriberBody>

export const ImportBody = t.Object({
  csv: t.String({
    minLength: 1,
    maxLength: MAX_CSV_CHARS,
    error: `csv must be a CSV file of at most ${MAX_CSV_CHARS} characters, pasted or uploaded`,
    examples: ['email,components\nops@example.com,\nteam@example.com,1;2\n'],
  }),
  consent: t.Boolean({ error: 'consent must be true: confirm that the people in this file agreed to get these updates' }),
})

export const ListQuery = t.Object({
  after: t.Optional(t.Numeric({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: 'after must be a subscriber id' })),
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 1000, multipleOf: 1, error: 'limit must be an integer from 1 to 1000' })),
})

export const SubscriberDeliveryParams = t.Object({
  id: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: 'id must be a positive integer' }),
  subscriberId: t.String({ maxLength: 40, description: 'A subscriber id' }),
  deliveryId: t.String({ maxLength: 40, description: 'A delivery id' }),
})

export const SubscriberParams = t.Object({
  id: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: 'id must be a positive integer' }),
  // Anything but an id names no subscriber here: a 404 (as another owner's id), not a 400.
  subscriberId: t.String({ maxLength: 40, description: 'A subscriber id' }),
})

const SubscriberJson = t.Object({
  id: t.Integer(),
  kind: t.String({ description: 'email, webhook, slack or teams' }),
  email: t.Nullable(t.String()),
  url: t.Nullable(t.String()),
  component_ids: t.Nullable(t.Array(t.Integer())),
  source: t.String({ description: 'self (the public form), owner or import' }),
  status: t.String({ description: 'pending (waiting for the confirmation link) or confirmed' }),
  confirmed_at: t.Nullable(t.String()),
  created_at: t.String(),
  signing_secret: t.Optional(t.String({ description: 'Webhook subscribers: the `whsec_` signing secret in full, only in the answer that made it (add, POST …/signing-secret). Pass it on to whoever runs the receiver: it is not shown again' })),
})

const CountsJson = t.Object({
  email: t.Integer({ description: 'Confirmed email subscribers' }),
  pending: t.Integer({ description: 'Email subscribers who have not confirmed yet' }),
  webhook: t.Integer(),
  limit: t.Nullable(t.Integer({ description: "The plan's limit per page; null: none" })),
})

export const subscriberModels = namedModels({ Subscriber: SubscriberJson, SubscriberCounts: CountsJson })
export const SubscriberRef = modelRef(subscriberModels, 'Subscriber')
export const CountsRef = modelRef(subscriberModels, 'SubscriberCounts')

export const subscriberJson = (s: Subscriber): Static<typeof SubscriberJson> => ({
  id: s.id,
  kind: s.kind,
  email: s.email,
  url: s.url,
  component_ids: s.componentIds,
  source: s.source,
  status: s.status,
  confirmed_at: toIsoOrNull(s.confirmedAt),
  created_at: toIso(s.createdAt),
  ...(s.revealedSigningSecret ? { signing_secret: s.revealedSigningSecret } : {}),
})

export const countsJson = (c: SubscriberCounts): Static<typeof CountsJson> => ({ ...c })
