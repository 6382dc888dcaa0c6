/**
 * The audit log's read API over the real app and database: filters, cursor paging, the acting
 * team's rows only, admins and owners only, bad filters a 400, no route that changes a row, and
 * the CSV's escaping (formula cells get an apostrophe).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
const T0 = Date.UTC(2026, 11, 1, 12)
const HOUR = 3_600_000

beforeAll(async () => {
  ctx = await createTestContext({ now: T0 })
})
afterAll(async () => {
  await ctx.close()
})

type Account = Awaited<ReturnType<TestContext['createOwner']>>
const api = (path: string, key: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })

/** `member` joins `team`'s team with `role` and acts there by a session. */
async function memberSession(team: Account, member: Account, role: string) {
  await ctx.database.db.insertInto('team_members').values({ team_id: team.user.id, user_id: member.account.id, role: role as 'viewer', created_at: ctx.clock.now() }).execute()
  const { accounts } = ctx.app.services
  const token = await accounts.startSession(member.account.id)
  await accounts.chooseTeam((await accounts.authenticateSession(token))!.sessionId!, team.user.id)
  return (path: string, init: RequestInit & { json?: unknown } = {}) =>
    ctx.request(`/user/api/v1${path}`, { ...init, headers: { cookie: `lantern_session=${token}`, origin: ctx.config.baseUrl } })
}

test('filters by person, page, action and dates; pages by cursor; only the acting team', async () => {
  ctx.clock.set(T0)
  const alice = await ctx.createOwner('enterprise')
  const bob = await ctx.createOwner('enterprise')
  const carol = await ctx.createOwner('enterprise')
  const one = await ctx.createPage(alice.key, { slug: `audit-a-${crypto.randomUUID().slice(0, 6)}`, name: 'One' })
  ctx.clock.set(T0 + HOUR)
  const two = await ctx.createPage(alice.key, { slug: `audit-b-${crypto.randomUUID().slice(0, 6)}`, name: 'Two' })
  ctx.clock.set(T0 + 2 * HOUR)
  expect((await api(`/status-pages/${one.id}`, alice.key, { method: 'PATCH', json: { name: 'One again' } })).status).toBe(200)
  ctx.clock.set(T0 + 3 * HOUR)
  expect((await api(`/status-pages/${two.id}`, alice.key, { method: 'PATCH', json: { name: 'Two again' } })).status).toBe(200)
  // Carol, an admin of Alice's team, changes a page too; Bob writes in his own team only.
  const asCarol = await memberSession(alice, carol, 'admin')
  ctx.clock.set(T0 + 4 * HOUR)
  expect((await asCarol(`/status-pages/${one.id}`, { method: 'PATCH', json: { name: 'By Carol' } })).status).toBe(200)
  await ctx.createPage(bob.key, { slug: `audit-bob-${crypto.randomUUID().slice(0, 6)}`, name: 'Bob' })

  const all = await json(await api('/team/audit', alice.key))
  expect(all.data.map((r: { action: string; page_id: number | null }) => [r.action, r.page_id])).toEqual([
    ['status-pages.patch', one.id],
    ['status-pages.patch', two.id],
    ['status-pages.patch', one.id],
    ['status-pages.post', null],
    ['status-pages.post', null],
  ])
  expect(all.meta).toEqual({ count: 5, next_cursor: null })
  const newest = all.data[0]
  expect(newest).toMatchObject({ actor_kind: 'person', actor_user_id: carol.account.id, actor_label: carol.user.email, fields: ['name'], created_at: new Date(T0 + 4 * HOUR).toISOString(), object_type: '/user/api/v1/status-pages/:id', object_id: String(one.id) })
  // A route that names no id (a create) has no object id: null, not the text "null".
  expect(all.data[4]).toMatchObject({ action: 'status-pages.post', object_id: null })
  expect(all.data[1]).toMatchObject({ actor_kind: 'api_key', actor_user_id: alice.account.id, actor_label: `${alice.user.email} (API key test)` })

  const ids = async (query: string, key = alice.key) => {
    const response = await api(`/team/audit?${query}`, key)
    expect(response.status).toBe(200)
    return (await json(response)).data.map((r: { id: number }) => r.id) as number[]
  }
  const [c4, a3, a2, p2, p1] = all.data.map((r: { id: number }) => r.id) as number[]
  expect(await ids(`page_id=${one.id}`)).toEqual([c4!, a2!])
  expect(await ids(`actor=${carol.account.id}`)).toEqual([c4!])
  expect(await ids(`actor=${alice.account.id}&action=status-pages.post`)).toEqual([p2!, p1!])
  expect(await ids(`from=${new Date(T0 + HOUR).toISOString()}&to=${new Date(T0 + 3 * HOUR).toISOString()}`)).toEqual([a2!, p2!])
  expect(await ids('from=2026-12-02')).toEqual([])
  expect(await ids('to=2026-12-01')).toEqual([c4!, a3!, a2!, p2!, p1!])

  // Two by two: the cursor walks to the oldest row and no row twice.
  const seen: number[] = []
  let cursor: number | null = null
  for (let pages = 0; pages < 5; pages++) {
    const body: { data: Array<{ id: number }>; meta: { count: number; next_cursor: number | null } } = await json(await api(`/team/audit?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`, alice.key))
    seen.push(...body.data.map((r) => r.id))
    cursor = body.meta.next_cursor
    if (cursor === null) break
  }
  expect(seen).toEqual([c4!, a3!, a2!, p2!, p1!])

  // Bob sees his one row, never Alice's, whatever he filters by.
  expect((await ids('', bob.key)).length).toBe(1)
  expect(await ids(`page_id=${one.id}`, bob.key)).toEqual([])
  expect(await ids(`actor=${alice.account.id}`, bob.key)).toEqual([])
})

