/**
 * Maintenance in configuration as code, on the real database (SQLite, and PostgreSQL with
 * LANTERN_TEST_POSTGRES) through the real services, at a fixed instant: one-off windows not over
 * yet and recurring series (with their time zone and rule) are exported, applied on an empty team
 * and exported again the same; changes name their fields; prune deletes a window and cancels a
 * series; a window that is over is history (left out, left alone); bad input is a 400 naming the
 * page, the window and the field, and nothing is applied.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { configText, parseConfigText } from '../../../src/modules/config-as-code/file.ts'
import { configJsonSchema } from '../../../src/modules/config-as-code/model.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { applyOptions, refusalText } from './shared.ts'

const NOW = Date.UTC(2026, 11, 7, 6, 0)
let ctx: TestContext
let source: Owner
let sourceKey: string
const services = () => ctx.app.services
const slug = `mnt-${crypto.randomUUID().slice(0, 6)}`
const copy = `${slug}-copy`

const post = async (path: string, json: unknown, key = sourceKey) => {
  const response = await ctx.request(path, { method: 'POST', key, json })
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { data: { id: number } }).data
}

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  const made = await ctx.createOwner('enterprise')
  source = made.user
  sourceKey = made.key
  const page = await ctx.createPage(sourceKey, { slug, name: 'Maintenance page', time_zone: 'Europe/Berlin' })
  const api = await post(`/user/api/v1/status-pages/${page.id}/components`, { name: 'API' })
  const web = await post(`/user/api/v1/status-pages/${page.id}/components`, { name: 'Web' })
  await post('/user/api/v1/maintenances', { status_page_id: page.id, title: 'Database <upgrade>', start_at: '2026-12-10T02:00:00+01:00', end_at: '2026-12-10T03:30:00+01:00', message: 'We **upgrade** Postgres.', component_ids: [api.id], notify_subscribers: true })
  await post('/user/api/v1/maintenances', { status_page_id: page.id, title: 'Under way', start_at: '2026-12-07T05:00:00Z', end_at: '2026-12-07T08:00:00Z' })
  await post('/user/api/v1/maintenances', { status_page_id: page.id, title: 'Long over', start_at: '2026-11-01T02:00:00Z', end_at: '2026-11-01T03:00:00Z' })
  await post('/user/api/v1/maintenance-series', { status_page_id: page.id, title: 'Weekly patching', time_zone: 'Europe/Berlin', starts_on: '2026-12-08', start_time: '02:00', duration_minutes: 60, frequency: 'weekly', weekdays: ['TU', 'MO'], exceptions: ['2026-12-22'], component_ids: [web.id] })
  await post('/user/api/v1/maintenance-series', { status_page_id: page.id, title: 'Monthly reboot', time_zone: 'America/New_York', starts_on: '2026-12-15', start_time: '23:30', duration_minutes: 30, frequency: 'monthly', month_day: 15, count: 12 })
  const gone = await post('/user/api/v1/maintenance-series', { status_page_id: page.id, title: 'Cancelled one', time_zone: 'UTC', starts_on: '2026-12-09', start_time: '01:00', duration_minutes: 10, frequency: 'daily' })
  expect((await ctx.request(`/user/api/v1/maintenance-series/${gone.id}`, { method: "DELETE", key: sourceKey })).status).toBe(200)
})
afterAll(() => ctx.close())

describe('export', () => {
  test('writes the windows not over yet (by start) and the series not cancelled, with their time zone and rule', async () => {
    const { file } = await services().configAsCode.export(source)
    const page = file.pages!.find((p) => p.slug === slug)!
    expect(page.maintenance).toEqual([
      { title: 'Under way', start_at: '2026-12-07T06:00:00+01:00', end_at: '2026-12-07T09:00:00+01:00' },
      { title: 'Database <upgrade>', start_at: '2026-12-10T02:00:00+01:00', end_at: '2026-12-10T03:30:00+01:00', message: 'We **upgrade** Postgres.', components: ['API'], notify_subscribers: true },
    ])
    expect(page.recurring_maintenance).toEqual([
      { title: 'Monthly reboot', time_zone: 'America/New_York', starts_on: '2026-12-15', start_time: '23:30', duration_minutes: 30, frequency: 'monthly', interval: 1, month_day: 15, count: 12 },
      { title: 'Weekly patching', time_zone: 'Europe/Berlin', starts_on: '2026-12-08', start_time: '02:00', duration_minutes: 60, frequency: 'weekly', interval: 1, weekdays: ['MO', 'TU'], exceptions: ['2026-12-22'], components: ['Web'] },
    ])
    const ajv = new Ajv2020({ allErrors: true, strict: true })
    addFormats(ajv)
    const validate = ajv.compile(configJsonSchema('https://lantern.test'))
    expect(validate(Bun.YAML.parse(configText(file))) ? [] : validate.errors).toEqual([])
    expect(validate({ version: 1, pages: [{ slug: 'a', name: 'A', recurring_maintenance: [{ title: 'x', time_zone: 'UTC', starts_on: '2027-01-01', start_time: '2am', duration_minutes: 5, frequency: 'daily' }] }] })).toBe(false)
    expect(validate({ version: 1, pages: [{ slug: 'a', name: 'A', maintenance: [{ title: 'x', start_at: '2027-01-01T00:00:00Z' }] }] })).toBe(false)
  })
})

describe('round trip, changes, prune and time', () => {
  let target: Owner
  const retargeted = async () => parseConfigText(configText((await services().configAsCode.export(source)).file).replaceAll(slug, copy))
  const targetPageId = async () => (await services().pages.list(target)).find((p) => p.slug === copy)!.id

  beforeAll(async () => {
    ;({ user: target } = await ctx.createOwner('enterprise'))
  })

  test('export → apply on an empty team → export gives the same file; applying again changes nothing', async () => {
    const file = await retargeted()
    const result = await services().configAsCode.apply(target, file, applyOptions())
    expect(result.plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}`)).toEqual([
      `create page ${copy}`, `create component ${copy}/API`, `create component ${copy}/Web`,
      `create maintenance ${copy}/Under way`, `create maintenance ${copy}/Database <upgrade>`,
      `create recurring_maintenance ${copy}/Monthly reboot`, `create recurring_maintenance ${copy}/Weekly patching`,
    ])
    expect(configText((await services().configAsCode.export(target)).file)).toBe(configText(file))
    expect((await services().configAsCode.apply(target, file, applyOptions({ prune: true }))).plan.changes).toEqual([])
    // The series wrote its occurrences as windows, in its zone: Monday 14 December 02:00 Berlin is 01:00Z.
    const occurrences = await ctx.database.db.selectFrom('maintenances').select(['start_at', 'title']).where('page_id', '=', await targetPageId()).where('series_id', 'is not', null).orderBy('start_at').execute()
    expect(occurrences.find((o) => o.title === 'Weekly patching')!.start_at).toBe(Date.UTC(2026, 11, 8, 1, 0))
    expect(occurrences.some((o) => o.start_at === Date.UTC(2026, 11, 14, 1, 0))).toBe(true)
    expect(occurrences.some((o) => o.start_at === Date.UTC(2026, 11, 22, 1, 0))).toBe(false)
    const audit = await ctx.database.db.selectFrom('audit_log').select(['action', 'object_id']).where('team_id', '=', target.id).where('action', 'like', 'config.%maintenance%').execute()
    expect(audit.map((r) => `${r.action} ${r.object_id}`)).toEqual([
      `config.maintenance.create ${copy}/Under way`, `config.maintenance.create ${copy}/Database <upgrade>`,
      `config.recurring_maintenance.create ${copy}/Monthly reboot`, `config.recurring_maintenance.create ${copy}/Weekly patching`,
    ])
  })

  test('a change plans its fields and applies through the maintenance services', async () => {
    const file = await retargeted()
    const page = file.pages![0]!
    page.maintenance![1] = { ...page.maintenance![1]!, end_at: '2026-12-10T04:00:00+01:00', components: ['API', 'Web'] }
    page.recurring_maintenance![1] = { ...page.recurring_maintenance![1]!, weekdays: ['WE'], start_time: '03:00' }
    const plan = await services().configAsCode.plan(target, file, { prune: false, env: {} })
    expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}: ${c.fields.join(',')}`)).toEqual([
      `update maintenance ${copy}/Database <upgrade>: components,end_at`,
      `update recurring_maintenance ${copy}/Weekly patching: start_time,weekdays`,
    ])
    await services().configAsCode.apply(target, file, applyOptions())
    const after = (await services().configAsCode.export(target)).file.pages![0]!
    expect(after.maintenance![1]).toMatchObject({ end_at: '2026-12-10T04:00:00+01:00', components: ['API', 'Web'] })
    expect(after.recurring_maintenance![1]).toMatchObject({ weekdays: ['WE'], start_time: '03:00' })
    expect((await services().configAsCode.plan(target, file, { prune: false, env: {} })).changes).toEqual([])
  })

  test('prune deletes a window and cancels a series the file no longer names; without prune they stay', async () => {
    const file = (await services().configAsCode.export(target)).file
    const page = file.pages![0]!
    page.maintenance = page.maintenance!.filter((m) => m.title !== 'Database <upgrade>')
    page.recurring_maintenance = page.recurring_maintenance!.filter((m) => m.title !== 'Monthly reboot')
    expect((await services().configAsCode.plan(target, file, { prune: false, env: {} })).changes).toEqual([])
    const applied = await services().configAsCode.apply(target, file, applyOptions({ prune: true }))
    expect(applied.plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}`)).toEqual([`delete maintenance ${copy}/Database <upgrade>`, `delete recurring_maintenance ${copy}/Monthly reboot`])
    const after = (await services().configAsCode.export(target)).file.pages![0]!
    expect(after.maintenance!.map((m) => m.title)).toEqual(['Under way'])
    expect(after.recurring_maintenance!.map((m) => m.title)).toEqual(['Weekly patching'])
    const series = await ctx.database.db.selectFrom('maintenance_series').select(['title', 'cancelled_at']).where('page_id', '=', await targetPageId()).orderBy('title').execute()
    expect(series.map((s) => [s.title, s.cancelled_at !== null])).toEqual([['Monthly reboot', true], ['Weekly patching', false]])
  })

  test('a window that is over is history: export leaves it out and apply leaves it alone, with a note', async () => {
    const file = (await services().configAsCode.export(target)).file
    ctx.clock.set(Date.UTC(2026, 11, 7, 9, 0))
    try {
      expect((await services().configAsCode.export(target)).file.pages![0]!).not.toHaveProperty('maintenance')
      const again = await services().configAsCode.apply(target, file, applyOptions({ prune: true }))
      expect(again.plan.changes).toEqual([])
      expect(again.notes).toEqual([`pages "${copy}": maintenance "Under way" ended at 2026-12-07T08:00:00.000Z; it is history now, so apply leaves it alone (remove it from the file)`])
      expect(await ctx.database.db.selectFrom('maintenances').select('id').where('page_id', '=', await targetPageId()).where('title', '=', 'Under way').execute()).toHaveLength(1)
    } finally {
      ctx.clock.set(NOW)
    }
  })
})

describe('refusals name the page, the window and the field, and change nothing', () => {
  let owner: Owner
  const page = `${slug}-bad`
  const file = (maintenance: string) => `version: 1
pages:
  - slug: ${page}
    name: Bad maintenance
    components: [{ name: API }]
${maintenance}`
  const refused = async (text: string) => {
    const words = await refusalText((async () => services().configAsCode.apply(owner, parseConfigText(text), applyOptions()))())
    expect((await services().configAsCode.export(owner)).file.pages).toEqual([])
    return words
  }

  beforeAll(async () => {
    ;({ user: owner } = await ctx.createOwner('enterprise'))
  })

  test('one-off windows', async () => {
    const window = (fields: string) => file(`    maintenance:\n      - { title: "Up<grade>", ${fields} }\n`)
    expect(await refused(window('start_at: "2026-12-10T03:00:00Z", end_at: "2026-12-10T02:00:00Z"'))).toBe(`400 pages "${page}": maintenance "Up<grade>": end_at must be after start_at`)
    expect(await refused(window('start_at: tomorrow, end_at: "2026-12-10T02:00:00Z"'))).toBe(`400 pages "${page}": maintenance "Up<grade>": start_at must be an RFC 3339 date-time with offset`)
    expect(await refused(window('start_at: "2026-12-10T01:00:00Z", end_at: "2026-12-10T02:00:00Z", components: [Nope]'))).toBe(`400 pages "${page}": maintenance "Up<grade>": components names "Nope", which is not a component of the page`)
    expect(await refused(window('start_at: "2026-12-10T01:00:00Z"'))).toBe(`400 pages "${page}", maintenance "Up<grade>", end_at: end_at must be an RFC 3339 date-time`)
    expect(await refused(file('    maintenance:\n      - { title: A, start_at: "2026-12-10T01:00:00Z", end_at: "2026-12-10T02:00:00Z" }\n      - { title: A, start_at: "2026-12-11T01:00:00Z", end_at: "2026-12-11T02:00:00Z" }\n'))).toBe(
      `400 pages "${page}": maintenance "A" is named twice in the file; names are the keys and must be unique`,
    )
  })

  test('recurring maintenance: the series service rule', async () => {
    const series = (fields: string) => file(`    recurring_maintenance:\n      - { title: Nightly, starts_on: "2026-12-08", start_time: "02:00", ${fields} }\n`)
    expect(await refused(series('time_zone: Mars/Olympus, duration_minutes: 30, frequency: daily'))).toBe(`400 pages "${page}": recurring_maintenance "Nightly": time_zone must be an IANA time zone such as Europe/Berlin`)
    expect(await refused(series('time_zone: UTC, duration_minutes: 1440, frequency: daily'))).toBe(`400 pages "${page}": recurring_maintenance "Nightly": duration_minutes must be at most 1380 for this rule, so occurrences never overlap`)
    expect(await refused(series('time_zone: UTC, duration_minutes: 30, frequency: daily, month_day: 3'))).toBe(`400 pages "${page}": recurring_maintenance "Nightly": month_day only applies to a monthly rule`)
    expect(await refused(series('time_zone: UTC, duration_minutes: 30, frequency: hourly'))).toContain(`pages "${page}", recurring_maintenance "Nightly", frequency: frequency must be daily, weekly or monthly`)
  })

  test('notify_subscribers cannot change once a window is scheduled (the API cannot change it)', async () => {
    const text = file('    maintenance:\n      - { title: Told, start_at: "2026-12-10T01:00:00Z", end_at: "2026-12-10T02:00:00Z", notify_subscribers: true }\n')
    await services().configAsCode.apply(owner, parseConfigText(text), applyOptions())
    const words = await refusalText(services().configAsCode.apply(owner, parseConfigText(text.replace('notify_subscribers: true', 'notify_subscribers: false')), applyOptions()))
    expect(words).toBe(`400 pages "${page}": maintenance "Told": notify_subscribers cannot be changed once it is scheduled; give it another title for a new one`)
  })

  test('two open windows of a page with one title stop export with a 409 until one is renamed', async () => {
    const { user: other, key } = await ctx.createOwner('enterprise')
    const made = await ctx.createPage(key, { slug: `${slug}-twice`, name: 'Twice' })
    for (const day of [10, 11]) await post('/user/api/v1/maintenances', { status_page_id: made.id, title: 'Same', start_at: `2026-12-${day}T01:00:00Z`, end_at: `2026-12-${day}T02:00:00Z` }, key)
    expect(await refusalText(services().configAsCode.export(other))).toBe(`409 two maintenance windows of the page "${slug}-twice" not over yet are named "Same"; configuration as code names them by name, so give one of them another name first`)
  })
})
