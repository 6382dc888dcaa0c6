/**
 * The audit log's retention: rows older than the plan's days (plans/roles.ts) go, in batches, with
 * the clock injected; younger rows and other teams' stay; a deleted team's rows keep the longest
 * retention. The job is in the leader's table.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { backgroundJobs } from '../../../src/jobs.ts'
import { auditRetentionDays } from '../../../src/modules/plans/roles.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

const DAY = 86_400_000
const NOW = Date.UTC(2026, 11, 7, 12)
let ctx: TestContext

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
})
afterAll(async () => {
  await ctx.close()
})

const rowAt = (teamId: number, at: number, action: string) => ({
  team_id: teamId,
  actor_kind: 'system' as const,
  actor_user_id: null,
  actor_label: 'test',
  page_id: null,
  action,
  object_type: '/x',
  object_id: null,
  summary: '{"fields":[]}',
  address: null,
  client: null,
  created_at: at,
})

const actionsOf = async (teamId: number) =>
  (await ctx.database.db.selectFrom('audit_log').select('action').where('team_id', '=', teamId).orderBy('id').execute()).map((r) => r.action)

test('the plan matrix gives every plan a retention, higher plans longer', () => {
  expect(auditRetentionDays('free')).toBe(7)
  expect(auditRetentionDays('pro')).toBe(30)
  expect(auditRetentionDays('growth')).toBe(90)
  expect(auditRetentionDays('business')).toBe(365)
  expect(auditRetentionDays('enterprise')).toBe(365)
})

test('rows past their team plan retention are pruned in batches; the rest stay', async () => {
  ctx.clock.set(NOW)
  const free = await ctx.createOwner('free')
  const pro = await ctx.createOwner('pro')
  const business = await ctx.createOwner('business')
  const gone = 9_000_000 + Math.floor(Math.random() * 1_000_000)
  const old = Array.from({ length: 7 }, (_, i) => rowAt(free.user.id, NOW - 8 * DAY - i, `free.old${i}`))
  await ctx.database.db
    .insertInto('audit_log')
    .values([
      ...old,
      rowAt(free.user.id, NOW - 6 * DAY, 'free.young'),
      rowAt(pro.user.id, NOW - 8 * DAY, 'pro.young'),
      rowAt(pro.user.id, NOW - 31 * DAY, 'pro.old'),
      rowAt(business.user.id, NOW - 300 * DAY, 'business.young'),
      rowAt(business.user.id, NOW - 366 * DAY, 'business.old'),
      rowAt(gone, NOW - 300 * DAY, 'gone.young'),
      rowAt(gone, NOW - 366 * DAY, 'gone.old'),
    ])
    .execute()

  // Batches of 3: the 7 old rows of the free team take three deletes, and all go.
  const deleted = await ctx.app.services.audit.prune(3)
  expect(deleted).toBeGreaterThanOrEqual(10)
  expect(await actionsOf(free.user.id)).toEqual(['free.young'])
  expect(await actionsOf(pro.user.id)).toEqual(['pro.young'])
  expect(await actionsOf(business.user.id)).toEqual(['business.young'])
  expect(await actionsOf(gone)).toEqual(['gone.young'])

  // A day later by the clock, the free team's young row is past its 7 days too.
  ctx.clock.set(NOW + 2 * DAY)
  await ctx.app.services.audit.prune()
  expect(await actionsOf(free.user.id)).toEqual([])
  expect(await actionsOf(pro.user.id)).toEqual(['pro.young'])
  // Nothing left to prune: a second run deletes nothing.
  expect(await ctx.app.services.audit.prune()).toBe(0)
})

test('the pruning runs as a leader-only job', () => {
  const job = backgroundJobs(ctx.app.services).find((j) => j.name === 'pruning audit log')
  expect(job).toMatchObject({ leaderOnly: true, every: 3_600_000 })
})
