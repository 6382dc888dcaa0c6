/** The monitors API with the redis, postgres, websocket and smtp types: what is stored, what the engine runs, and 400s that store nothing. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { definitionOf } from '../../../src/modules/monitors/service.ts'
import { toSpec } from '../../../src/modules/monitors/definition.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 10, 28, 9, 0, 0) })
  ;({ key } = await ctx.createOwner('pro'))
})
afterAll(async () => {
  await ctx.close()
})

const create = (body: Record<string, unknown>) => ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: body })
const count = async () => (await json(await ctx.request('/user/api/v1/monitors', { key }))).meta.count as number
const specOf = async (id: number) => toSpec(definitionOf((await ctx.app.services.monitorsRepo.find(id))!))

describe('server monitors through the API', () => {
  test('each type is stored with its options and becomes the spec the engine runs', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ type: 'redis', target: 'cache.example.com' }, { type: 'redis', host: 'cache.example.com', port: 6379, tls: false }],
      [
        { type: 'redis', target: 'rediss://app:s3cret@cache.example.com:6380/2', redis_key: 'release', expected_value: 'v42' },
        { type: 'redis', host: 'cache.example.com', port: 6380, tls: true, username: 'app', password: 's3cret', db: 2, key: 'release', expectedValue: 'v42' },
      ],
      [
        { type: 'postgres', target: 'postgres://watch:pw@db.example.com/shop?sslmode=require', query: 'SELECT 1', expected_value: '1' },
        { type: 'postgres', host: 'db.example.com', port: 5432, user: 'watch', password: 'pw', database: 'shop', sslmode: 'require', query: 'SELECT 1', expectedValue: '1' },
      ],
      [{ type: 'websocket', target: 'wss://example.com/socket', ws_message: 'ping', expected_value: 'pong' }, { type: 'websocket', url: 'wss://example.com/socket', message: 'ping', expectedValue: 'pong' }],
      [{ type: 'smtp', target: 'mail.example.com:587', starttls: true }, { type: 'smtp', host: 'mail.example.com', port: 587, starttls: true }],
      [{ type: 'smtp', target: 'mail.example.com' }, { type: 'smtp', host: 'mail.example.com', port: 25, starttls: false }],
    ]
    for (const [body, spec] of cases) {
      const response = await create({ name: 'server', ...body })
      expect({ body, status: response.status }).toEqual({ body, status: 201 })
      expect(await specOf((await json(response)).data.id)).toMatchObject(spec)
    }
  })

  test('bad input is a 400 naming the field, and nothing is stored', async () => {
    const before = await count()
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'redis', target: 'http://cache.example.com' }, 'target: must be host[:port] or redis://'],
      [{ type: 'redis', target: 'redis://cache.example.com/zero' }, 'target: the database after the slash must be a number'],
      [{ type: 'redis', target: '169.254.169.254' }, 'target: 169.254.169.254 is a cloud metadata address'],
      [{ type: 'redis', target: 'cache.example.com', expected_value: 'x' }, 'expected_value: name the key'],
      [{ type: 'redis', target: 'cache.example.com', redis_key: 5 }, 'redis_key must be a string'],
      [{ type: 'postgres', target: 'postgres://u@db.example.com/x?sslmode=prefer' }, 'target: sslmode must be one of disable, require, verify-full'],
      [{ type: 'postgres', target: 'db.example.com', expected_value: '1' }, 'expected_value: give the query'],
      [{ type: 'postgres', target: 'db.example.com', query: 'x'.repeat(2_001) }, 'query must be one SQL statement of at most 2000 characters'],
      [{ type: 'websocket', target: 'https://example.com/' }, 'target: must be a ws:// or wss:// URL'],
      [{ type: 'websocket', target: 'wss://u:p@example.com/' }, 'target: must not hold credentials'],
      [{ type: 'websocket', target: 'ws://example.com/', expected_value: 'x' }, 'expected_value: give the message'],
      [{ type: 'smtp', target: 'mail.example.com:70000' }, 'port'],
      [{ type: 'smtp', target: 'mail.example.com', starttls: 'yes' }, 'starttls must be true or false'],
    ]
    for (const [body, message] of cases) {
      const response = await create({ name: 'x', ...body })
      expect({ body, status: response.status }).toEqual({ body, status: 400 })
      expect((await json(response)).error).toContain(message)
    }
    expect(await count()).toBe(before)
  })
})
