/**
 * A partial outage in the SLA report counts as degraded time: the policy's `degraded_counts_as`
 * (up, half, down) decides for it, and a maintenance window takes its time out like any other.
 * Real app, real SQLite, history imported through the API, a fixed clock.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { createComponent, importHistory, slug } from '../analytics/helpers.ts'

let ctx: TestContext
let key: string
let pageId: number
let partial: number
let mixed: number
const NOW = Date.UTC(2026, 11, 1, 12, 0, 0)
const NOVEMBER = '?from=2026-11-01&to=2026-11-30'

const setTarget = async (componentId: number, body: Record<string, unknown>) => {
  const response = await ctx.request(`/user/api/v1/components/${componentId}/sla-target`, { method: 'PUT', key, json: body })
  expect(response.status).toBe(200)
}
const componentOf = async (name: string) => {
  const response = await ctx.request(`/user/api/v1/status-pages/${pageId}/sla${NOVEMBER}`, { key })
  expect(response.status).toBe(200)
  return (await json(response)).data.components.find((c: { name: string }) => c.name === name)
}

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  ;({ key } = await ctx.createOwner('free'))
  pageId = (await ctx.createPage(key, { slug: slug('sla-partial'), name: 'SLA partial' })).id
  partial = await createComponent(ctx, key, pageId, 'Partial')
  mixed = await createComponent(ctx, key, pageId, 'Mixed')
  // Partial: 2 h in partial outage on Nov 7.
  await importHistory(ctx, key, partial, [
    { status: 'up', at: '2026-10-20T00:00:00Z' },
    { status: 'partial', at: '2026-11-07T08:00:00Z' },
    { status: 'up', at: '2026-11-07T10:00:00Z' },
  ])
  // Mixed: 1 h partial, then 1 h down, then 1 h degraded on Nov 12; a window covers the partial hour.
  await importHistory(ctx, key, mixed, [
    { status: 'up', at: '2026-10-20T00:00:00Z' },
    { status: 'partial', at: '2026-11-12T08:00:00Z' },
    { status: 'down', at: '2026-11-12T09:00:00Z' },
    { status: 'degraded', at: '2026-11-12T10:00:00Z' },
    { status: 'up', at: '2026-11-12T11:00:00Z' },
  ])
  const window = await ctx.request('/user/api/v1/maintenances', {
    method: 'POST',
    key,
    json: { status_page_id: pageId, title: 'Planned', start_at: '2026-11-12T08:00:00Z', end_at: '2026-11-12T09:00:00Z', component_ids: [mixed] },
  })
  expect(window.status).toBe(201)
})
afterAll(() => ctx.close())

test('partial outage time counts as the policy counts degraded time: up, half, down', async () => {
  await setTarget(partial, { target_percent: 99, degraded_counts_as: 'up' })
  expect(await componentOf('Partial')).toMatchObject({ downtime_seconds: 0, degraded_seconds: 7200, outages: { count: 0 } })
  await setTarget(partial, { target_percent: 99, degraded_counts_as: 'half' })
  expect((await componentOf('Partial')).downtime_seconds).toBe(3600)
  await setTarget(partial, { target_percent: 99, degraded_counts_as: 'down' })
  expect((await componentOf('Partial')).downtime_seconds).toBe(7200)
})

test('a maintenance window takes partial outage time out; down time stays down', async () => {
  await setTarget(mixed, { target_percent: 99, degraded_counts_as: 'down', exclude_maintenance: true })
  const c = await componentOf('Mixed')
  // The partial hour is inside the window; the down and degraded hours are counted.
  expect(c.degraded_seconds).toBe(3600)
  expect(c.downtime_seconds).toBe(7200)
  await setTarget(mixed, { target_percent: 99, degraded_counts_as: 'down', exclude_maintenance: false })
  expect((await componentOf('Mixed')).downtime_seconds).toBe(3 * 3600)
})
