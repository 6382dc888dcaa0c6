/**
 * A private page without a gate password is locked to every visitor: the API says so on every
 * answer about the page (`warnings`), and takes the password in the create call itself. Real app,
 * real SQLite, real argon2id, the real gate form on the status host.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

const API = '/user/api/v1/status-pages'
const NO_PASSWORD = 'private_without_password'

let ctx: TestContext
let key: string

beforeAll(async () => {
  ctx = await createTestContext({ realPasswords: true })
  key = (await ctx.createOwner('pro')).key
})
afterAll(() => ctx.close())

const create = (body: Record<string, unknown>) => ctx.request(API, { method: 'POST', key, json: body })
const codes = (page: { warnings: Array<{ code: string }> }) => page.warnings.map((w) => w.code)

function unlock(slug: string, password: string) {
  return ctx.request(`https://${slug}.status.test/_lantern/access`, {
    method: 'POST',
    body: new URLSearchParams({ password, next: '/' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.50' },
  })
}

test('private without a password: created, and every answer about the page warns until a password is set', async () => {
  const created = await create({ slug: 'locked', name: 'Locked', visibility: 'private' })
  expect(created.status).toBe(201)
  const page = (await json(created)).data
  expect(page.warnings).toEqual([
    {
      code: NO_PASSWORD,
      message: `This page is private and has no password: no visitor can open it. Set one with PUT /user/api/v1/status-pages/${page.id}/access, or make the page public.`,
    },
  ])
  expect(codes((await json(await ctx.request(`${API}/${page.id}`, { key }))).data)).toEqual([NO_PASSWORD])
  const listed = (await json(await ctx.request(API, { key }))).data.find((p: { id: number }) => p.id === page.id)
  expect(codes(listed)).toEqual([NO_PASSWORD])

  expect((await ctx.request(`${API}/${page.id}/access`, { method: 'PUT', key, json: { password: 'now it opens' } })).status).toBe(200)
  expect((await json(await ctx.request(`${API}/${page.id}`, { key }))).data.warnings).toEqual([])
  expect((await unlock('locked', 'now it opens')).status).toBe(303)
})

test('the password in the create call: the page opens with it at once, no warning', async () => {
  const created = await create({ slug: 'team-only', name: 'Team only', visibility: 'private', password: 'shared with the team' })
  expect(created.status).toBe(201)
  const page = (await json(created)).data
  expect(page.warnings).toEqual([])
  expect((await json(await ctx.request(`${API}/${page.id}/access`, { key }))).data).toEqual({ visibility: 'private', password_set: true, embed_token_set: false })
  expect((await unlock('team-only', 'wrong password here')).status).toBe(401)
  const opened = await unlock('team-only', 'shared with the team')
  expect(opened.status).toBe(303)
  const session = opened.headers.get('set-cookie')!.split(';')[0]!
  const inside = await ctx.request('https://team-only.status.test/', { headers: { cookie: session } })
  expect(inside.status).toBe(200)
  expect(await inside.text()).toContain('Team only')
  // Only the argon2id hash is stored.
  const row = await ctx.database.db.selectFrom('page_access').select('password_hash').where('page_id', '=', page.id).executeTakeFirstOrThrow()
  expect(row.password_hash!.startsWith('$argon2id$')).toBe(true)
})

test('a bad password in the create call is a 400 and creates nothing', async () => {
  for (const [password, error] of [
    ['short', 'password must be at least 8 characters'],
    ['x'.repeat(1025), 'password must be at most 1024 characters'],
    [42, 'password must be a string'],
  ] as const) {
    const refused = await create({ slug: 'not-made', name: 'Not made', visibility: 'private', password })
    expect(refused.status).toBe(400)
    expect(await json(refused)).toEqual({ error })
  }
  expect((await ctx.request(API, { key }).then(json)).data.some((p: { slug: string }) => p.slug === 'not-made')).toBe(false)
})

test('a public page has no warning; making it private without a password brings the warning in the PATCH answer', async () => {
  const page = (await json(await create({ slug: 'open-then-closed', name: 'Open' }))).data
  expect(page.warnings).toEqual([])
  const patched = await ctx.request(`${API}/${page.id}`, { method: 'PATCH', key, json: { visibility: 'private' } })
  expect(codes((await json(patched)).data)).toEqual([NO_PASSWORD])
})
