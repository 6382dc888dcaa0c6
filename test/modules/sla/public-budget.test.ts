/**
 * Public error budgets: the owner shows a component's SLA budget on the public page and in the
 * status JSON; the figures are the running period's, on the injected clock; turning it off or
 * removing the target takes it off at once (cached answers are emptied); bad input changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { budgetLeftPercent, budgetPhrase } from '../../../src/modules/sla/public-budget.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { createComponent, importHistory, slug } from '../analytics/helpers.ts'

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0) // 20 Nov 2026: November (30 days) is running
const MARKUP = '<img src=x onerror=alert(1)>'

describe('budget words (pure)', () => {
  test('what is left of the allowance, to the second, and the overspend', () => {
    expect(budgetPhrase({ period: 'month', allowedMs: 2_592_000, leftMs: 2_580_000 })).toBe('43 min of 43 min 12 s error budget left this month')
    expect(budgetPhrase({ period: 'quarter', allowedMs: 7_776_000, leftMs: 999 })).toBe('0 s of 2 h 9 min error budget left this quarter')
    expect(budgetPhrase({ period: 'year', allowedMs: 60_000, leftMs: -300_000 })).toBe('Error budget spent: over by 5 min this year')
    expect(budgetLeftPercent({ allowedMs: 2_592_000, leftMs: 1_296_000 })).toBe(50)
    expect(budgetLeftPercent({ allowedMs: 2_592_000, leftMs: -1 })).toBe(0)
    expect(budgetLeftPercent({ allowedMs: 0, leftMs: 0 })).toBe(0)
  })
})

describe('public error budgets', () => {
  let ctx: TestContext
  let key: string
  let page: { id: number; slug: string }
  const ids: Record<string, number> = {}

  const setTarget = (componentId: number, body: Record<string, unknown>, asKey = key) =>
    ctx.request(`/user/api/v1/components/${componentId}/sla-target`, { method: 'PUT', key: asKey, json: body })
  const publicPage = async () => {
    const response = await ctx.request(`https://${page.slug}.status.test/`)
    expect(response.status).toBe(200)
    return response.text()
  }
  const statusJson = async () => json(await ctx.request(`/api/embed/status?slug=${page.slug}`))

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, publicCache: true })
    ;({ key } = await ctx.createOwner('enterprise'))
    page = await ctx.createPage(key, { slug: slug('budget'), name: 'Budget page' })
    for (const name of ['API', 'Web', MARKUP]) ids[name] = await createComponent(ctx, key, page.id, name)
    // API: 10 min down on 10 Nov; Web: the same, its budget kept private; the markup one: 2 h down.
    for (const [name, minutes] of [['API', 10], ['Web', 10], [MARKUP, 120]] as const) {
      await importHistory(ctx, key, ids[name]!, [
        { status: 'up', at: '2026-10-20T00:00:00Z' },
        { status: 'down', at: '2026-11-10T10:00:00Z' },
        { status: 'up', at: new Date(Date.UTC(2026, 10, 10, 10, minutes)).toISOString() },
      ])
    }
  })
  afterAll(() => ctx?.close())

  test('nothing is shown until the owner chooses it', async () => {
    expect((await setTarget(ids.API!, { target_percent: 99.9 })).status).toBe(200)
    expect(await publicPage()).not.toContain('error budget')
    expect((await statusJson()).error_budgets).toEqual([])
  })

  test('a shown budget: the page and the status JSON give the period, the allowance and what is left', async () => {
    const saved = await setTarget(ids.API!, { target_percent: 99.9, public_budget: true })
    expect(saved.status).toBe(200)
    expect((await json(saved)).data.public_budget).toBe(true)
    expect((await setTarget(ids.Web!, { target_percent: 99.9, public_budget: false })).status).toBe(200)
    expect((await setTarget(ids[MARKUP]!, { target_percent: 99.95, public_budget: true })).status).toBe(200)

    const html = await publicPage()
    // 30 days at 99.9 % allow 43 min 12 s; 10 min are used.
    expect(html).toContain('33 min 12 s of 43 min 12 s error budget left this month')
    // 99.95 % allows 21 min 36 s; 2 h are used.
    expect(html).toContain('Error budget spent: over by 1 h 38 min this month')
    expect(html.match(/error budget/gi)?.length).toBe(2)
    expect(html).not.toContain('<img src=x')
    expect(html).toContain('&#60;img src&#61;x onerror&#61;alert(1)&#62;')

    const body = await statusJson()
    expect(body.error_budgets).toEqual([
      {
        component: 'API',
        target: 99.9,
        period: 'month',
        period_start: '2026-11-01T00:00:00.000Z',
        period_end: '2026-12-01T00:00:00.000Z',
        allowed_seconds: 2592,
        used_seconds: 600,
        left_seconds: 1992,
        text: '33 min 12 s of 43 min 12 s error budget left this month',
      },
      {
        component: MARKUP,
        target: 99.95,
        period: 'month',
        period_start: '2026-11-01T00:00:00.000Z',
        period_end: '2026-12-01T00:00:00.000Z',
        allowed_seconds: 1296,
        used_seconds: 7200,
        left_seconds: -5904,
        text: 'Error budget spent: over by 1 h 38 min this month',
      },
    ])
  })

  test('a quarter budget follows its own period', async () => {
    expect((await setTarget(ids.Web!, { target_percent: 99.9, period: 'quarter', public_budget: true })).status).toBe(200)
    const web = (await statusJson()).error_budgets.find((b: { component: string }) => b.component === 'Web')
    // October to December less the time before the first status (20 Oct): 73 days at 99.9 %.
    expect(web).toMatchObject({ period: 'quarter', period_start: '2026-10-01T00:00:00.000Z', period_end: '2027-01-01T00:00:00.000Z', used_seconds: 600 })
    expect(web.allowed_seconds).toBe(Math.floor(73 * 86.4))
  })

  test('bad input and other owners change nothing; turning it off or removing the target takes it off at once', async () => {
    const refused = await setTarget(ids.API!, { target_percent: 99.9, public_budget: 'yes' })
    expect(refused.status).toBe(400)
    expect((await json(refused)).error).toContain('public_budget must be true or false')
    const other = await ctx.createOwner('enterprise')
    expect((await setTarget(ids.API!, { target_percent: 99.9, public_budget: false }, other.key)).status).toBe(404)
    expect(await publicPage()).toContain('33 min 12 s of 43 min 12 s error budget left this month')

    expect((await setTarget(ids.API!, { target_percent: 99.9, public_budget: false })).status).toBe(200)
    expect(await publicPage()).not.toContain('33 min 12 s of 43 min 12 s')
    expect((await ctx.request(`/user/api/v1/components/${ids[MARKUP]}/sla-target`, { method: 'DELETE', key })).status).toBe(200)
    expect((await statusJson()).error_budgets.map((b: { component: string }) => b.component)).toEqual(['Web'])
  })
})
