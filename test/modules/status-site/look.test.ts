/**
 * What visitors read on the public page: downtime wording of the daily tips (pure) and the order
 * of components and groups (HTTP through the real app, real SQLite, a fixed clock).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { formatDuration } from '../../../src/modules/status-site/render/shared.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

describe('formatDuration (the tips of the daily bars)', () => {
  const S = 1000
  const MIN = 60 * S
  const TABLE: Array<[number, string]> = [
    [400, '1 s'],
    [42 * S, '42 s'],
    [59 * S, '59 s'],
    [59.6 * S, '1 min'],
    [90 * S, '2 min'],
    [59 * MIN, '59 min'],
    [59.7 * MIN, '1 h'],
    [60 * MIN, '1 h'],
    [75 * MIN, '1 h 15 min'],
    [26 * 60 * MIN, '26 h'],
  ]
  for (const [ms, text] of TABLE) test(`${ms} ms → ${text}`, () => expect(formatDuration(ms)).toBe(text))
  test('a short downtime is never "0 min"', () => {
    for (let ms = 1; ms < 120_000; ms += 997) expect(formatDuration(ms)).not.toMatch(/^0 /)
  })
})

describe('order of components and groups', () => {
  let ctx: TestContext
  const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW })
  })
  afterAll(() => ctx.close())

  /** Blocks of the page in order: a group's name, or the ungrouped components of one card. */
  async function blocks(slug: string): Promise<string[]> {
    const page = await (await ctx.request(`https://${slug}.status.test/`)).text()
    const out: string[] = []
    const block = /<ul class="components card">([\s\S]*?)<\/ul>|<section class="group card" aria-label="([^"]+)">/g
    for (let m = block.exec(page); m; m = block.exec(page)) {
      if (m[2]) out.push(`group ${m[2]}`)
      else out.push([...m[1]!.matchAll(/class="component__name">([^<]+)</g)].map((n) => n[1]).join(', '))
    }
    return out
  }

  test('position decides across groups and ungrouped components; a group stands where its first member does', async () => {
    const { key } = await ctx.createOwner('pro')
    const page = await ctx.createPage(key, { slug: 'order', name: 'Order' })
    // Positions follow the order of creation: a group first, ungrouped components between and
    // after groups, and a group member created after an ungrouped component.
    const specs: Array<[string, string | null]> = [
      ['API', 'Platform'],
      ['Docs', null],
      ['Webhooks', 'Platform'],
      ['Website', null],
      ['DNS', 'Infrastructure'],
      ['Status mail', null],
    ]
    for (const [name, group] of specs) {
      const created = await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name, group } })
      expect(created.status).toBe(201)
    }
    expect(await blocks('order')).toEqual(['group Platform', 'Docs, Website', 'group Infrastructure', 'Status mail'])
  })
})

describe('who may show a page\'s images', () => {
  const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0))
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext({ now: Date.UTC(2026, 10, 23, 12) })
  })
  afterAll(() => ctx.close())

  test("a public page's logo and favicon may be shown from any origin (the owner's sandboxed preview frames it); a private page's from its own only", async () => {
    const { user, key } = await ctx.createOwner('enterprise')
    const services = ctx.app.services
    for (const visibility of ['public', 'private'] as const) {
      const page = await ctx.createPage(key, { name: `Pictures ${visibility}`, slug: `pictures-${visibility}`, visibility })
      await services.branding.setImage(user, page.id, 'logo', PNG)
      await services.branding.setImage(user, page.id, 'favicon', PNG)
      for (const path of ['/_lantern/logo', '/_lantern/favicon', '/favicon.ico']) {
        const response = await ctx.request(`https://pictures-${visibility}.status.test${path}`)
        const expected = visibility === 'public' ? 'cross-origin' : 'same-origin'
        expect({ visibility, path, status: response.status, corp: response.headers.get('cross-origin-resource-policy'), sandbox: response.headers.get('content-security-policy')?.endsWith('sandbox') }).toEqual({ visibility, path, status: 200, corp: expected, sandbox: true })
      }
    }
  })
})
