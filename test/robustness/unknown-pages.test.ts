/**
 * Answers about a page that does not exist (yet) are kept briefly in the shared public cache, so a
 * made-up or stale slug costs neither a query nor a rendering on every request (hardening item 8);
 * creating, renaming, showing, unblocking or upgrading a page makes them go at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { NEGATIVE_TTL_MS } from '../../src/lib/http-cache.ts'
import { createTestContext, type TestContext } from '../helpers/context.ts'

let ctx: TestContext
let key: string

beforeAll(async () => {
  ctx = await createTestContext()
  key = (await ctx.createOwner('enterprise')).key
})
afterAll(() => ctx.close())

const api = (path: string, method: string, body?: unknown) => ctx.request(`/user/api/v1${path}`, { method, key, json: body })

/** Every public answer about one slug: service-host embeds and the status host. */
const answersFor = (slug: string) => ({
  badge: `/badge/${slug}.svg`,
  uptime: `/badge/${slug}/uptime.svg?days=7`,
  status: `/api/embed/status?slug=${slug}`,
  markdown: `/api/embed/markdown?slug=${slug}`,
  page: `https://${slug}.status.test/`,
  summary: `https://${slug}.status.test/api/v2/summary.json`,
  rss: `https://${slug}.status.test/history.rss`,
})
type Answers = ReturnType<typeof answersFor>

async function readAll(answers: Answers): Promise<Record<string, string>> {
  const read: Record<string, string> = {}
  for (const [name, url] of Object.entries(answers)) {
    const response = await ctx.request(url)
    read[name] = `${response.status} ${await response.text()}`
  }
  return read
}

/** Reads every answer twice (so "unknown" is cached), runs `change`, and lists the answers that did not change. */
async function unchangedAfter(slug: string, change: () => Promise<unknown>): Promise<string[]> {
  const answers = answersFor(slug)
  await readAll(answers)
  const before = await readAll(answers)
  expect(before.badge).toContain('Unknown')
  expect(before.status).toStartWith('404')
  const result = await change()
  if (result instanceof Response) expect(result.status).toBeLessThan(300)
  const after = await readAll(answers)
  return Object.keys(answers).filter((name) => after[name] === before[name])
}

/** Moves a page to another slug behind the app's back: no change is published. */
const renameInDatabase = (pageId: number, slug: string) =>
  ctx.database.db.updateTable('status_pages').set({ slug }).where('id', '=', pageId).execute()

const fromFastLane = (path: string) => ctx.app.answerFromCache(new Request(`${ctx.config.baseUrl}${path}`))

describe('negative answers are cached briefly', () => {
  test('the badge of an unknown page is served from the cache the second time, with a short max-age', async () => {
    const path = '/badge/ghost.svg?label=Build'
    expect(fromFastLane(path)).toBeUndefined()
    const first = await ctx.request(path)
    expect(first.status).toBe(200)
    expect(first.headers.get('cache-control')).toBe(`public, max-age=${NEGATIVE_TTL_MS / 1000}`)
    const svg = await first.text()
    expect(svg).toContain('Build: Unknown')
    // The fast lane answers only from the cache: the unknown badge is in it now.
    const second = fromFastLane(path)
    expect(second?.status).toBe(200)
    expect(await second!.text()).toBe(svg)
    // Malformed slugs are unknown too, and share one cached answer.
    for (const slug of ['%3Cscript%3E', 'x'.repeat(100)]) await ctx.request(`/badge/${slug}.svg`)
    expect(await fromFastLane('/badge/%3Cscript%3E.svg')?.text()).toContain('Status: Unknown')
    expect(await fromFastLane(`/badge/${'y'.repeat(100)}.svg`)?.text()).toContain('Status: Unknown')
  })

  test('status JSON, snippets and the uptime badge of an unknown page come from the cache too', async () => {
    for (const path of ['/api/embed/status?slug=ghost&inc=1', '/api/embed/markdown?slug=ghost', '/badge/ghost/uptime.svg?days=30']) {
      expect(fromFastLane(path)).toBeUndefined()
      const first = await ctx.request(path)
      const second = fromFastLane(path)
      expect(second?.status).toBe(first.status)
      expect(await second!.text()).toBe(await first.text())
    }
  })

  test('an unknown answer is not looked up again until its short lifetime ends', async () => {
    const page = await ctx.createPage(key, { slug: 'elsewhere', name: 'Moved Here' })
    const answers = answersFor('lurker')
    const before = await readAll(answers)
    await renameInDatabase(page.id, 'lurker')
    // Nothing was published: the cached "unknown" answers stand (proof that they are not looked up).
    expect(await readAll(answers)).toEqual(before)
    ctx.clock.advance(NEGATIVE_TTL_MS - 1)
    expect(await readAll(answers)).toEqual(before)
    ctx.clock.advance(1)
    const after = await readAll(answers)
    expect(Object.keys(answers).filter((name) => after[name] === before[name])).toEqual([])
    expect(after.badge).toContain('Moved Here')
    expect(after.page).toStartWith('200')
  })
})

describe('a page that appears after its slug was asked for shows at once', () => {
  test('created', async () => {
    expect(await unchangedAfter('newcomer', () => api('/status-pages', 'POST', { slug: 'newcomer', name: 'Newcomer' }))).toEqual([])
  })

  test('renamed to the slug', async () => {
    const page = await ctx.createPage(key, { slug: 'before-rename', name: 'Renamed' })
    expect(await unchangedAfter('after-rename', () => api(`/status-pages/${page.id}`, 'PATCH', { slug: 'after-rename' }))).toEqual([])
  })

  test('unblocked', async () => {
    await ctx.createPage(key, { slug: 'paused', name: 'Paused' })
    await ctx.app.services.pages.setBlocked('paused', true)
    expect(await unchangedAfter('paused', () => ctx.app.services.pages.setBlocked('paused', false))).toEqual([])
  })

  test('made public', async () => {
    const page = await ctx.createPage(key, { slug: 'shy', name: 'Shy', visibility: 'private' })
    // The status host of a private page asks for a login (not "unknown"): only the embeds change.
    const unchanged = await unchangedAfter('shy', () => api(`/status-pages/${page.id}`, 'PATCH', { visibility: 'public' }))
    expect(unchanged.filter((name) => !['page', 'summary', 'rss'].includes(name))).toEqual([])
  })

  test('its owner moved to a plan with badges and snippets', async () => {
    const free = await ctx.createOwner('free')
    await ctx.createPage(free.key, { slug: 'cheap', name: 'Cheap' })
    const answers = answersFor('cheap')
    await readAll(answers)
    const before = await readAll(answers)
    expect(before.badge).toContain('Unknown')
    await ctx.app.services.accounts.setPlan(free.user.email, 'growth')
    const after = await readAll(answers)
    expect(after.badge).toContain('Cheap: Operational')
    expect(after.markdown).toStartWith('200')
  })
})
