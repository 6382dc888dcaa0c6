/**
 * Members and invitations over the real app, real SQLite and a real SMTP server: the invitation
 * mail and its single-use link (another account's token, reuse, revocation, expiry), seats from
 * the plan, role changes and removal taking effect on the next request, and a viewer refused
 * every write with nothing changed.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'

const DAY = 86_400_000

let smtp: SmtpHarness
let ctx: TestContext

beforeAll(async () => {
  smtp = await startSmtp()
  ctx = await createTestContext({ env: { ...smtp.env }, now: Date.UTC(2026, 11, 6, 12) })
})
afterAll(async () => {
  await ctx.close()
  await smtp.close()
})

type Account = Awaited<ReturnType<TestContext['createOwner']>>

const api = (path: string, key: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
const invite = (by: Account, email: string, role: string) => api('/team/invitations', by.key, { method: 'POST', json: { email, role } })
const accept = (token: string, as: Account) => api(`/invitations/${token}/accept`, as.key, { method: 'POST' })

/** The token of the newest invitation mail to `to`. */
async function invitationToken(to: string): Promise<string> {
  await ctx.app.services.outboxWorker.drain()
  const mail = await smtp.waitFor((m) => m.to === to && m.subject.includes('invites you'))
  const link = /https?:\/\/\S+\/user\/invitations\/([A-Za-z0-9_-]{43})/.exec(mail.text)
  expect(link).not.toBeNull()
  return link![1]!
}

/** A browser session of `account` acting in `teamId`, as the web app's team switcher would leave it. */
async function sessionIn(account: Account, teamId: number) {
  const { accounts } = ctx.app.services
  const token = await accounts.startSession(account.account.id)
  await accounts.chooseTeam((await accounts.authenticateSession(token))!.sessionId!, teamId)
  return (path: string, init: RequestInit & { json?: unknown } = {}) =>
    ctx.request(`/user/api/v1${path}`, { ...init, headers: { cookie: `lantern_session=${token}`, origin: ctx.config.baseUrl } })
}

test('an invitation is mailed, works once and only for its address; seats come from the plan', async () => {
  const alice = await ctx.createOwner('pro')
  const bob = await ctx.createOwner('enterprise')
  const carol = await ctx.createOwner('enterprise')

  const sent = await invite(alice, bob.user.email, 'viewer')
  expect(sent.status).toBe(201)
  expect((await json(sent)).data).toMatchObject({ email: bob.user.email, role: 'viewer', link: null })
  // The same address again, a member, a role above one's own, a bad address: refused, nothing sent.
  expect((await invite(alice, bob.user.email, 'editor')).status).toBe(409)
  expect((await invite(alice, alice.user.email, 'viewer')).status).toBe(409)
  expect((await invite(alice, 'not-an-address', 'viewer')).status).toBe(400)
  expect((await invite(alice, 'x@example.com', 'boss')).status).toBe(400)

  const token = await invitationToken(bob.user.email)
  // Another account's token is unknown to it; the invitee joins with the role chosen; once.
  expect((await accept(token, carol)).status).toBe(404)
  const joined = await accept(token, bob)
  expect(joined.status).toBe(200)
  expect((await json(joined)).data).toMatchObject({ id: alice.user.id, role: 'viewer', personal: true })
  expect((await accept(token, bob)).status).toBe(410)
  const members = (await json(await api('/team/members', alice.key))).data as Array<{ email: string; role: string }>
  expect(members.map((m) => [m.email, m.role])).toEqual([[alice.user.email, 'owner'], [bob.user.email, 'viewer']])

  // Pro has 3 seats: Alice, Bob and one pending invitation; a fourth is refused.
  expect((await invite(alice, 'dave@example.com', 'editor')).status).toBe(201)
  const full = await invite(alice, 'erin@example.com', 'editor')
  expect(full.status).toBe(409)
  expect((await json(full)).error).toContain('3 seats')
  expect((await json(await api('/team', alice.key))).data.seats).toEqual({ used: 3, limit: 3 })
  // Revoked, Dave's link stops working and the seat is free again.
  const pending = (await json(await api('/team/invitations', alice.key))).data as Array<{ id: number; email: string }>
  const dave = pending.find((i) => i.email === 'dave@example.com')!
  const daveAccount = await ctx.createOwner('free', 'dave@example.com')
  const daveToken = await invitationToken('dave@example.com')
  expect((await api(`/team/invitations/${dave.id}`, alice.key, { method: 'DELETE' })).status).toBe(200)
  expect((await accept(daveToken, daveAccount)).status).toBe(410)
  expect((await json(await api('/team', alice.key))).data.seats).toEqual({ used: 2, limit: 3 })

  // An invitation expires after 7 days.
  const frank = await ctx.createOwner('free', 'frank@example.com')
  expect((await invite(alice, frank.user.email, 'responder')).status).toBe(201)
  const frankToken = await invitationToken(frank.user.email)
  ctx.clock.advance(7 * DAY + 1)
  expect((await accept(frankToken, frank)).status).toBe(410)
  expect((await json(await api('/team/members', alice.key))).data).toHaveLength(2)
})

