/**
 * A team's claim of an email domain for single sign-on, over the real app and database (SQLite,
 * and PostgreSQL with LANTERN_TEST_POSTGRES): `PUT /user/api/v1/team/sso-domain` is the admin's and
 * the owner's (an editor is 403), takes only the domain of one's own address unless one administers
 * the instance (403), never the owner role nor a role above one's own (400/422), no personal team
 * (409), one team per domain (409); bad domains are 400 and change nothing; `GET /team` shows it,
 * `DELETE` releases it. `joinByDomain` adds a verified address's person with the role, once, and
 * says `full` when the plan's seats are taken.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 11, 8, 12) })
})
afterAll(async () => {
  await ctx.close()
})

type Account = Awaited<ReturnType<TestContext['createOwner']>>

const api = (path: string, key: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
const claim = (key: string, body: unknown) => api('/team/sso-domain', key, { method: 'PUT', json: body })

/** A shared team of `owner` and an API key acting in it as its owner. */
async function sharedTeam(owner: Account, name: string): Promise<{ id: number; key: string }> {
  const { teams, accounts } = ctx.app.services
  const team = await teams.create(owner.user, name)
  const { key } = await accounts.createApiKey({ id: team.id, userId: owner.account.id, role: 'owner' }, 'team key')
  return { id: team.id, key }
}

async function keyAs(account: Account, teamId: number, role: 'admin' | 'editor'): Promise<string> {
  const { teams, accounts } = ctx.app.services
  const { link } = await teams.invite({ ...(await accounts.personalTeamOwner(account.account)), id: teamId, role: 'owner' }, { email: account.account.email, role })
  const joined = await teams.accept(account.user, link!.split('/').at(-1)!)
  return (await accounts.createApiKey({ id: joined.id, userId: account.account.id, role }, 'member key')).key
}

test('an owner claims the domain of their address; GET /team shows it; DELETE releases it', async () => {
  const owner = await ctx.createOwner('pro', 'lead@claim.test')
  const team = await sharedTeam(owner, 'Claimers')
  const answer = await claim(team.key, { domain: ' @Claim.TEST ', role: 'editor' })
  expect(answer.status).toBe(200)
  expect((await json(answer)).data).toEqual({ domain: 'claim.test', role: 'editor' })
  expect((await json(await api('/team', team.key))).data.sso_domain).toEqual({ domain: 'claim.test', role: 'editor' })
  // The role guard wrote the audit row of the write.
  const rows = (await ctx.app.services.audit.list(team.id, {}, { limit: 10 })).entries
  expect(rows.map((row) => row.action)).toContain('team.sso-domain.put')

  const released = await api('/team/sso-domain', team.key, { method: 'DELETE' })
  expect(released.status).toBe(200)
  expect((await json(released)).data.sso_domain).toBeNull()
})