test('a viewer, a responder and an editor are refused; an admin and the owner read', async () => {
  const alice = await ctx.createOwner('enterprise')
  for (const role of ['viewer', 'responder', 'editor']) {
    const other = await ctx.createOwner('enterprise')
    const as = await memberSession(alice, other, role)
    expect((await as('/team/audit')).status).toBe(403)
    expect((await as('/team/audit.csv')).status).toBe(403)
  }
  const admin = await memberSession(alice, await ctx.createOwner('enterprise'), 'admin')
  expect((await admin('/team/audit')).status).toBe(200)
  expect((await api('/team/audit', alice.key)).status).toBe(200)
  expect((await ctx.request('/user/api/v1/team/audit')).status).toBe(401)
})

test('bad filters are a 400 with a clear message, never a 500', async () => {
  const alice = await ctx.createOwner('enterprise')
  const cases: Array<[string, string]> = [
    ['from=yesterday', 'from must be'],
    ['to=2026-02-30', 'to must be'],
    ['from=2026-12-02&to=2026-12-01', 'to must be after from'],
    ['limit=0', 'limit must be'],
    ['limit=201', 'limit must be'],
    ['limit=2.5', 'limit must be'],
    ['cursor=-1', 'cursor must be'],
    ['actor=abc', 'actor must be'],
    ['page_id=1e308', 'page_id must be'],
    ['action=DROP%20TABLE', 'action must be'],
    [`action=${'a'.repeat(101)}`, 'action must be'],
  ]
  for (const [query, message] of cases) {
    // The CSV has no paging: `limit` and `cursor` are the JSON read's only.
    for (const path of /^(limit|cursor)=/.test(query) ? ['/team/audit'] : ['/team/audit', '/team/audit.csv']) {
      const response = await api(`${path}?${query}`, alice.key)
      expect({ query, path, status: response.status }).toEqual({ query, path, status: 400 })
      expect((await json(response)).error).toContain(message)
    }
  }
})

test('no route changes or deletes a row, and reading leaves no row', async () => {
  const alice = await ctx.createOwner('enterprise')
  await ctx.createPage(alice.key, { slug: `audit-keep-${crypto.randomUUID().slice(0, 6)}`, name: 'Keep' })
  const before = await json(await api('/team/audit', alice.key))
  expect(before.data.length).toBe(1)
  const id = before.data[0].id
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    for (const path of ['/team/audit', `/team/audit/${id}`, '/team/audit.csv']) {
      const response = await api(path, alice.key, { method, json: { action: 'x' } })
      expect({ method, path, ok: response.ok }).toEqual({ method, path, ok: false })
    }
  }
  // The router holds no write on an audit path at all.
  const writes = ctx.app.routes.service.filter((r) => r.path.includes('audit') && !['GET', 'HEAD'].includes(r.method))
  expect(writes).toEqual([])
  expect(await json(await api('/team/audit', alice.key))).toEqual(before)
})

test('the CSV: same filters, RFC 4180 quoting, formula cells defused', async () => {
  const alice = await ctx.createOwner('enterprise')
  await ctx.createPage(alice.key, { slug: `audit-csv-${crypto.randomUUID().slice(0, 6)}`, name: 'Csv' })
  const at = ctx.clock.now()
  const row = { team_id: alice.user.id, actor_user_id: alice.account.id, page_id: null, object_type: '/x', object_id: null, address: '127.0.0.1', created_at: at }
  await ctx.database.db
    .insertInto('audit_log')
    .values([
      { ...row, actor_kind: 'system', actor_label: '=HYPERLINK("http://evil")', action: 'evil.post', summary: '{"fields":["a"]}', client: '+1,"two"\nlines' },
      { ...row, actor_kind: 'system', actor_label: '@SUM(A1)', action: 'evil.post', summary: '{"fields":[]}', client: '-3' },
    ])
    .execute()
  const response = await api('/team/audit.csv?action=evil.post', alice.key)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toContain('text/csv')
  expect(response.headers.get('content-disposition')).toContain('attachment')
  const text = await response.text()
  const lines = text.split('\r\n')
  expect(lines[0]).toBe('id,created_at,actor_kind,actor_user_id,actor,page_id,action,object_type,object_id,fields,address,client')
  expect(lines.length).toBe(4) // header, two rows (a quoted LF inside one), the final CRLF
  expect(text).toContain(`,system,${alice.account.id},@SUM(A1),`.replace('@SUM', "'@SUM"))
  expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`)
  expect(text).toContain(`"'+1,""two""\nlines"`)
  expect(text).toContain(",'-3")
  expect(text).not.toContain('status-pages.post')
  const everything = await (await api('/team/audit.csv', alice.key)).text()
  expect(everything).toContain('status-pages.post')
})
