/**
 * What a transfer does to other features' rows: the previous owner's notification channels stop
 * covering the page (their links to it go, links to other pages stay; the recipient's stay), and the
 * page's subscribers move with it, counted on the offer as confirmed and active ones.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { TransfersRepo } from '../../../src/modules/transfers/repo.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext()
})
afterAll(() => ctx.close())

test("active confirmed subscribers are counted; the old owner's channel links to the page go, others stay", async () => {
  const { channels, subscribers, transfers } = ctx.app.services
  const alice = await ctx.createOwner()
  const bob = await ctx.createOwner()
  const page = await ctx.createPage(alice.key, { slug: 'with-tables', name: 'With tables' })
  const other = await ctx.createPage(alice.key, { slug: 'stays-put', name: 'Stays put' })
  const bobsPage = await ctx.createPage(bob.key, { slug: 'bobs-own', name: "Bob's own" })
  const alicesChannel = await channels.create(alice.user, { type: 'webhook', name: 'Alice hook', url: 'https://hooks.example.com/a', secret: 'a-long-shared-secret-for-alice', all_pages: false, page_ids: [page.id, other.id] })
  const bobsChannel = await channels.create(bob.user, { type: 'webhook', name: 'Bob hook', url: 'https://hooks.example.com/b', secret: 'a-long-shared-secret-for-bob!!', all_pages: false, page_ids: [bobsPage.id] })
  for (const email of ['one@example.com', 'two@example.com', 'gone@example.com']) await subscribers.add(alice.user, page.id, { email, consent: true })
  await subscribers.add(alice.user, other.id, { email: 'elsewhere@example.com', consent: true })
  const gone = (await subscribers.list(alice.user, page.id)).subscribers.find((s) => s.email === 'gone@example.com')!
  await subscribers.remove(alice.user, page.id, gone.id)

  await transfers.startAsAdministrator(alice.user, page.id, bob.user.email)
  expect(await new TransfersRepo(ctx.database.db).countSubscribers(page.id)).toBe(2)
  expect((await transfers.acceptForPage(bob.user, page.id)).status).toBe('accepted')

  expect((await channels.get(alice.user, alicesChannel.id)).pages.map((p) => p.id)).toEqual([other.id])
  expect((await channels.get(bob.user, bobsChannel.id)).pages.map((p) => p.id)).toEqual([bobsPage.id])
  // The subscribers went with the page: the new owner sees them.
  const moved = (await subscribers.list(bob.user, page.id)).subscribers.map((s) => s.email).sort()
  expect(moved).toEqual(['one@example.com', 'two@example.com'])
})
