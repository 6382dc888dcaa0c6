import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string
let otherKey: string
let pageId: number
let componentId: number

const api = (path: string, init: RequestInit & { json?: unknown; key?: string } = {}) =>
  ctx.request(`/user/api/v1${path}`, { key, ...init })

beforeAll(async () => {
  ctx = await createTestContext()
  key = (await ctx.createOwner('pro')).key
  otherKey = (await ctx.createOwner('pro')).key
  pageId = (await ctx.createPage(key, { slug: 'mnt-page', name: 'M' })).id
  componentId = (await json(await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name: 'DB' } }))).data.id
})
afterAll(() => ctx.close())

describe('maintenances API', () => {
  test('a window is scheduled, then in progress while now is inside it, then completed', async () => {
    const response = await api('/maintenances', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'DB upgrade', message: 'Short', start_at: '2026-11-01T13:00:00Z', end_at: '2026-11-01T13:30:00+00:00', component_ids: [componentId] },
    })
    expect(response.status).toBe(201)
    const { data } = await json(response)
    expect(data).toMatchObject({ title: 'DB upgrade', status: 'scheduled', start_at: '2026-11-01T13:00:00.000Z', end_at: '2026-11-01T13:30:00.000Z', components: [{ id: componentId, name: 'DB' }] })
    ctx.clock.set(Date.UTC(2026, 10, 1, 13, 0))
    expect((await json(await api(`/maintenances/${data.id}`))).data.status).toBe('in_progress')
    expect((await ctx.app.services.pageStatus.snapshot(pageId)).activeMaintenances.map((m) => m.id)).toEqual([data.id])
    ctx.clock.set(Date.UTC(2026, 10, 1, 13, 30))
    expect((await json(await api(`/maintenances/${data.id}`))).data.status).toBe('completed')
    expect((await ctx.app.services.pageStatus.snapshot(pageId)).activeMaintenances).toEqual([])
    ctx.clock.set(Date.UTC(2026, 10, 1, 12, 0))
  })

  test('validation: required fields, RFC 3339, order of times, components of the page', async () => {
    const base = { status_page_id: pageId, title: 'T', start_at: '2026-11-02T00:00:00Z', end_at: '2026-11-02T01:00:00Z' }
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...base, title: undefined }, /title/],
      [{ ...base, start_at: undefined }, /start_at/],
      [{ ...base, end_at: '2026-11-02' }, /end_at must be an RFC 3339/],
      [{ ...base, end_at: '2026-11-01T23:00:00Z' }, /end_at must be after start_at/],
      [{ ...base, end_at: base.start_at }, /end_at must be after start_at/],
      [{ ...base, end_at: '2028-11-02T00:00:00Z' }, /366 days/],
      [{ ...base, component_ids: [424242] }, /not a component/],
      [{ ...base, status_page_id: undefined }, /status_page_id/],
    ]
    for (const [body, message] of cases) {
      const response = await api('/maintenances', { method: 'POST', json: body })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(message)
    }
  })

  test('patch, list by page, ownership and delete', async () => {
    const { data } = await json(await api('/maintenances', { method: 'POST', json: { status_page_id: pageId, title: 'W', start_at: '2026-11-03T00:00:00Z', end_at: '2026-11-03T02:00:00Z' } }))
    const patched = await api(`/maintenances/${data.id}`, { method: 'PATCH', json: { end_at: '2026-11-03T03:00:00Z', title: '<b>W</b>' } })
    expect((await json(patched)).data).toMatchObject({ end_at: '2026-11-03T03:00:00.000Z', title: '<b>W</b>' })
    const bad = await api(`/maintenances/${data.id}`, { method: 'PATCH', json: { start_at: '2026-11-04T00:00:00Z' } })
    expect(bad.status).toBe(400)
    expect((await json(await api(`/maintenances?status_page_id=${pageId}`))).meta.count).toBeGreaterThanOrEqual(2)
    expect((await api(`/maintenances/${data.id}`, { key: otherKey })).status).toBe(404)
    expect((await api(`/maintenances/${data.id}`, { method: 'PATCH', key: otherKey, json: { title: 'x' } })).status).toBe(404)
    expect((await api(`/maintenances?status_page_id=${pageId}`, { key: otherKey })).status).toBe(404)
    expect((await api('/maintenances', { method: 'POST', key: otherKey, json: { status_page_id: pageId, title: 'x', start_at: '2026-11-03T00:00:00Z', end_at: '2026-11-03T02:00:00Z' } })).status).toBe(404)
    expect((await api(`/maintenances/${data.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await api(`/maintenances/${data.id}`)).status).toBe(404)
  })

  test('many scheduled windows never hide the one in progress', async () => {
    const page = (await ctx.createPage(key, { slug: 'mnt-many', name: 'Many' })).id
    for (let i = 0; i < 60; i++) {
      const start = Date.UTC(2027, 0, 1 + i)
      await api('/maintenances', { method: 'POST', json: { status_page_id: page, title: `Future ${i}`, start_at: new Date(start).toISOString(), end_at: new Date(start + 3600_000).toISOString() } })
    }
    await api('/maintenances', { method: 'POST', json: { status_page_id: page, title: 'Now', start_at: new Date(Date.UTC(2026, 10, 1, 11)).toISOString(), end_at: new Date(Date.UTC(2026, 10, 1, 13)).toISOString() } })
    const snapshot = await ctx.app.services.pageStatus.snapshot(page)
    expect(snapshot.maintenances[0]!.title).toBe('Now')
    expect(snapshot.maintenances[1]!.title).toBe('Future 0')
    expect(snapshot.overall).toBe('under_maintenance')
  })
})
