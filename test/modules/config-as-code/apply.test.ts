/**
 * Configuration as code against the real database (SQLite, and PostgreSQL with LANTERN_TEST_POSTGRES):
 * export → apply on an empty team → export gives the same file; an applied file plans no change and
 * applies as no change; a bad monitor in the middle applies nothing; --prune deletes only what the
 * file no longer names; every change is an audit row; secrets never reach the exported text.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { configText, parseConfigText } from '../../../src/modules/config-as-code/file.ts'
import { configJsonSchema } from '../../../src/modules/config-as-code/model.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { applyOptions } from './shared.ts'

let ctx: TestContext
let source: Owner
let sourceKey: string
const services = () => ctx.app.services
const slug = `cfg-${crypto.randomUUID().slice(0, 6)}`

const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/very-secret-token-1234'
const SIGNING = 'whsec_' + btoa('0123456789abcdef0123456789abcdef')
const REDIS = 'redis://monitor:hunter2-password@127.0.0.1:6390/0'

async function auditRows(teamId: number) {
  return ctx.database.db.selectFrom('audit_log').select(['action', 'object_id', 'summary', 'actor_kind']).where('team_id', '=', teamId).where('action', 'like', 'config.%').orderBy('id').execute()
}

beforeAll(async () => {
  ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
  const made = await ctx.createOwner('enterprise')
  source = made.user
  sourceKey = made.key
  // The source team is built through the API, as a person would.
  const page = await ctx.createPage(sourceKey, { slug, name: 'Acme <Status>', language: 'de', time_zone: 'Europe/Berlin' })
  const post = async (path: string, json: unknown) => {
    const response = await ctx.request(path, { method: 'POST', key: sourceKey, json })
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: { id: number } }).data
  }
  const api = await post(`/user/api/v1/status-pages/${page.id}/components`, { name: 'API', type: 'api', group: 'Core' })
  await post(`/user/api/v1/status-pages/${page.id}/components`, { name: 'Web — ünïcode', group: 'Core' })
  await post(`/user/api/v1/status-pages/${page.id}/components`, { name: 'DNS', type: 'dns' })
  const slack = await post('/user/api/v1/notification-channels', { type: 'slack', name: 'Ops Slack', url: SLACK_URL, all_pages: false, page_ids: [page.id] })
  await post('/user/api/v1/notification-channels', { type: 'webhook', name: 'Hook', url: 'http://127.0.0.1:9/hook', signing_secret: SIGNING, events: ['incident.opened', 'monitor.down'] })
  const health = await post('/user/api/v1/monitors', { name: 'API health', type: 'http', target: 'http://127.0.0.1:9/health', interval_seconds: 30, component_id: api.id, headers: { Authorization: 'Bearer header-secret-value', Accept: 'application/json' } })
  await post('/user/api/v1/monitors', { name: 'Cache', type: 'redis', target: REDIS, parents: [health.id], enabled: false })
  await post('/user/api/v1/monitors', { name: 'Nightly job', type: 'push', interval_seconds: 3600, status_page_id: page.id })
  const alerts = await ctx.request(`/user/api/v1/monitors/${health.id}/alerts`, { method: 'PATCH', key: sourceKey, json: { channel_ids: [slack.id] } })
  expect(alerts.status).toBe(200)
})
afterAll(() => ctx.close())

describe('export', () => {
  test('names every object by its key and writes secrets as references, never values', async () => {
    const { file, secrets } = await services().configAsCode.export(source)
    const text = configText(file)
    for (const secret of [SLACK_URL, SIGNING, 'hunter2-password', 'header-secret-value']) expect(text).not.toContain(secret)
    expect(text).toContain('${LANTERN_CHANNEL_OPS_SLACK_URL}')
    expect(text).toContain('${LANTERN_CHANNEL_HOOK_SIGNING_SECRET}')
    expect(text).toContain('${LANTERN_MONITOR_CACHE_TARGET}')
    expect(text).toContain('${LANTERN_MONITOR_API_HEALTH_HEADER_AUTHORIZATION}')
    expect(text).toContain('Accept: application/json')
    expect(secrets).toMatchObject({ LANTERN_CHANNEL_OPS_SLACK_URL: SLACK_URL, LANTERN_MONITOR_CACHE_TARGET: REDIS })
    const page = file.pages!.find((p) => p.slug === slug)!
    expect(page).toMatchObject({ name: 'Acme <Status>', language: 'de', time_zone: 'Europe/Berlin' })
    expect(page.components!.map((c) => c.name)).toEqual(['API', 'Web — ünïcode', 'DNS'])
    const health = file.monitors!.find((m) => m.name === 'API health')!
    expect(health).toMatchObject({ page: slug, component: 'API', interval_seconds: 30, alert_channels: ['Ops Slack'] })
    expect(file.monitors!.find((m) => m.name === 'Cache')).toMatchObject({ enabled: false, parents: ['API health'] })
    expect(file.channels!.find((c) => c.name === 'Ops Slack')).toMatchObject({ all_pages: false, pages: [slug] })
  })

  test('the exported file validates against the published JSON Schema', async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true })
    addFormats(ajv)
    const validate = ajv.compile(configJsonSchema('https://lantern.test'))
    const { file } = await services().configAsCode.export(source)
    const parsed = Bun.YAML.parse(configText(file))
    expect(validate(parsed) ? [] : validate.errors).toEqual([])
    expect(validate({ version: 1, monitors: [{ name: 'x', type: 'gopher' }] })).toBe(false)
    expect(validate({ version: 2 })).toBe(false)
  })
})

describe('round trip and idempotence', () => {
  let target: Owner
  let exported: Awaited<ReturnType<Services['configAsCode']['export']>>
  type Services = TestContext['app']['services']

  beforeAll(async () => {
    exported = await services().configAsCode.export(source)
    // A second instance's team: the same slug is taken here, so the page moves to a new slug on the way.
    ;({ user: target } = await ctx.createOwner('enterprise'))
  })

  const otherSlug = `${slug}-copy`
  const retargeted = () => parseConfigText(configText(exported.file).replaceAll(slug, otherSlug))

  test('a missing secret is named and nothing is applied', async () => {
    const { LANTERN_CHANNEL_OPS_SLACK_URL: _left, ...partial } = exported.secrets
    await expect(services().configAsCode.apply(target, retargeted(), applyOptions({ env: partial }))).rejects.toThrow('LANTERN_CHANNEL_OPS_SLACK_URL')
    expect((await services().configAsCode.export(target)).file).toEqual({ version: 1, pages: [], channels: [], monitors: [], templates: [] })
  })

  test('export → apply on an empty team → export gives the same file', async () => {
    const result = await services().configAsCode.apply(target, retargeted(), applyOptions({ env: exported.secrets }))
    expect(result.plan.changes.filter((c) => c.action === 'create').map((c) => `${c.kind} ${c.key}`)).toEqual([
      `page ${otherSlug}`, `component ${otherSlug}/API`, `component ${otherSlug}/Web — ünïcode`, `component ${otherSlug}/DNS`,
      'channel Hook', 'channel Ops Slack', 'monitor API health', 'monitor Cache', 'monitor Nightly job',
    ])
    expect(result.notes.some((n) => n.startsWith('monitor "Nightly job": its push URL ends in /api/push/'))).toBe(true)
    const again = await services().configAsCode.export(target)
    expect(configText(again.file)).toBe(configText(retargeted()))
    expect(again.secrets).toEqual(exported.secrets)
  })

  test('an applied file plans no change, and applying it again changes nothing', async () => {
    const before = (await auditRows(target.id)).length
    expect((await services().configAsCode.plan(target, retargeted(), { prune: true, env: exported.secrets })).changes).toEqual([])
    expect((await services().configAsCode.apply(target, retargeted(), applyOptions({ env: exported.secrets, prune: true }))).plan.changes).toEqual([])
    expect((await auditRows(target.id)).length).toBe(before)
  })

  test('every change of the apply is one audit row naming fields, never values', async () => {
    const rows = await auditRows(target.id)
    expect(rows.map((r) => `${r.action} ${r.object_id}`)).toContain('config.monitor.create API health')
    expect(rows.map((r) => `${r.action} ${r.object_id}`)).toContain(`config.page.create ${otherSlug}`)
    expect(rows.length).toBe(9)
    expect(rows.every((r) => r.actor_kind === 'person' || r.actor_kind === 'system')).toBe(true)
    expect(JSON.stringify(rows)).not.toContain(SLACK_URL)
  })

  test('a change plans the fields it touches and applies only them', async () => {
    const file = retargeted()
    file.monitors!.find((m) => m.name === 'API health')!.interval_seconds = 60
    file.pages![0]!.name = 'Acme renamed'
    file.pages![0]!.components!.reverse()
    const plan = await services().configAsCode.plan(target, file, { prune: false, env: exported.secrets })
    expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}: ${c.fields.join(',')}`)).toEqual([
      `update page ${otherSlug}: name,component_order`,
      'update monitor API health: interval_seconds',
    ])
    await services().configAsCode.apply(target, file, applyOptions({ env: exported.secrets }))
    const after = (await services().configAsCode.export(target)).file
    expect(after.pages![0]!.components!.map((c) => c.name)).toEqual(['DNS', 'Web — ünïcode', 'API'])
    expect(after.monitors!.find((m) => m.name === 'API health')!.interval_seconds).toBe(60)
    expect((await services().configAsCode.plan(target, file, { prune: false, env: exported.secrets })).changes).toEqual([])
    const rows = await auditRows(target.id)
    expect(JSON.parse(rows.at(-1)!.summary)).toEqual({ fields: ['interval_seconds'] })
  })

  test('one bad monitor in the middle of the file applies nothing', async () => {
    const file = retargeted()
    const before = configText((await services().configAsCode.export(target)).file)
    const auditBefore = (await auditRows(target.id)).length
    file.pages![0]!.name = 'Should not stick'
    file.channels!.push({ name: 'New channel', type: 'discord', url: 'https://discord.com/api/webhooks/1/abc' })
    file.monitors!.splice(1, 0, { name: 'Broken', type: 'keyword', target: 'http://127.0.0.1:9/' } as never) // keyword without a keyword
    file.monitors!.push({ name: 'Fine', type: 'tcp', target: '127.0.0.1:9' } as never)
    await expect(services().configAsCode.apply(target, file, applyOptions({ env: exported.secrets }))).rejects.toThrow('monitors "Broken": keyword is required')
    expect(configText((await services().configAsCode.export(target)).file)).toBe(before)
    expect((await auditRows(target.id)).length).toBe(auditBefore)
  })

  test('a refusal only the service knows (an interval under the plan) rolls back what came before', async () => {
    const { user: free } = await ctx.createOwner('free')
    const file = parseConfigText(`version: 1
pages:
  - slug: ${slug}-free
    name: Free page
    components: [{ name: A }]
monitors:
  - name: Too often
    type: tcp
    target: 127.0.0.1:9
    interval_seconds: 30
`)
    await expect(services().configAsCode.apply(free, file, applyOptions())).rejects.toThrow('interval_seconds 30 is below')
    expect((await services().configAsCode.export(free)).file.pages).toEqual([])
    expect(await ctx.database.db.selectFrom('status_pages').select('id').where('slug', '=', `${slug}-free`).executeTakeFirst()).toBeUndefined()
  })

  test('--prune deletes only what the file no longer names', async () => {
    const file = retargeted()
    file.pages![0]!.components = file.pages![0]!.components!.filter((c) => c.name !== 'DNS')
    file.monitors = file.monitors!.filter((m) => m.name !== 'Nightly job')
    file.channels = file.channels!.filter((c) => c.name !== 'Hook')
    const without = await services().configAsCode.plan(target, file, { prune: false, env: exported.secrets })
    expect(without.changes.filter((c) => c.action === 'delete')).toEqual([])
    const plan = await services().configAsCode.plan(target, file, { prune: true, env: exported.secrets })
    expect(plan.changes.filter((c) => c.action === 'delete').map((c) => `${c.kind} ${c.key}`)).toEqual(['monitor Nightly job', 'channel Hook', `component ${otherSlug}/DNS`])
    await services().configAsCode.apply(target, file, applyOptions({ env: exported.secrets, prune: true }))
    const after = (await services().configAsCode.export(target)).file
    expect(after.monitors!.map((m) => m.name)).toEqual(['API health', 'Cache'])
    expect(after.channels!.map((c) => c.name)).toEqual(['Ops Slack'])
    expect(after.pages![0]!.components!.map((c) => c.name)).toEqual(['API', 'Web — ünïcode'])
    // The source team is untouched by all of this.
    expect((await services().configAsCode.export(source)).file.monitors!.length).toBe(3)
  })

  test('an editor applies; a responder or viewer is refused; pruning a page needs an admin', async () => {
    const editor = { ...target, role: 'editor' as const }
    const file = parseConfigText(configText((await services().configAsCode.export(target)).file))
    await services().configAsCode.apply(editor, file, applyOptions({ env: exported.secrets }))
    for (const role of ['responder', 'viewer'] as const) {
      await expect(services().configAsCode.apply({ ...target, role }, file, applyOptions({ env: exported.secrets }))).rejects.toThrow('editor role')
    }
    await expect(services().configAsCode.apply(editor, { version: 1 }, applyOptions({ prune: true }))).rejects.toThrow('admin role')
    expect((await services().configAsCode.export(target)).file.pages!.length).toBe(1)
  })
})