test('a viewer reads and cannot write; a role change and a removal count from the next request', async () => {
  const alice = await ctx.createOwner('enterprise')
  const bob = await ctx.createOwner('enterprise')
  const page = await ctx.createPage(alice.key, { slug: `team-page-${crypto.randomUUID().slice(0, 6)}`, name: 'Team page' })
  expect((await invite(alice, bob.user.email, 'viewer')).status).toBe(201)
  expect((await accept(await invitationToken(bob.user.email), bob)).status).toBe(200)

  const asBob = await sessionIn(bob, alice.user.id)
  const listed = (await json(await asBob('/status-pages'))).data as Array<{ id: number }>
  expect(listed.map((p) => p.id)).toEqual([page.id])
  // A viewer's writes are 403 and change nothing.
  const refused = [
    await asBob('/status-pages', { method: 'POST', json: { slug: 'by-bob', name: 'By Bob' } }),
    await asBob(`/status-pages/${page.id}`, { method: 'PATCH', json: { name: 'Renamed' } }),
    await asBob(`/team/members/${bob.account.id}`, { method: 'PATCH', json: { role: 'admin' } }),
    await asBob('/team/invitations', { method: 'POST', json: { email: 'x@example.com', role: 'viewer' } }),
  ]
  expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403])
  expect(((await json(await api('/status-pages', alice.key))).data as Array<{ name: string }>).map((p) => p.name)).toEqual(['Team page'])
  expect((await json(await api('/team/members', alice.key))).data.map((m: { role: string }) => m.role)).toEqual(['owner', 'viewer'])

  // Made editor, Bob's next request may write in Alice's team.
  expect((await api(`/team/members/${bob.account.id}`, alice.key, { method: 'PATCH', json: { role: 'editor' } })).status).toBe(200)
  expect((await asBob(`/status-pages/${page.id}`, { method: 'PATCH', json: { name: 'Renamed by Bob' } })).status).toBe(200)
  // An editor cannot make himself admin; the last owner cannot step down.
  expect((await asBob(`/team/members/${bob.account.id}`, { method: 'PATCH', json: { role: 'admin' } })).status).toBe(403)
  expect((await api(`/team/members/${alice.account.id}`, alice.key, { method: 'PATCH', json: { role: 'admin' } })).status).toBe(409)

  // Removed, Bob acts in his own team again at once: Alice's page is out of reach.
  expect((await api(`/team/members/${bob.account.id}`, alice.key, { method: 'DELETE' })).status).toBe(200)
  expect((await json(await asBob('/status-pages'))).data).toEqual([])
  expect((await asBob(`/status-pages/${page.id}`, { method: 'PATCH', json: { name: 'Too late' } })).status).toBe(404)
})

test('a person creates a team and finds it among theirs', async () => {
  const alice = await ctx.createOwner('growth')
  const created = await api('/teams', alice.key, { method: 'POST', json: { name: 'Acme operations' } })
  expect(created.status).toBe(201)
  const team = (await json(created)).data
  expect(team).toMatchObject({ name: 'Acme operations', plan: 'growth', personal: false, role: 'owner' })
  const mine = (await json(await api('/teams', alice.key))).data as Array<{ id: number; personal: boolean }>
  expect(mine.map((t) => [t.id, t.personal])).toEqual([[alice.user.id, true], [team.id, false]])
  expect((await api('/teams', alice.key, { method: 'POST', json: { name: '' } })).status).toBe(400)
})

