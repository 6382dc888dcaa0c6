/**
 * Configuration as code of the settings of pages and components (SLA targets, branding colours,
 * automatic incidents) on the real database (SQLite, and PostgreSQL with LANTERN_TEST_POSTGRES),
 * through the real services: set through the API, exported, applied on an empty team and exported
 * again the same; changed, removed with prune, refused (by the schema, a service rule, the plan's
 * limit) with a 4xx naming the key and the field and nothing applied.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { configText, parseConfigText } from '../../../src/modules/config-as-code/file.ts'
import { configJsonSchema, type ConfigFile } from '../../../src/modules/config-as-code/model.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { applyOptions, refusal } from './shared.ts'

let ctx: TestContext
let source: Owner
let pageId: number
const services = () => ctx.app.services
const slug = `set-${crypto.randomUUID().slice(0, 6)}`
const copy = `${slug}-copy`

async function auditRows(teamId: number) {
  return ctx.database.db.selectFrom('audit_log').select(['action', 'object_id', 'summary']).where('team_id', '=', teamId).where('action', 'like', 'config.%').orderBy('id').execute()
}

beforeAll(async () => {
  ctx = await createTestContext()
  const made = await ctx.createOwner('enterprise')
  source = made.user
  const call = async (method: string, path: string, json: unknown) => {
    const response = await ctx.request(path, { method, key: made.key, json })
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: { id: number } }).data
  }
  const page = await ctx.createPage(made.key, { slug, name: 'Settings page' })
  pageId = page.id
  const api = await call('POST', `/user/api/v1/status-pages/${page.id}/components`, { name: 'API', type: 'api' })
  const web = await call('POST', `/user/api/v1/status-pages/${page.id}/components`, { name: 'Web <b>ünï</b>' })
  await call('POST', `/user/api/v1/status-pages/${page.id}/components`, { name: 'Docs' })
  await call('PUT', `/user/api/v1/components/${api.id}/sla-target`, { target_percent: 99.95, period: 'quarter', degraded_counts_as: 'half', min_outage_seconds: 60, public_budget: true })
  await call('PUT', `/user/api/v1/components/${web.id}/sla-target`, { target_percent: 99.5 })
  await call('PATCH', `/user/api/v1/status-pages/${page.id}/branding`, { palette: { primary: '#AA3300', background: '#fffdf5' } })
  await call('PATCH', `/user/api/v1/status-pages/${page.id}/auto-incidents`, { auto_incidents: true, auto_resolve: true, component_ids: [web.id, api.id] })
})
afterAll(() => ctx.close())

describe('export', () => {
  test('writes each setting with every field, keyed by its page and component', async () => {
    const { file } = await services().configAsCode.export(source)
    const page = file.pages!.find((p) => p.slug === slug)!
    expect(page.branding).toEqual({ palette: { primary: '#aa3300', secondary: '#59636e', accent: '#0a66d8', background: '#fffdf5', text: '#1f2328' } })
    expect(page.automatic_incidents).toEqual({ auto_incidents: true, auto_incident_notify: false, auto_resolve: true, components: ['API', 'Web <b>ünï</b>'] })
    const [api, web, docs] = page.components!
    expect(api!.sla).toEqual({ target_percent: 99.95, period: 'quarter', degraded_counts_as: 'half', exclude_maintenance: true, min_outage_seconds: 60, breach_alerts: true, public_budget: true })
    expect(web!.sla).toMatchObject({ target_percent: 99.5, period: 'month', degraded_counts_as: 'up', public_budget: false })
    expect(docs).not.toHaveProperty('sla')
  })

  test('the JSON Schema takes the exported file and refuses a bad setting', async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true })
    addFormats(ajv)
    const validate = ajv.compile(configJsonSchema('https://lantern.test'))
    const parsed = Bun.YAML.parse(configText((await services().configAsCode.export(source)).file))
    expect(validate(parsed) ? [] : validate.errors).toEqual([])
    const page = (sla: unknown, extra: Record<string, unknown> = {}) => ({ version: 1, pages: [{ slug: 'a', name: 'A', components: [{ name: 'C', sla }], ...extra }] })
    expect(validate(page({ target_percent: 99.9 }))).toBe(true)
    expect(validate(page({ target_percent: 100 }))).toBe(false)
    expect(validate(page({ target_percent: 99.9, period: 'week' }))).toBe(false)
    expect(validate(page({}))).toBe(false)
    expect(validate(page(undefined, { branding: { palette: { primary: 'red' } } }))).toBe(false)
    expect(validate(page(undefined, { branding: { palette: { purple: '#800080' } } }))).toBe(false)
    expect(validate(page(undefined, { automatic_incidents: { auto_incidents: 'yes' } }))).toBe(false)
  })
})

describe('round trip, changes and prune', () => {
  let target: Owner
  const retargeted = async () => parseConfigText(configText((await services().configAsCode.export(source)).file).replaceAll(slug, copy))

  beforeAll(async () => {
    ;({ user: target } = await ctx.createOwner('enterprise'))
  })

  test('export → apply on an empty team → export gives the same file; applying again changes nothing', async () => {
    const file = await retargeted()
    const result = await services().configAsCode.apply(target, file, applyOptions())
    expect(result.plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}`)).toEqual([
      `create page ${copy}`, `create component ${copy}/API`, `create component ${copy}/Web <b>ünï</b>`, `create component ${copy}/Docs`,
      `create automatic_incidents ${copy}`, `create branding ${copy}`, `create sla_target ${copy}/API`, `create sla_target ${copy}/Web <b>ünï</b>`,
    ])
    expect(configText((await services().configAsCode.export(target)).file)).toBe(configText(file))
    const before = (await auditRows(target.id)).length
    expect(before).toBe(8)
    expect((await services().configAsCode.plan(target, file, { prune: true, env: {} })).changes).toEqual([])
    expect((await services().configAsCode.apply(target, file, applyOptions({ prune: true }))).plan.changes).toEqual([])
    expect((await auditRows(target.id)).length).toBe(before)
    // What the services hold, read as the API reads it.
    const owned = await services().pages.list(target)
    const id = owned.find((p) => p.slug === copy)!.id
    expect((await services().branding.branding(target, id)).palette.primary).toBe('#aa3300')
    const automation = await services().autoIncidentSettings.get(target, id)
    expect(automation.autoIncidents).toBe(true)
    expect(automation.components.filter((c) => c.enabled).map((c) => c.name).sort()).toEqual(['API', 'Web <b>ünï</b>'])
    expect((await services().sla.targets(target, id)).map((t) => t.target?.targetPpm ?? null)).toEqual([999_500, 995_000, null])
  })

  test('a change plans the fields it touches, applies them and is audited with their names', async () => {
    const file = await retargeted()
    const page = file.pages![0]!
    page.components![0]!.sla = { ...page.components![0]!.sla!, target_percent: 99.9, breach_alerts: false }
    page.components![2]!.sla = { target_percent: 98 }
    page.branding = { palette: { ...page.branding!.palette, accent: '#123456' } }
    page.automatic_incidents = { ...page.automatic_incidents!, auto_incident_notify: true, components: ['Docs'] }
    const plan = await services().configAsCode.plan(target, file, { prune: false, env: {} })
    expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}: ${c.fields.join(',')}`)).toEqual([
      `update automatic_incidents ${copy}: auto_incident_notify,components`,
      `update branding ${copy}: accent`,
      `update sla_target ${copy}/API: breach_alerts,target_percent`,
      `create sla_target ${copy}/Docs: `,
    ])
    await services().configAsCode.apply(target, file, applyOptions())
    const after = (await services().configAsCode.export(target)).file.pages![0]!
    expect(after.components!.map((c) => c.sla?.target_percent ?? null)).toEqual([99.9, 99.5, 98])
    expect(after.branding!.palette!.accent).toBe('#123456')
    expect(after.automatic_incidents).toEqual({ auto_incidents: true, auto_incident_notify: true, auto_resolve: true, components: ['Docs'] })
    const rows = await auditRows(target.id)
    expect(rows.slice(-4).map((r) => `${r.action} ${r.object_id} ${r.summary}`)).toEqual([
      `config.automatic_incidents.update ${copy} {"fields":["auto_incident_notify","components"]}`,
      `config.branding.update ${copy} {"fields":["accent"]}`,
      `config.sla_target.update ${copy}/API {"fields":["breach_alerts","target_percent"]}`,
      `config.sla_target.create ${copy}/Docs {"fields":[]}`,
    ])
  })

  test('a setting the file leaves out stays; with prune it is removed (and a pruned component takes its own)', async () => {
    const file = await services().configAsCode.export(target).then((e) => e.file)
    const page = file.pages![0]!
    delete page.branding
    delete page.automatic_incidents
    delete page.components![0]!.sla
    page.components = page.components!.filter((c) => c.name !== 'Docs')
    expect((await services().configAsCode.plan(target, file, { prune: false, env: {} })).changes).toEqual([])
    const plan = await services().configAsCode.plan(target, file, { prune: true, env: {} })
    expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}`)).toEqual([
      `delete automatic_incidents ${copy}`, `delete branding ${copy}`, `delete sla_target ${copy}/API`, `delete component ${copy}/Docs`,
    ])
    await services().configAsCode.apply(target, file, applyOptions({ prune: true }))
    const after = (await services().configAsCode.export(target)).file.pages![0]!
    expect(after).not.toHaveProperty('branding')
    expect(after).not.toHaveProperty('automatic_incidents')
    expect(after.components!.map((c) => [c.name, c.sla?.target_percent ?? null])).toEqual([['API', null], ['Web <b>ünï</b>', 99.5]])
    const id = (await services().pages.list(target)).find((p) => p.slug === copy)!.id
    const rows = await ctx.database.db.selectFrom('sla_targets').select('component_id').where('page_id', '=', id).execute()
    expect(rows.length).toBe(1)
    expect((await services().autoIncidentSettings.get(target, id)).autoIncidents).toBe(false)
    expect((await services().configAsCode.plan(target, file, { prune: true, env: {} })).changes).toEqual([])
  })
})

describe('refusals name the key and the field, and change nothing', () => {
  let owner: Owner
  const page = `${slug}-bad`
  const base = (extra: string) => `version: 1
pages:
  - slug: ${page}
    name: Bad settings
    components:
      - name: API
${extra}`

  beforeAll(async () => {
    ;({ user: owner } = await ctx.createOwner('enterprise'))
  })

  const refused = async (text: () => ConfigFile | Promise<ConfigFile>) => {
    const { status, message } = await refusal((async () => services().configAsCode.apply(owner, await text(), applyOptions()))())
    expect((await services().configAsCode.export(owner)).file.pages).toEqual([])
    expect(await auditRows(owner.id)).toEqual([])
    return `${status} ${message}`
  }

  test('by the schema: the path names the page and the component by key', async () => {
    expect(await refused(() => parseConfigText(base('        sla: { target_percent: 100 }')))).toBe(`400 pages "${page}", components "API", sla.target_percent: target_percent must be a number from 50 to 99.9999`)
    expect(await refused(() => parseConfigText(base('        sla: { target_percent: 99.9, period: week }')))).toContain(`pages "${page}", components "API", sla.period: period must be month, quarter or year`)
    expect(await refused(() => parseConfigText(base('    branding: { palette: { primary: "<script>" } }')))).toBe(`400 pages "${page}", branding.palette.primary: palette.primary must be a hex colour like #1f6feb`)
    expect(await refused(() => parseConfigText(base('    automatic_incidents: { auto_incidents: "yes" }')))).toContain(`pages "${page}", automatic_incidents.auto_incidents: auto_incidents must be true or false`)
  })

  test("by a service's rule: more than 4 decimals, text unreadable on the background, a component that is not there", async () => {
    expect(await refused(() => parseConfigText(base('        sla: { target_percent: 99.12345 }')))).toBe(`400 pages "${page}": components "API": sla: target_percent has at most 4 decimals`)
    expect(await refused(() => parseConfigText(base('        sla: { target_percent: 99.9, min_outage_seconds: 3601 }')))).toContain('min_outage_seconds')
    expect(await refused(() => parseConfigText(base('    branding: { palette: { background: "#000000" } }')))).toMatch(new RegExp(`^400 pages "${page}": branding: palette.text on palette.background has a contrast of 1.\\d+:1`))
    expect(await refused(() => parseConfigText(base('    automatic_incidents: { auto_incidents: true, components: [API, "Nope\\u0000"] }')))).toBe(
      `400 pages "${page}": automatic_incidents.components names "Nope\u0000", which is not a component of the page`,
    )
  })

  test("over the plan's limit: a 403 naming the page, the limit and the count; the page made before it is rolled back", async () => {
    const { user: free } = await ctx.createOwner('free')
    const { status, message } = await refusal(services().configAsCode.apply(free, parseConfigText(base('    automatic_incidents: { auto_incidents: true, components: [API] }')), applyOptions()))
    expect(status).toBe(403)
    expect(message).toBe(`pages "${page}": automatic_incidents: the Free plan allows automatic incidents on 0 components and you have 0 (auto_incidents limit 0, used 0)`)
    expect((await services().configAsCode.export(free)).file.pages).toEqual([])
  })

  test("moving the plan's last automatic incidents from one page to another in one file works: the page that gives them up goes first", async () => {
    const { user: pro } = await ctx.createOwner('pro')
    const names = ['A', 'B', 'C', 'D', 'E']
    const two = (onFirst: boolean) => ({
      version: 1 as const,
      pages: [`${slug}-p1`, `${slug}-p2`].map((s, i) => ({
        slug: s,
        name: s,
        components: names.map((name) => ({ name })),
        automatic_incidents: { auto_incidents: true, components: (i === 0) === onFirst ? names : [] },
      })),
    })
    await services().configAsCode.apply(pro, two(true), applyOptions())
    const moved = await services().configAsCode.apply(pro, two(false), applyOptions())
    expect(moved.plan.changes.map((c) => `${c.kind} ${c.key}`)).toEqual([`automatic_incidents ${slug}-p1`, `automatic_incidents ${slug}-p2`])
    const pages = (await services().configAsCode.export(pro)).file.pages!
    expect(pages.map((p) => p.automatic_incidents?.components ?? [])).toEqual([[], names])
  })

  test('the source team was not touched by any of this', async () => {
    const page = (await services().configAsCode.export(source)).file.pages!.find((p) => p.slug === slug)!
    expect(page.branding!.palette!.primary).toBe('#aa3300')
    expect(page.components!.map((c) => c.sla?.target_percent ?? null)).toEqual([99.95, 99.5, null])
    expect(pageId).toBeGreaterThan(0)
  })
})
