import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { fillTemplate, componentPhrase } from '../../../src/modules/incidents/template.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string
let otherKey: string
let pageId: number
let apiId: number
let webId: number
let otherPageComponent: number

const api = (path: string, init: RequestInit & { json?: unknown; key?: string } = {}) =>
  ctx.request(`/user/api/v1${path}`, { key, ...init })

beforeAll(async () => {
  ctx = await createTestContext()
  key = (await ctx.createOwner('growth')).key
  otherKey = (await ctx.createOwner('growth')).key
  pageId = (await ctx.createPage(key, { slug: 'inc-page', name: 'Inc <Page>' })).id
  const add = async (k: string, page: number, name: string) =>
    (await json(await ctx.request(`/user/api/v1/status-pages/${page}/components`, { method: 'POST', key: k, json: { name } }))).data.id as number
  apiId = await add(key, pageId, 'API')
  webId = await add(key, pageId, 'Website')
  const otherPage = (await ctx.createPage(otherKey, { slug: 'inc-other', name: 'Other' })).id
  otherPageComponent = await add(otherKey, otherPage, 'Theirs')
})
afterAll(() => ctx.close())

describe('incidents API', () => {
  test('create with status_page_id: defaults to investigating, page-wide, first timeline entry', async () => {
    const response = await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'Slow', message: 'Looking' } })
    expect(response.status).toBe(201)
    const { data } = await json(response)
    expect(data).toMatchObject({ page_id: pageId, title: 'Slow', state: 'investigating', incident_state_id: '1', resolved_at: null, components: [] })
    expect(data.started_at).toBe('2026-11-01T12:00:00.000Z')
    expect(data.updates).toEqual([{ id: expect.any(Number), state: 'investigating', message: 'Looking', at: '2026-11-01T12:00:00.000Z' }])
  })

  test('create with component_id takes the page from the component', async () => {
    const { data } = await json(await api('/incidents', { method: 'POST', json: { component_id: apiId, title: 'API down', incident_state_id: '2' } }))
    expect(data.page_id).toBe(pageId)
    expect(data.state).toBe('identified')
    expect(data.components).toEqual([{ id: apiId, name: 'API' }])
  })

  test('incident_state_id aliases 1..4 (string or number) map to the four states', async () => {
    const states = []
    for (const id of ['1', '2', '3', '4', 3]) {
      const { data } = await json(await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: `s${id}`, incident_state_id: id } }))
      states.push(data.state)
      if (data.state === 'resolved') expect(data.resolved_at).toBe('2026-11-01T12:00:00.000Z')
      await api(`/incidents/${data.id}`, { method: 'DELETE' })
    }
    expect(states).toEqual(['investigating', 'identified', 'monitoring', 'resolved', 'monitoring'])
  })

  test('bad input is 400 naming the field and creates nothing', async () => {
    const before = (await json(await api('/incidents'))).meta.count
    const cases: Array<[unknown, RegExp]> = [
      [{ status_page_id: pageId }, /title/],
      [{ status_page_id: pageId, title: '   ' }, /title must not be empty/],
      [{ status_page_id: pageId, title: 'x'.repeat(201) }, /title must be a string of at most 200 characters/],
      [{ status_page_id: pageId, title: 'a\nb' }, /title must not contain control/],
      [{ title: 'no page' }, /status_page_id or component_id/],
      [{ status_page_id: pageId, title: 't', incident_state_id: '5' }, /incident_state_id/],
      [{ status_page_id: pageId, title: 't', incident_state_id: '' }, /incident_state_id/],
      [{ status_page_id: pageId, title: 't', state: 'fixed' }, /state must be one of/],
      [{ status_page_id: pageId, title: 't', state: 'resolved', incident_state_id: '1' }, /disagree/],
      [{ status_page_id: pageId, title: 't', component_ids: [otherPageComponent] }, /not a component of this page/],
      [{ status_page_id: pageId, title: 't', component_ids: [999999] }, /not a component of this page/],
      [{ status_page_id: pageId, title: 't', started_at: 'yesterday' }, /started_at/],
      [{ status_page_id: pageId, title: 't', started_at: '2030-01-01T00:00:00Z' }, /future/],
      [{ status_page_id: 'x', title: 't' }, /status_page_id/],
      [{ status_page_id: pageId, title: 't', component_ids: [1.5] }, /component_ids must contain positive integer ids/],
      [{ status_page_id: pageId, title: 'a\ud800b' }, /title must be valid Unicode text/],
      [[], /title is required|body/],
    ]
    for (const [body, message] of cases) {
      const response = await api('/incidents', { method: 'POST', json: body })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(message)
    }
    expect((await json(await api('/incidents'))).meta.count).toBe(before)
  })

  test("someone else's page, component or incident is 404; no key is 401", async () => {
    expect((await api('/incidents', { method: 'POST', json: { component_id: otherPageComponent, title: 'x' } })).status).toBe(404)
    const { data } = await json(await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'mine' } }))
    for (const [path, method, body] of [
      [`/incidents/${data.id}`, 'GET'],
      [`/incidents/${data.id}`, 'PATCH', { title: 'theirs' }],
      [`/incidents/${data.id}/updates`, 'POST', { message: 'hi' }],
      [`/incidents/${data.id}`, 'DELETE'],
    ] as const) {
      expect((await api(path, { method, key: otherKey, json: body })).status).toBe(404)
    }
    expect((await api('/incidents', { method: 'POST', key: otherKey, json: { status_page_id: pageId, title: 'x' } })).status).toBe(404)
    expect((await ctx.request('/user/api/v1/incidents')).status).toBe(401)
    expect((await json(await api('/incidents', { key: otherKey }))).data).toEqual([])
  })

  test('updates build a timeline; resolving sets resolved_at, reopening clears it', async () => {
    const { data: created } = await json(await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'Timeline' } }))
    ctx.clock.advance(60_000)
    let response = await api(`/incidents/${created.id}/updates`, { method: 'POST', json: { message: 'Found it', incident_state_id: '2' } })
    expect(response.status).toBe(201)
    ctx.clock.advance(60_000)
    await api(`/incidents/${created.id}/updates`, { method: 'POST', json: { message: 'Still watching' } })
    ctx.clock.advance(60_000)
    response = await api(`/incidents/${created.id}`, { method: 'PATCH', json: { state: 'resolved', message: 'Fixed', component_ids: [webId] } })
    const { data } = await json(response)
    expect(data.state).toBe('resolved')
    expect(data.resolved_at).toBe('2026-11-01T12:03:00.000Z')
    expect(data.components).toEqual([{ id: webId, name: 'Website' }])
    expect(data.updates.map((u: { state: string; message: string }) => [u.state, u.message])).toEqual([
      ['investigating', ''],
      ['identified', 'Found it'],
      ['identified', 'Still watching'],
      ['resolved', 'Fixed'],
    ])
    const reopened = (await json(await api(`/incidents/${created.id}`, { method: 'PATCH', json: { incident_state_id: 1 } }))).data
    expect(reopened.resolved_at).toBeNull()
    // Title-only change adds no timeline entry.
    const renamed = (await json(await api(`/incidents/${created.id}`, { method: 'PATCH', json: { title: 'Renamed' } }))).data
    expect(renamed.title).toBe('Renamed')
    expect(renamed.updates).toHaveLength(5)
    const empty = await api(`/incidents/${created.id}/updates`, { method: 'POST', json: {} })
    expect(empty.status).toBe(400)
    expect((await json(empty)).error).toBe('message or incident_state_id is required')
  })

  test('list filters by page and state; limit is validated', async () => {
    const all = await json(await api(`/incidents?status_page_id=${pageId}`))
    expect(all.meta.count).toBeGreaterThan(0)
    const identified = await json(await api(`/incidents?status_page_id=${pageId}&state=identified`))
    expect(identified.data.every((i: { state: string }) => i.state === 'identified')).toBe(true)
    expect(identified.meta.count).toBeGreaterThan(0)
    expect((await api('/incidents?state=broken')).status).toBe(400)
    expect((await api('/incidents?limit=0')).status).toBe(400)
    expect((await api('/incidents?limit=201')).status).toBe(400)
    expect((await json(await api('/incidents?limit=1'))).data).toHaveLength(1)
    expect((await api('/incidents?status_page_id=99999')).status).toBe(404)
  })

  test('markup in titles and messages is stored as text', async () => {
    const title = '<script>alert(1)</script> & "quotes"'
    const { data } = await json(await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title, message: '<img src=x onerror=alert(1)>' } }))
    expect(data.title).toBe(title)
    expect(data.updates[0].message).toBe('<img src=x onerror=alert(1)>')
  })
})

