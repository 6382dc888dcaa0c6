/**
 * What the web app says, as the browser receives it: "an Email channel", "1 component", the webhook
 * hint naming what is accepted (https and http); and a sweep of the owner's screens for the same
 * faults anywhere (an article that does not fit its word, "1" before a plural). Real app, real
 * SQLite, HTTP through `app.handle`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { article, counted, noun, withArticle } from '../../src/lib/words.ts'
import { CHANNEL_TYPES } from '../../src/modules/channels/types.ts'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'
import { loginCookie } from '../modules/analytics/helpers.ts'

let ctx: TestContext
let cookie: string
let key: string
let pageId: number

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 10, 23, 12, 0, 0) })
  const owner = await ctx.createOwner('business')
  key = owner.key
  cookie = await loginCookie(ctx, owner.user.email)
  pageId = (await ctx.createPage(key, { slug: 'copy', name: 'Copy' })).id
  const component = await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name: 'API' } })
  const componentId = (await json(component)).data.id
  const automation = await ctx.request(`/user/api/v1/status-pages/${pageId}/auto-incidents`, { method: 'PATCH', key, json: { auto_incidents: true, component_ids: [componentId] } })
  expect(automation.status).toBe(200)
})
afterAll(() => ctx.close())

const text = async (path: string) => {
  const response = await ctx.request(path, { headers: { cookie, accept: 'text/html' } })
  expect({ path, status: response.status }).toEqual({ path, status: 200 })
  // Snippets shown as code are escaped markup: decoded first, so their tags go with the others.
  return (await response.text())
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#?\w+;/g, ' ')
    .replace(/\s+/g, ' ')
}

test('words: plurals by Intl.PluralRules, articles by how the word is read', () => {
  expect([counted(0, 'component'), counted(1, 'component'), counted(2, 'component'), counted(1_000, 'lookup')]).toEqual(['0 components', '1 component', '2 components', '1,000 lookups'])
  expect(counted(1, 'address', 'addresses')).toBe('1 address')
  expect(noun(3, 'timeline entry', 'timeline entries')).toBe('timeline entries')
  expect(['Email channel', 'Slack channel', 'SSL monitor', 'DNS monitor', 'URL', 'unspecified address', 'unique local address', 'hour', 'user', 'MX record', 'ntfy topic', 'README'].map(withArticle)).toEqual([
    'an Email channel',
    'a Slack channel',
    'an SSL monitor',
    'a DNS monitor',
    'a URL',
    'an unspecified address',
    'a unique local address',
    'an hour',
    'a user',
    'an MX record',
    'an ntfy topic',
    'a README',
  ])
})

describe('the faults the issue names', () => {
  test('"Add an Email channel", "Add a Slack channel"', async () => {
    expect(await text('/user/notifications/new?type=email')).toContain('Add an Email channel')
    expect(await text('/user/notifications/new?type=slack')).toContain('Add a Slack channel')
  })

  test('"1 component has automatic incidents on"', async () => {
    const screen = await text(`/user/pages/${pageId}/auto-incidents`)
    expect(screen).toContain('1 component has automatic incidents on')
  })

  test('the webhook hint says http is taken too, and it is', async () => {
    const screen = await text('/user/notifications/new?type=webhook')
    expect(screen).toContain('https, or plain http')
    const created = await ctx.request('/user/api/v1/notification-channels', { method: 'POST', key, json: { type: 'webhook', name: 'plain', url: 'http://hooks.example.com/lantern', secret: 'a-secret-of-16-chars-or-more' } })
    expect(created.status).toBe(201)
    const refused = await ctx.request('/user/api/v1/notification-channels', { method: 'POST', key, json: { type: 'webhook', name: 'ftp', url: 'ftp://hooks.example.com/', secret: 'a-secret-of-16-chars-or-more' } })
    expect(await json(refused)).toEqual({ error: 'url must be an absolute https or http URL' })
  })
})

test('a sweep of the owner screens: every "a"/"an" fits its word, no "1" before a plural', async () => {
  const paths = [
    '/user',
    `/user/pages/${pageId}`,
    `/user/pages/${pageId}/components`,
    `/user/pages/${pageId}/auto-incidents`,
    `/user/pages/${pageId}/subscribers`,
    `/user/pages/${pageId}/incidents`,
    `/user/pages/${pageId}/maintenance`,
    `/user/pages/${pageId}/branding`,
    `/user/pages/${pageId}/access`,
    `/user/pages/${pageId}/embed`,
    `/user/pages/${pageId}/sla`,
    '/user/notifications',
    ...CHANNEL_TYPES.map((type) => `/user/notifications/new?type=${type}`),
    '/user/monitors',
    '/user/monitors/new',
    '/user/tools',
    '/user/account',
    '/user/plan',
  ]
  const faults: string[] = []
  for (const path of paths) {
    const screen = await text(path)
    for (const [, said, word] of screen.matchAll(/\b(a|an|A|An) ([A-Za-z][\w-]*)/g)) {
      if (article(word!) !== said!.toLowerCase()) faults.push(`${path}: "${said} ${word}"`)
    }
    // "1 s", "1 ms" are units, not plurals.
    for (const [found] of screen.matchAll(/\b1 (?!ms\b|s\b)[a-z]+s\b/g)) faults.push(`${path}: "${found}"`)
  }
  expect(faults).toEqual([])
})
