/**
 * Incident templates in configuration as code, on the real database (SQLite, and PostgreSQL with
 * LANTERN_TEST_POSTGRES) through the real incidents service: exported by name, applied on an empty
 * team and exported again the same, changed with their fields, deleted only with prune, refused
 * with a 400 naming the template and the field, and nothing applied.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { configText, parseConfigText } from '../../../src/modules/config-as-code/file.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { applyOptions, refusalText } from './shared.ts'

let ctx: TestContext
let source: Owner
let sourceKey: string
const services = () => ctx.app.services

const template = async (json: unknown, key = sourceKey) => {
  const response = await ctx.request('/user/api/v1/incident-templates', { method: 'POST', key, json })
  if (response.status >= 300) throw new Error(`template: ${response.status} ${await response.text()}`)
}

beforeAll(async () => {
  ctx = await createTestContext()
  ;({ user: source, key: sourceKey } = await ctx.createOwner('enterprise'))
  await template({ name: 'Outage', title: '{{component}} is down', message: 'We are **looking into** {{component}} on {{page}}.' })
  await template({ name: 'Degraded <b>', title: 'Slow responses' })
})
afterAll(() => ctx.close())

describe('incident templates', () => {
  let target: Owner
  beforeAll(async () => {
    ;({ user: target } = await ctx.createOwner('enterprise'))
  })

  test('export names them by name; export → apply on an empty team → export is the same; again changes nothing', async () => {
    const { file } = await services().configAsCode.export(source)
    expect(file.templates).toEqual([
      { name: 'Degraded <b>', title: 'Slow responses' },
      { name: 'Outage', title: '{{component}} is down', message: 'We are **looking into** {{component}} on {{page}}.' },
    ])
    const applied = await services().configAsCode.apply(target, parseConfigText(configText(file)), applyOptions())
    expect(applied.plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}`)).toEqual(['create template Degraded <b>', 'create template Outage'])
    expect(configText((await services().configAsCode.export(target)).file)).toBe(configText(file))
    expect((await services().configAsCode.apply(target, file, applyOptions({ prune: true }))).plan.changes).toEqual([])
    const made = await services().incidents.listTemplates(target)
    expect(made.map((t) => t.name).sort()).toEqual(['Degraded <b>', 'Outage'])
  })

  test('a change names its fields; prune deletes what the file no longer names, and each is an audit row', async () => {
    const file = (await services().configAsCode.export(target)).file
    file.templates = [{ name: 'Outage', title: '{{component}} is unavailable', message: 'We are **looking into** {{component}} on {{page}}.' }]
    expect((await services().configAsCode.plan(target, file, { prune: false, env: {} })).changes.map((c) => `${c.action} ${c.kind} ${c.key}: ${c.fields}`)).toEqual(['update template Outage: title'])
    const applied = await services().configAsCode.apply(target, file, applyOptions({ prune: true }))
    expect(applied.plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}`)).toEqual(['update template Outage', 'delete template Degraded <b>'])
    expect((await services().incidents.listTemplates(target)).map((t) => `${t.name}: ${t.title}`)).toEqual(['Outage: {{component}} is unavailable'])
    const rows = await ctx.database.db.selectFrom('audit_log').select(['action', 'object_id', 'summary']).where('team_id', '=', target.id).where('action', 'like', 'config.template.%').orderBy('id').execute()
    expect(rows.map((r) => `${r.action} ${r.object_id} ${r.summary}`)).toEqual([
      'config.template.create Degraded <b> {"fields":[]}',
      'config.template.create Outage {"fields":[]}',
      'config.template.update Outage {"fields":["title"]}',
      'config.template.delete Degraded <b> {"fields":[]}',
    ])
  })

  test('bad input is a 400 naming the template and the field, and nothing is applied', async () => {
    const { user: owner } = await ctx.createOwner('enterprise')
    const refused = async (text: string) => {
      const words = await refusalText((async () => services().configAsCode.apply(owner, parseConfigText(text), applyOptions()))())
      expect((await services().configAsCode.export(owner)).file.templates).toEqual([])
      return words
    }
    const page = 'pages:\n  - slug: tpl-page-made-first\n    name: Made first\n'
    expect(await refused(`version: 1\n${page}templates:\n  - { name: Long, title: "${'x'.repeat(201)}" }\n`)).toBe('400 templates "Long", title: title must be a string of at most 200 characters')
    expect(await refused(`version: 1\n${page}templates:\n  - { name: NoTitle }\n`)).toBe('400 templates "NoTitle", title: title must be a string of at most 200 characters')
    expect(await refused(`version: 1\n${page}templates:\n  - { name: "  ", title: Blank }\n`)).toMatch(/^400 templates "  ": name /)
    expect(await refused(`version: 1\n${page}templates:\n  - { name: Twice, title: A }\n  - { name: Twice, title: B }\n`)).toBe('400 template "Twice" is named twice in the file; names are the keys and must be unique')
    expect(await ctx.database.db.selectFrom('status_pages').select('id').where('slug', '=', 'tpl-page-made-first').executeTakeFirst()).toBeUndefined()
  })

  test('two templates of a team with one name stop export with a 409', async () => {
    const { user: owner, key } = await ctx.createOwner('enterprise')
    await template({ name: 'Same', title: 'A' }, key)
    await template({ name: 'Same', title: 'B' }, key)
    expect(await refusalText(services().configAsCode.export(owner))).toBe('409 two incident templates are named "Same"; configuration as code names them by name, so give one of them another name first')
  })
})
