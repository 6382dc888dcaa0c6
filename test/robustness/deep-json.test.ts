/**
 * Bodies nested thousands of levels deep (a few KB each) are refused with a 400 on every body route,
 * whatever parser read them (JSON, or a multipart field that Elysia reads as JSON), before any
 * validation message is built from the value. Nothing is created, nothing is logged as an error.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createApp, type App } from '../../src/app.ts'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'

let ctx: TestContext
let app: App
let key: string
let pageId: number
const logged: unknown[] = []

const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)
const DEEP = deepArray(4500)

beforeAll(async () => {
  ctx = await createTestContext({ env: { SIGNUP: 'open' } })
  // The same database behind an app whose unexpected errors are recorded.
  app = createApp({ db: ctx.database.db, config: ctx.config, clock: ctx.clock, passwords: ctx.passwords, logError: (error) => logged.push(error) })
  key = (await ctx.createOwner('enterprise')).key
  pageId = (await ctx.createPage(key, { slug: 'deep', name: 'Deep' })).id
})
afterAll(() => ctx.close())

const send = (path: string, method: string, body: BodyInit, contentType?: string, withKey = true) => {
  const headers = new Headers({ origin: ctx.config.baseUrl })
  if (contentType) headers.set('content-type', contentType)
  if (withKey) headers.set('authorization', `Bearer ${key}`)
  return app.handle(new Request(`${ctx.config.baseUrl}${path}`, { method, headers, body }))
}

const multipart = (fields: Record<string, string>) => {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  return form
}

test('deeply nested JSON is a 400 on every body route, the login and sign-up forms included', async () => {
  const cases: Array<[string, string, BodyInit, string | undefined]> = [
    ['/user/api/v1/status-pages', 'POST', `{"slug":"x","name":${DEEP}}`, 'application/json'],
    ['/user/api/v1/status-pages', 'POST', DEEP, 'application/json'],
    ['/user/api/v1/status-pages', 'POST', `{"slug":"deeper","name":"Deeper","extra":${deepObject(3000)}}`, 'application/json'],
    [`/user/api/v1/status-pages/${pageId}`, 'PATCH', `{"name":${DEEP}}`, 'application/json'],
    [`/user/api/v1/status-pages/${pageId}/components`, 'POST', `{"name":${DEEP}}`, 'application/json'],
    [`/user/api/v1/status-pages/${pageId}/branding`, 'PATCH', `{"palette":${deepObject(3000)}}`, 'application/json'],
    ['/user/api/v1/incidents', 'POST', `{"status_page_id":${pageId},"title":${DEEP}}`, 'application/json'],
    ['/user/login', 'POST', `{"email":${DEEP},"password":"x"}`, 'application/json'],
    ['/user/login', 'POST', multipart({ email: DEEP, password: 'x' }), undefined],
    ['/user/signup', 'POST', `{"email":${DEEP},"password":"long enough password"}`, 'application/json'],
    ['/user/signup', 'POST', multipart({ email: deepObject(3000), password: 'long enough password' }), undefined],
    ['/user/password', 'POST', multipart({ current_password: DEEP, new_password: 'x' }), undefined],
  ]
  const answers: string[] = []
  for (const [path, method, body, type] of cases) {
    const response = await send(path, method, body, type, !path.startsWith('/user/login') && !path.startsWith('/user/signup'))
    answers.push(`${method} ${path} -> ${response.status} ${(await response.text()).slice(0, 80)}`)
  }
  expect(answers).toEqual(cases.map(([path, method]) => `${method} ${path} -> 400 {"error":"request body is nested too deeply (at most 32 levels)"}`))
  expect(logged).toEqual([])
  const pages = await json(await send('/user/api/v1/status-pages', 'GET', null as unknown as BodyInit))
  expect(pages.data.map((p: { slug: string }) => p.slug)).toEqual(['deep'])
})

test('ordinary nesting still passes: a history import and a palette', async () => {
  const component = await json(await send(`/user/api/v1/status-pages/${pageId}/components`, 'POST', '{"name":"API"}', 'application/json'))
  const history = await send(`/user/api/v1/components/${component.data.id}/history`, 'POST', JSON.stringify([{ status: 'up', at: '2026-10-01T00:00:00Z' }]), 'application/json')
  expect(history.status).toBe(200)
  const branding = await send(`/user/api/v1/status-pages/${pageId}/branding`, 'PATCH', JSON.stringify({ palette: { primary: '#123456' } }), 'application/json')
  expect(branding.status).toBe(200)
  // 32 levels is the limit; 33 is refused.
  const at = (levels: number) => send(`/user/api/v1/status-pages/${pageId}`, 'PATCH', `{"name":"Deep","x":${deepObject(levels - 1)}}`, 'application/json')
  expect((await at(32)).status).toBe(200)
  expect((await at(33)).status).toBe(400)
})
