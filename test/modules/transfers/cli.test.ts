/** `lantern page transfer …` through the same TransfersService as the API, on the suite's database (a SQLite file or PostgreSQL). */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { runCli } from '../../../src/cli.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext()
})
afterAll(() => ctx.close())

async function cli(...args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const env = { ...ctx.databaseEnv, BASE_URL: ctx.config.baseUrl }
  const code = await runCli(args, env, { out: (line) => out.push(line), err: (line) => err.push(line) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

test('offer, show, accept as the recipient; cancel; bad input is one line and exit 1', async () => {
  const alice = await ctx.createOwner('enterprise')
  const bob = await ctx.createOwner('pro')
  const page = await ctx.createPage(alice.key, { slug: 'cli-moving', name: 'CLI moving' })
  const id = String(page.id)

  expect(await cli('page', 'transfer', '--email', alice.user.email, '--id', id)).toEqual({ code: 0, out: '', err: '' })
  const started = await cli('page', 'transfer', '--email', alice.user.email, '--id', id, '--to', bob.user.email)
  expect(started.code).toBe(0)
  expect(JSON.parse(started.out)).toMatchObject({ status: 'pending', status_page_id: page.id, to_email: bob.user.email, from_email: alice.user.email })
  expect(JSON.parse((await cli('page', 'transfer', '--email', alice.user.email, '--id', id)).out).status).toBe('pending')

  // Only the addressee can accept; the owner cannot accept for them.
  const notTheirs = await cli('page', 'transfer', '--email', alice.user.email, '--id', id, '--accept')
  expect(notTheirs).toEqual({ code: 1, out: '', err: 'lantern: not found' })
  const accepted = await cli('page', 'transfer', '--email', bob.user.email, '--id', id, '--accept')
  expect(accepted.code).toBe(0)
  expect(JSON.parse(accepted.out).status).toBe('accepted')
  expect((await ctx.request(`/user/api/v1/status-pages/${id}`, { key: bob.key })).status).toBe(200)
  expect((await ctx.request(`/user/api/v1/status-pages/${id}`, { key: alice.key })).status).toBe(404)

  // Bob offers it back and withdraws.
  await cli('page', 'transfer', '--email', bob.user.email, '--id', id, '--to', alice.user.email)
  expect(JSON.parse((await cli('page', 'transfer', '--email', bob.user.email, '--id', id, '--cancel')).out).status).toBe('cancelled')
  expect((await json(await ctx.request(`/user/api/v1/status-pages/${id}/transfer`, { key: bob.key }))).data).toBeNull()

  expect(await cli('page', 'transfer', '--email', bob.user.email, '--id', id, '--to', alice.user.email, '--cancel')).toEqual({ code: 1, out: '', err: 'lantern: give one of --to, --cancel, --accept, --decline' })
  expect((await cli('page', 'transfer', '--email', bob.user.email, '--id', 'x')).err).toBe('lantern: --id must be a positive integer')
  expect((await cli('page', 'transfer', '--email', bob.user.email)).err).toBe('lantern: --id is required')
  expect((await cli('page', 'transfer', '--email', alice.user.email, '--id', id, '--cancel')).err).toBe('lantern: not found')
})