test('refusals: bad domains, the owner role, a personal team, another team\'s domain, another company\'s domain, an editor', async () => {
  const owner = await ctx.createOwner('pro', 'boss@refuse.test')
  const team = await sharedTeam(owner, 'Refusers')
  for (const domain of ['', 'localhost', '192.0.2.1', 'a b.test', '<b>x</b>.test', 'x.test\u0000', 'https://refuse.test', 'refuse.test/path', `${'a'.repeat(64)}.test`, 'x'.repeat(300)]) {
    const answer = await claim(team.key, { domain, role: 'viewer' })
    expect({ domain, status: answer.status }).toEqual({ domain, status: domain.length > 300 ? 422 : 400 })
  }
  expect((await claim(team.key, { domain: 'refuse.test', role: 'owner' })).status).toBeOneOf([400, 422])
  expect((await claim(team.key, { domain: 'refuse.test', role: 'superuser' })).status).toBeOneOf([400, 422])
  // A personal team claims none.
  const personal = await claim(owner.key, { domain: 'refuse.test', role: 'viewer' })
  expect(personal.status).toBe(409)
  expect((await json(personal)).error).toContain('a personal team cannot claim a domain')
  // Another company's domain: only an administrator of the instance may.
  const foreign = await claim(team.key, { domain: 'example.org', role: 'viewer' })
  expect(foreign.status).toBe(403)
  expect((await json(foreign)).error).toBe('you may claim only the domain of your own address (refuse.test); an administrator of this Lantern may claim any')
  // An editor may not claim; an admin may, no role above admin.
  const editor = await ctx.createOwner('free', 'ed@refuse.test')
  expect((await claim(await keyAs(editor, team.id, 'editor'), { domain: 'refuse.test', role: 'viewer' })).status).toBe(403)
  const admin = await ctx.createOwner('free', 'ad@refuse.test')
  const adminKey = await keyAs(admin, team.id, 'admin')
  expect((await claim(adminKey, { domain: 'refuse.test', role: 'admin' })).status).toBe(200)
  // One team per domain.
  const rival = await sharedTeam(await ctx.createOwner('pro', 'other@refuse.test'), 'Rivals')
  const taken = await claim(rival.key, { domain: 'REFUSE.test', role: 'viewer' })
  expect(taken.status).toBe(409)
  expect((await json(taken)).error).toBe('refuse.test is claimed by another team already')
  // Nothing changed by any refusal.
  expect((await json(await api('/team', team.key))).data.sso_domain).toEqual({ domain: 'refuse.test', role: 'admin' })
  expect((await json(await api('/team', rival.key))).data.sso_domain).toBeNull()
})

test('an administrator of the instance claims any domain', async () => {
  const { accounts } = ctx.app.services
  const admin = await accounts.createUser({ email: 'root@instance.test', password: 'correct horse battery', isAdmin: true })
  const owner = await accounts.personalTeamOwner(admin)
  const team = await ctx.app.services.teams.create(owner, 'Instance admins')
  const { key } = await accounts.createApiKey({ id: team.id, userId: admin.id, role: 'owner' }, 'k')
  expect((await claim(key, { domain: 'bücher.example', role: 'viewer' })).status).toBe(200)
  expect((await json(await api('/team', key))).data.sso_domain).toEqual({ domain: 'xn--bcher-kva.example', role: 'viewer' })
})

test('joinByDomain: the role of the claim, once; a full team is `full`', async () => {
  const { teams } = ctx.app.services
  const owner = await ctx.createOwner('pro', 'head@join.test')
  const team = await sharedTeam(owner, 'Joiners')
  expect((await claim(team.key, { domain: 'join.test', role: 'responder' })).status).toBe(200)
  const first = await ctx.createOwner('free', 'one@join.test')
  expect(await teams.joinByDomain({ id: first.account.id, email: 'one@join.test' })).toEqual({ outcome: 'joined', teamId: team.id, teamName: 'Joiners', role: 'responder' })
  expect(await teams.joinByDomain({ id: first.account.id, email: 'one@join.test' })).toBeUndefined()
  const second = await ctx.createOwner('free', 'two@join.test')
  expect((await teams.joinByDomain({ id: second.account.id, email: 'two@join.test' }))?.outcome).toBe('joined')
  // Pro has 3 seats, all taken now.
  const third = await ctx.createOwner('free', 'three@join.test')
  expect(await teams.joinByDomain({ id: third.account.id, email: 'three@join.test' })).toEqual({ outcome: 'full', teamId: team.id, teamName: 'Joiners' })
  const members = (await json(await api('/team/members', team.key))).data as { email: string; role: string }[]
  expect(members.map((m) => [m.email, m.role])).toEqual([
    ['head@join.test', 'owner'],
    ['one@join.test', 'responder'],
    ['two@join.test', 'responder'],
  ])
  // Another domain joins nothing.
  expect(await teams.joinByDomain({ id: third.account.id, email: 'three@elsewhere.test' })).toBeUndefined()
})
