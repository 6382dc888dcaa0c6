/**
 * How the audit rows of writes reach the database (one multi-row insert per turn of the event loop,
 * lib/batched-writes.ts), on the engine the tests run on, through real HTTP: concurrent writes all
 * land, one row each, committed before their answer; rows keep the order they were recorded in,
 * across the chunk sizes and the transaction of a long batch; a row the database refuses fails its
 * own request (not silently, not its neighbours'); stopping the server writes what is queued.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { loadConfig } from '../../../src/config.ts'
import { createTrigger, dropTrigger, engineOf } from '../../../src/db/engine.ts'
import { startServer } from '../../../src/main.ts'
import { listenTestContext, type ListeningContext } from '../../helpers/listening.ts'

const T0 = Date.UTC(2026, 11, 7, 12)
let listening: ListeningContext

beforeAll(async () => {
  listening = await listenTestContext({ now: T0 })
})
afterAll(async () => {
  await listening.close()
})

const rowsOf = async (teamId: number) =>
  await listening.ctx.database.db.selectFrom('audit_log').select(['id', 'action', 'object_id', 'created_at']).where('team_id', '=', teamId).orderBy('id').execute()

async function ownerWithComponents(count: number) {
  const { ctx } = listening
  const owner = await ctx.createOwner('enterprise')
  const page = await ctx.createPage(owner.key, { slug: `writes-${crypto.randomUUID().slice(0, 8)}`, name: 'Writes' })
  const components = []
  for (let i = 0; i < count; i++) components.push(await ctx.app.services.components.create(owner.user, page.id, { name: `C${i}` }))
  const patch = (id: number, name: string) =>
    fetch(`${listening.base}/user/api/v1/components/${id}`, { method: 'PATCH', headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) })
  return { owner, page, components, patch }
}

test('forty concurrent writes over HTTP: each answered 200 with its row already written, one row each', async () => {
  const { owner, components, patch } = await ownerWithComponents(40)
  const before = (await rowsOf(owner.user.id)).length
  const answers = await Promise.all(components.map((c) => patch(c.id, `${c.name} again`)))
  expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200))
  // Read right after the answers: no waiting, the rows are there.
  const rows = (await rowsOf(owner.user.id)).slice(before)
  expect(rows.map((r) => r.action)).toEqual(Array(40).fill('components.patch'))
  expect(rows.map((r) => r.object_id).sort()).toEqual(components.map((c) => String(c.id)).sort())

  // One write alone: its row is in the table when the answer arrives.
  const answer = await patch(components[0]!.id, 'alone')
  expect(answer.status).toBe(200)
  expect((await rowsOf(owner.user.id)).at(-1)).toMatchObject({ action: 'components.patch', object_id: String(components[0]!.id) })
})

test('rows recorded in one turn are written in the order recorded, with the time each was recorded', async () => {
  const { ctx } = listening
  const owner = await ctx.createOwner('enterprise')
  const { audit } = ctx.app.services
  // 100 rows: inserts of 64, 32 and 4 rows in one transaction.
  const recorded: Promise<void>[] = []
  for (let i = 0; i < 100; i++) {
    ctx.clock.set(T0 + i * 1000)
    recorded.push(
      audit.recordRequest({ owner: owner.user, method: 'PATCH', route: '/user/api/v1/components/:id', params: { id: String(i) }, body: { name: 'x' }, address: '203.0.113.7', client: null }),
    )
  }
  await Promise.all(recorded)
  const rows = await rowsOf(owner.user.id)
  expect(rows.map((r) => r.object_id)).toEqual(Array.from({ length: 100 }, (_, i) => String(i)))
  expect(rows.map((r) => Number(r.created_at))).toEqual(Array.from({ length: 100 }, (_, i) => T0 + i * 1000))
  ctx.clock.set(T0)
})

test('a row the database refuses fails its own request, not silently and not its neighbours', async () => {
  const { ctx } = listening
  const db = ctx.database.db
  const { owner, components, patch } = await ownerWithComponents(3)
  const refused = String(components[1]!.id)
  const body =
    engineOf(db) === 'sqlite'
      ? `SELECT RAISE(ABORT, 'audit row refused') WHERE NEW.object_id = '${refused}';`
      : `IF NEW.object_id = '${refused}' THEN RAISE EXCEPTION 'audit row refused'; END IF;`
  await createTrigger(db, { name: 'audit_refuse_test', timing: 'BEFORE INSERT', table: 'audit_log', body })
  try {
    const before = (await rowsOf(owner.user.id)).length
    const answers = await Promise.all(components.map((c) => patch(c.id, 'renamed')))
    expect(answers.map((a) => a.status)).toEqual([200, 500, 200])
    const rows = (await rowsOf(owner.user.id)).slice(before)
    // Concurrent requests finish their handlers in any order (PostgreSQL's pool): the set, not the order.
    expect(rows.map((r) => r.object_id).sort()).toEqual([String(components[0]!.id), String(components[2]!.id)].sort())
  } finally {
    await dropTrigger(db, 'audit_refuse_test', 'audit_log')
  }
  // Writes go on as before.
  expect((await patch(components[1]!.id, 'again')).status).toBe(200)
  expect((await rowsOf(owner.user.id)).at(-1)?.object_id).toBe(refused)
})

test('stopping the server writes the rows still queued before the database closes', async () => {
  const { ctx } = listening
  const owner = await ctx.createOwner('enterprise')
  const running = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', BASE_URL: 'http://lantern.test', ...ctx.databaseEnv }), { monitors: false, clock: ctx.clock })
  const queued = Array.from({ length: 5 }, (_, i) =>
    running.app.services.audit.recordSso({ teamId: owner.user.id, userId: owner.account.id, email: owner.account.email, action: 'sso.sign_in', objectType: 'sso', objectId: `shutdown-${i}`, fields: [], address: '203.0.113.7', client: null }),
  )
  // Stopped in the same turn the rows were queued in.
  const outcomes = Promise.allSettled(queued)
  await running.stop()
  expect((await outcomes).map((o) => o.status)).toEqual(Array(5).fill('fulfilled'))
  const rows = await ctx.database.db.selectFrom('audit_log').select('object_id').where('team_id', '=', owner.user.id).where('action', '=', 'sso.sign_in').orderBy('id').execute()
  expect(rows.map((r) => r.object_id)).toEqual(Array.from({ length: 5 }, (_, i) => `shutdown-${i}`))
})