test('every successful write to an owner route leaves an audit row with field names only, a refused one none', async () => {
  const alice = await ctx.createOwner('enterprise')
  const bob = await ctx.createOwner('enterprise')
  const page = await ctx.createPage(alice.key, { slug: `audited-${crypto.randomUUID().slice(0, 6)}`, name: 'Audited' })
  expect((await api(`/status-pages/${page.id}`, alice.key, { method: 'PATCH', json: { name: 'Audited again' } })).status).toBe(200)
  expect((await api(`/status-pages/${page.id}`, bob.key, { method: 'PATCH', json: { name: 'Not yours' } })).status).toBe(404)
  const rows = await ctx.database.db.selectFrom('audit_log').selectAll().where('team_id', 'in', [alice.user.id, bob.user.id]).orderBy('id').execute()
  expect(rows.map((r) => [r.team_id, r.actor_kind, r.action, r.page_id, r.summary])).toEqual([
    [alice.user.id, 'api_key', 'status-pages.post', null, '{"fields":["name","slug"]}'],
    [alice.user.id, 'api_key', 'status-pages.patch', page.id, '{"fields":["name"]}'],
  ])
  expect(rows[0]!.actor_label).toBe(`${alice.user.email} (API key test)`)
})

test('an API key carries a role no higher than its member’s, chosen when it is made; the key acts with it', async () => {
  const alice = await ctx.createOwner('enterprise')
  const bob = await ctx.createOwner('enterprise')
  expect((await invite(alice, bob.user.email, 'editor')).status).toBe(201)
  expect((await accept(await invitationToken(bob.user.email), bob)).status).toBe(200)
  const asBob = await sessionIn(bob, alice.user.id)

  // Above one's own role: refused, named, nothing made.
  const above = await asBob('/api-keys', { method: 'POST', json: { name: 'too much', role: 'admin' } })
  expect(above.status).toBe(400)
  expect((await json(above)).error).toBe('role cannot be above your own (Editor)')
  const unknown = await asBob('/api-keys', { method: 'POST', json: { name: 'what', role: 'boss' } })
  expect(unknown.status).toBe(400)
  expect((await json(unknown)).error).toContain('role must be one of owner, admin, editor, responder, viewer')

  // No role: the member's own; a lower one when asked.
  const own = await json(await asBob('/api-keys', { method: 'POST', json: { name: 'deploys' } }))
  expect(own.data).toMatchObject({ name: 'deploys', role: 'editor' })
  const low = await json(await asBob('/api-keys', { method: 'POST', json: { name: 'status script', role: 'viewer' } }))
  expect(low.data).toMatchObject({ name: 'status script', role: 'viewer' })
  const listed = (await json(await asBob('/api-keys'))).data as Array<{ name: string; role: string }>
  expect(listed.filter((k) => k.name !== 'test').map((k) => [k.name, k.role])).toEqual([['deploys', 'editor'], ['status script', 'viewer']])

  // The viewer key reads Alice's team and changes nothing; the editor key may.
  expect((await api('/status-pages', low.data.key)).status).toBe(200)
  const refused = await api('/status-pages', low.data.key, { method: 'POST', json: { name: 'Viewer page', slug: `viewer-${bob.user.id}` } })
  expect(refused.status).toBe(403)
  expect((await api('/status-pages', own.data.key, { method: 'POST', json: { name: 'Editor page', slug: `editor-${bob.user.id}` } })).status).toBe(201)
  const pages = (await json(await api('/status-pages', alice.key))).data as Array<{ name: string }>
  expect(pages.map((p) => p.name)).toContain('Editor page')
  expect(pages.map((p) => p.name)).not.toContain('Viewer page')

  // A control character in the name is a 400, not a 500 on PostgreSQL.
  const nul = await asBob('/api-keys', { method: 'POST', json: { name: 'a\u0000b' } })
  expect(nul.status).toBe(400)
})