describe('incident templates', () => {
  test('plain substitution of {{component}} and {{page}}, one pass, nothing executed', () => {
    expect(fillTemplate('{{component}} on {{ page }} ({{other}}) ${1+1}', { component: 'API', page: 'P' })).toBe('API on P ({{other}}) ${1+1}')
    expect(fillTemplate('{{component}}', { component: '{{page}}', page: 'X' })).toBe('{{page}}')
    expect(componentPhrase([])).toBe('all systems')
    expect(componentPhrase(['A', 'B', 'C'])).toBe('A, B and C')
  })

  test('CRUD and creating an incident from a template', async () => {
    let response = await api('/incident-templates', {
      method: 'POST',
      json: { name: 'Outage', title: '{{component}} is down', message: 'We are looking into {{component}} on {{page}}. {{unknown}}' },
    })
    expect(response.status).toBe(201)
    const template = (await json(response)).data
    expect((await json(await api('/incident-templates'))).meta.count).toBe(1)
    response = await api(`/incident-templates/${template.id}/incidents`, {
      method: 'POST',
      json: { status_page_id: pageId, component_ids: [apiId, webId], incident_state_id: '2' },
    })
    expect(response.status).toBe(201)
    const incident = (await json(response)).data
    expect(incident.title).toBe('API and Website is down')
    expect(incident.state).toBe('identified')
    expect(incident.updates[0].message).toBe('We are looking into API and Website on Inc <Page>. {{unknown}}')
    const pageWide = (await json(await api(`/incident-templates/${template.id}/incidents`, { method: 'POST', json: { status_page_id: pageId } }))).data
    expect(pageWide.title).toBe('all systems is down')
    const viaComponent = (await json(await api(`/incident-templates/${template.id}/incidents`, { method: 'POST', json: { component_id: webId } }))).data
    expect(viaComponent.title).toBe('Website is down')

    const patched = (await json(await api(`/incident-templates/${template.id}`, { method: 'PATCH', json: { title: 'On {{page}}' } }))).data
    expect(patched.title).toBe('On {{page}}')
    expect((await api(`/incident-templates/${template.id}`, { key: otherKey })).status).toBe(404)
    expect((await api(`/incident-templates/${template.id}/incidents`, { method: 'POST', key: otherKey, json: { status_page_id: pageId } })).status).toBe(404)
    expect((await api('/incident-templates', { method: 'POST', json: { name: 'x' } })).status).toBe(400)
    expect((await api('/incident-templates', { method: 'POST', json: { title: 'x' } })).status).toBe(400)
    expect((await api(`/incident-templates/${template.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await api(`/incident-templates/${template.id}`)).status).toBe(404)
  })
})

describe('opening from a template with the wording changed', () => {
  test('title and message given with the template win over its own and get the same substitution', async () => {
    const template = (await json(await api('/incident-templates', { method: 'POST', json: { name: 'Down', title: '{{component}} down', message: 'Looking into {{component}}' } }))).data
    const edited = await api(`/incident-templates/${template.id}/incidents`, {
      method: 'POST',
      json: { status_page_id: pageId, component_ids: [apiId], title: '{{component}} is slow on {{page}}', message: 'Edited: {{component}}' },
    })
    expect(edited.status).toBe(201)
    const { data } = await json(edited)
    expect({ title: data.title, message: data.updates[0].message }).toEqual({ title: 'API is slow on Inc <Page>', message: 'Edited: API' })
    // Without them, the template's own wording (as before).
    const plain = (await json(await api(`/incident-templates/${template.id}/incidents`, { method: 'POST', json: { status_page_id: pageId, component_ids: [webId] } }))).data
    expect({ title: plain.title, message: plain.updates[0].message }).toEqual({ title: 'Website down', message: 'Looking into Website' })
    // The same rules as a blank incident: an empty title is refused.
    expect((await api(`/incident-templates/${template.id}/incidents`, { method: 'POST', json: { status_page_id: pageId, title: '  ' } })).status).toBe(400)
  })
})

describe('templates with long substitutions', () => {
  test('a filled title cut at the limit never ends in half an emoji', async () => {
    const emojiPage = (await ctx.createPage(key, { slug: 'inc-emoji', name: '\u{1F525}'.repeat(40) })).id
    // 191 + 8 = 199 characters; filled with the page name, the cut at 200 falls inside an emoji.
    const template = (await json(await api('/incident-templates', { method: 'POST', json: { name: 'Long', title: `${'x'.repeat(191)}{{page}}`, message: '{{page}}' } }))).data
    const response = await api(`/incident-templates/${template.id}/incidents`, { method: 'POST', json: { status_page_id: emojiPage } })
    expect(response.status).toBe(201)
    const { data } = await json(response)
    expect(data.title).toBe(`${'x'.repeat(191)}${'\u{1F525}'.repeat(4)}`)
    expect(data.title.isWellFormed()).toBe(true)
  })
})
