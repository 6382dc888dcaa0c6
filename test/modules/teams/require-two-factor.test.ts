/**
 * A team that requires two-factor of its members, over the real app and database (SQLite, and
 * PostgreSQL with LANTERN_TEST_POSTGRES): `PATCH /user/api/v1/team` is the admin's and the owner's
 * (a viewer and an editor are 403), comes with the Business plan and up (403 naming the plans), and
 * the one turning it on must have two-factor (409); `GET /team` and the members show it. Then a
 * member without two-factor is refused (403) by session, but for their own account's routes, and
 * cannot make an API key there; an API key made before still works (keys are not subject).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { totpCode } from '../../../src/lib/totp.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext

beforeAll(async () => {
  // No SMTP settings: mail is off, an invitation answers its link.
  ctx = await createTestContext({ now: Date.UTC(2026, 11, 7, 12) })
})
afterAll(async () => {
  await ctx.close()
})

type Account = Awaited<ReturnType<TestContext['createOwner']>>

const api = (path: string, key: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
const requireIt = (key: string, on: boolean) => api('/team', key, { method: 'PATCH', json: { require_two_factor: on } })

/** `account` joins the team of `by`'s key with `role`, through the link an invitation answers. */
async function join(by: Account, account: Account, role: string): Promise<void> {
  const sent = await api('/team/invitations', by.key, { method: 'POST', json: { email: account.user.email, role } })
  expect(sent.status).toBe(201)
  const token = /\/user\/invitations\/([A-Za-z0-9_-]{43})$/.exec((await json(sent)).data.link)![1]!
  expect((await api(`/invitations/${token}/accept`, account.key, { method: 'POST' })).status).toBe(200)
}

/** A browser session of `account` acting in `teamId`, as the team switcher leaves it. */
async function sessionIn(account: Account, teamId: number) {
  const { accounts } = ctx.app.services
  const token = await accounts.startSession(account.account.id)
  await accounts.chooseTeam((await accounts.authenticateSession(token))!.sessionId!, teamId)
  return (path: string, init: RequestInit & { json?: unknown } = {}) =>
    ctx.request(`/user/api/v1${path}`, { ...init, headers: { cookie: `lantern_session=${token}`, origin: ctx.config.baseUrl } })
}

async function enrol(account: Account): Promise<void> {
  const { twoFactor } = ctx.app.services
  const user = { id: account.account.id, email: account.account.email }
  const { secret } = await twoFactor.beginEnrolment(user)
  await twoFactor.confirmEnrolment(user, await totpCode(secret, ctx.clock.now()), '127.0.0.1')
}

test('a plan without it is refused with a 403 that names the plans that have it; turning it off stays possible', async () => {
  const pro = await ctx.createOwner('pro')
  await enrol(pro)
  const refused = await requireIt(pro.key, true)
  expect(refused.status).toBe(403)
  const { error } = await json(refused)
  expect(error).toContain('Business, OSS Hero or Enterprise')
  expect(error).toContain('on Pro')
  expect((await json(await api('/team', pro.key))).data.require_two_factor).toBe(false)
  const off = await requireIt(pro.key, false)
  expect(off.status).toBe(200)
  expect((await json(off)).data.require_two_factor).toBe(false)
  expect((await requireIt(pro.key, 'yes' as unknown as boolean)).status).toBe(400)
})

test('admins and owners turn it on (with two-factor themselves) and off; members without it are held to their own account', async () => {
  const alice = await ctx.createOwner('business')
  const admin = await ctx.createOwner('free')
  const editor = await ctx.createOwner('free')
  const viewer = await ctx.createOwner('free')
  await join(alice, admin, 'admin')
  await join(alice, editor, 'editor')
  await join(alice, viewer, 'viewer')
  const team = alice.user.id
  const [asAdmin, asEditor, asViewer] = await Promise.all([sessionIn(admin, team), sessionIn(editor, team), sessionIn(viewer, team)])

  // A viewer and an editor may not change it.
  for (const as of [asViewer, asEditor]) {
    const refused = await as('/team', { method: 'PATCH', json: { require_two_factor: true } })
    expect(refused.status).toBe(403)
    expect((await json(refused)).error).toContain('may not do this')
  }
  // The owner without two-factor: 409, with the fix.
  const locked = await requireIt(alice.key, true)
  expect(locked.status).toBe(409)
  expect((await json(locked)).error).toContain('turn on two-factor sign-in for your own account first')
  expect((await json(await api('/team', alice.key))).data.require_two_factor).toBe(false)

  // The editor makes an API key in the team while it is optional.
  const made = await asEditor('/api-keys', { method: 'POST', json: { name: 'deploys' } })
  expect(made.status).toBe(201)
  const editorKey = (await json(made)).data.key as string

  await enrol(alice)
  const on = await requireIt(alice.key, true)
  expect(on.status).toBe(200)
  expect((await json(on)).data).toMatchObject({ id: team, require_two_factor: true })
  expect((await json(await api('/team', alice.key))).data.require_two_factor).toBe(true)
  const listed = (await json(await api('/teams', alice.key))).data as Array<{ id: number; require_two_factor: boolean }>
  expect(listed.find((t) => t.id === team)!.require_two_factor).toBe(true)
  const members = (await json(await api('/team/members', alice.key))).data as Array<{ email: string; two_factor: boolean }>
  expect(members.map((m) => [m.email, m.two_factor])).toEqual([
    [alice.user.email, true],
    [admin.user.email, false],
    [editor.user.email, false],
    [viewer.user.email, false],
  ])

  // Members without two-factor, by session: the team's routes are 403 with why, reads and writes.
  for (const response of [
    await asEditor('/status-pages', { method: 'POST', json: { slug: `by-editor-${team}`, name: 'By editor' } }),
    await asViewer('/status-pages'),
    await asAdmin('/team', { method: 'PATCH', json: { require_two_factor: false } }),
  ]) {
    expect(response.status).toBe(403)
    expect((await json(response)).error).toContain('requires two-factor sign-in')
  }
  // Their own account still answers, but a new API key (which would skip two-factor) is refused.
  expect((await asEditor('/sessions')).status).toBe(200)
  expect((await asEditor('/teams')).status).toBe(200)
  expect((await asEditor('/api-keys', { method: 'POST', json: { name: 'bypass' } })).status).toBe(403)
  // The key made before is not subject to two-factor: it reads and writes.
  expect((await api('/team', editorKey)).status).toBe(200)
  expect((await api('/status-pages', editorKey, { method: 'POST', json: { slug: `by-key-${team}`, name: 'By key' } })).status).toBe(201)

  // Enrolled, the admin acts again, and turns it off; then the others act again too.
  await enrol(admin)
  expect((await asAdmin('/team')).status).toBe(200)
  const off = await asAdmin('/team', { method: 'PATCH', json: { require_two_factor: false } })
  expect(off.status).toBe(200)
  expect((await json(off)).data.require_two_factor).toBe(false)
  expect((await asViewer('/status-pages')).status).toBe(200)
  // Every change was written to the audit log with the field's name.
  const audit = (await json(await api('/team/audit', alice.key))).data as Array<{ action: string; fields: string[] }>
  expect(audit.filter((row) => row.action === 'team.patch').map((row) => row.fields)).toEqual([['require_two_factor'], ['require_two_factor']])
})
