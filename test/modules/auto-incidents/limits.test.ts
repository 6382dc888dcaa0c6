/**
 * The plan limit of automatic incidents (components with them on, over all the owner's pages:
 * free 0, pro 5, growth 20, business and up unlimited), the downgrade rule (the oldest N keep
 * working, the rest pause and say so), and the API's validation and ownership.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Plan } from '../../../src/modules/plans/matrix.ts'
import { json } from '../../helpers/context.ts'
import { startRig, type Rig } from './driving.ts'

let rig: Rig

beforeAll(async () => {
  rig = await startRig()
})
afterAll(async () => {
  await rig.close()
})

const settingsOf = async (pageId: number, key: string) => (await json(await rig.ctx.request(`/user/api/v1/status-pages/${pageId}/auto-incidents`, { key }))).data

async function ownerWithComponents(plan: Plan, count: number) {
  const { user, key } = await rig.ctx.createOwner(plan)
  const pageId = (await rig.ctx.createPage(key, { name: `${plan} page`, slug: `lim-${plan.replace("_", "-")}-${crypto.randomUUID().slice(0, 6)}` })).id
  const ids: number[] = []
  for (let i = 0; i < count; i++) {
    const response = await rig.ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name: `C${i + 1}` } })
    ids.push((await json(response)).data.id)
  }
  return { user, key, pageId, ids }
}

describe('plan limits', () => {
  for (const [plan, limit] of [['free', 0], ['pro', 5], ['growth', 20]] as const) {
    test(`${plan}: ${limit} components may have automatic incidents; one more is a 403 naming the limit and the count, and nothing changes`, async () => {
      const { key, pageId, ids } = await ownerWithComponents(plan, limit + 1)
      if (limit > 0) {
        const ok = await rig.automation(pageId, { auto_incidents: true, component_ids: ids.slice(0, limit) }, key)
        expect(ok.status).toBe(200)
        expect((await json(ok)).data.plan).toEqual({ name: plan, limit, used: limit })
      }
      const refused = await rig.automation(pageId, { auto_incident_notify: true, component_ids: ids }, key)
      expect(refused.status).toBe(403)
      const message = (await json(refused)).error as string
      expect(message).toContain(`allows automatic incidents on ${limit} component`)
      expect(message).toContain(`you have ${limit}`)
      const after = await settingsOf(pageId, key)
      expect(after.plan.used).toBe(limit)
      expect(after.auto_incident_notify).toBe(false)
      expect(after.components.filter((c: any) => c.enabled)).toHaveLength(limit)
    })
  }

  test('the limit counts over all pages of the owner', async () => {
    const { key, ids } = await ownerWithComponents('pro', 5)
    const first = (await json(await rig.ctx.request('/user/api/v1/status-pages', { key }))).data[0].id
    expect((await rig.automation(first, { component_ids: ids }, key)).status).toBe(200)
    const second = (await rig.ctx.createPage(key, { name: 'Second', slug: `lim-second-${crypto.randomUUID().slice(0, 6)}` })).id
    const extra = (await json(await rig.ctx.request(`/user/api/v1/status-pages/${second}/components`, { method: 'POST', key, json: { name: 'Extra' } }))).data.id
    const refused = await rig.automation(second, { component_ids: [extra] }, key)
    expect(refused.status).toBe(403)
    expect((await json(refused)).error).toContain('on 5 components and you have 5')
  })

  test('business, oss_hero and enterprise have no limit', async () => {
    for (const plan of ['business', 'oss_hero', 'enterprise'] as const) {
      const { key, pageId, ids } = await ownerWithComponents(plan, 25)
      const response = await rig.automation(pageId, { auto_incidents: true, component_ids: ids }, key)
      expect(response.status).toBe(200)
      const data = (await json(response)).data
      expect(data.plan).toEqual({ name: plan, limit: null, used: 25 })
      expect(data.components.every((c: any) => c.active)).toBe(true)
    }
  })
})

describe('after a downgrade', () => {
  test('the oldest N keep working, the rest pause (plan_limit), and only the working ones open incidents', async () => {
    const { user, key, pageId, ids } = await ownerWithComponents('enterprise', 7)
    // Turned on one at a time, a minute apart: the order is the age.
    for (let n = 1; n <= ids.length; n++) {
      expect((await rig.automation(pageId, { auto_incidents: true, auto_resolve: true, component_ids: ids.slice(0, n) }, key)).status).toBe(200)
      rig.ctx.clock.advance(60_000)
    }
    await rig.ctx.app.services.accounts.setPlan(user.email, 'pro')
    const data = await settingsOf(pageId, key)
    expect(data.plan).toEqual({ name: 'pro', limit: 5, used: 7 })
    expect(data.components.map((c: any) => [c.name, c.active, c.paused_reason])).toEqual([
      ['C1', true, null],
      ['C2', true, null],
      ['C3', true, null],
      ['C4', true, null],
      ['C5', true, null],
      ['C6', false, 'plan_limit'],
      ['C7', false, 'plan_limit'],
    ])
    // Turning on another is refused; turning one off is not, and the next in age takes its place.
    const extra = (await json(await rig.ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name: 'C8' } }))).data.id
    expect((await rig.automation(pageId, { component_ids: [...ids, extra] }, key)).status).toBe(403)

    // Drive the working C1 and the paused C7 down: only C1 gets an incident.
    const createMonitor = async (componentId: number, path: string) => {
      const response = await rig.ctx.request('/user/api/v1/monitors', {
        method: 'POST',
        key,
        json: { name: path, type: 'http', target: rig.target.url(path), interval_seconds: 60, retries: 0, component_id: componentId },
      })
      expect(response.status).toBe(201)
    }
    const tag = crypto.randomUUID().slice(0, 6)
    await createMonitor(ids[0]!, `/c1-${tag}`)
    await createMonitor(ids[6]!, `/c7-${tag}`)
    await rig.step()
    rig.target.set(`/c1-${tag}`, 'down')
    rig.target.set(`/c7-${tag}`, 'down')
    await rig.step(2)
    const incidents = (await json(await rig.ctx.request(`/user/api/v1/incidents?status_page_id=${pageId}`, { key }))).data
    expect(incidents.map((i: any) => i.title)).toEqual(['C1 is experiencing issues'])

    // C2 off: C6 is among the oldest five again.
    expect((await rig.automation(pageId, { component_ids: ids.filter((id) => id !== ids[1]) }, key)).status).toBe(200)
    const later = await settingsOf(pageId, key)
    expect(later.components.find((c: any) => c.name === 'C6')).toMatchObject({ active: true, paused_reason: null })
    expect(later.components.find((c: any) => c.name === 'C7')).toMatchObject({ active: false, paused_reason: 'plan_limit' })
  })

  test('with the page switch off, chosen components say page_off', async () => {
    const { key, pageId, ids } = await ownerWithComponents('pro', 1)
    const data = (await json(await rig.automation(pageId, { auto_incidents: false, component_ids: ids }, key))).data
    expect(data.components[0]).toMatchObject({ enabled: true, active: false, paused_reason: 'page_off' })
  })
})

describe('validation and ownership', () => {
  test('bad input is a 400 and changes nothing; another owner\'s page is a 404', async () => {
    const { key, pageId, ids } = await ownerWithComponents('pro', 1)
    const other = await ownerWithComponents('pro', 1)
    for (const body of [{ auto_incidents: 'yes' }, { component_ids: [0] }, { component_ids: 'all' }, { component_ids: [other.ids[0]] }]) {
      const response = await rig.automation(pageId, body, key)
      expect(response.status).toBe(400)
      expect((await json(response)).error).toBeString()
    }
    expect((await rig.automation(other.pageId, { auto_incidents: true, component_ids: other.ids }, key)).status).toBe(404)
    expect((await rig.ctx.request(`/user/api/v1/status-pages/${other.pageId}/auto-incidents`, { key })).status).toBe(404)
    const mine = await settingsOf(pageId, key)
    expect(mine.plan.used).toBe(0)
    expect(mine.auto_incidents).toBe(false)
    expect((await settingsOf(other.pageId, other.key)).plan.used).toBe(0)
    expect(ids).toHaveLength(1)
  })
})
