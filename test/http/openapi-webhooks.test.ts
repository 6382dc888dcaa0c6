/**
 * The outgoing webhooks in the served OpenAPI document's 3.1 `webhooks` section: every event type,
 * the one payload schema by reference (the same schema the code builds payloads by), the Standard
 * Webhooks headers, and examples that are valid payloads.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { WEBHOOK_EVENT_TYPES, WebhookPayload } from '../../src/modules/channels/webhook-schema.ts'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'

let ctx: TestContext
let doc: any

beforeAll(async () => {
  ctx = await createTestContext()
  doc = await json(await ctx.request('/swagger/json'))
})
afterAll(() => ctx.close())

test('every event type is a webhook of the document, with the one payload schema and signed headers', () => {
  expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort())
  const { $id: _, ...served } = JSON.parse(JSON.stringify(WebhookPayload))
  expect(doc.components.schemas.WebhookPayload).toEqual(served)
  const ids = new Set<string>()
  for (const [type, item] of Object.entries<any>(doc.webhooks)) {
    const operation = item.post
    ids.add(operation.operationId)
    expect(operation.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookPayload' })
    expect(operation.parameters.filter((p: any) => p.required).map((p: any) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature'])
    expect(operation.parameters.find((p: any) => p.name === 'x-lantern-signature')).toMatchObject({ deprecated: true, required: false })
    expect(Object.keys(operation.responses)).toEqual(['2XX', '4XX', 'default'])
    expect(operation.summary).toContain(type)
  }
  expect(ids.size).toBe(WEBHOOK_EVENT_TYPES.length)
  expect(doc.tags.map((t: { name: string }) => t.name)).toContain('Webhooks')
})

test('each example is a valid payload of its own type', () => {
  const ajv = new Ajv2020({ strict: false })
  addFormats(ajv)
  const validate = ajv.compile(doc.components.schemas.WebhookPayload)
  for (const [type, item] of Object.entries<any>(doc.webhooks)) {
    const example = item.post.requestBody.content['application/json'].example
    expect([type, validate(example), ajv.errorsText(validate.errors)]).toEqual([type, true, 'No errors'])
    expect(example.type).toBe(type)
  }
  expect(doc.webhooks['incident.opened'].post.requestBody.content['application/json'].example.page).toMatchObject({ status_indicator: 'major', status_description: 'Partial System Outage' })
})
