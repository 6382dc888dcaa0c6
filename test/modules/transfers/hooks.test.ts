/**
 * The parts of a transfer that touch other features' tables (channels, subscribers), which those
 * features create on their own branches. Here the tables are made with the same columns as their
 * migrations, so the hook and the count are proven before the merge; absent tables change nothing.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { TransfersRepo } from '../../../src/modules/transfers/repo.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext()
})
afterAll(() => ctx.close())

const db = () => ctx.database.db

test('without the channels and subscribers tables: the subscriber count is unknown and accepting works', async () => {
  const alice = await ctx.createOwner()
  const bob = await ctx.createOwner()
  const page = await ctx.createPage(alice.key, { slug: 'no-tables', name: 'No tables' })
  const { transfers } = ctx.app.services
  await transfers.startAsAdministrator(alice.user, page.id, bob.user.email)
  expect(await new TransfersRepo(db()).countSubscribers(page.id)).toBeNull()
  expect((await transfers.acceptForPage(bob.user, page.id)).status).toBe('accepted')
})

test("with them: active confirmed subscribers are counted; the old owner's channel links to the page go, others stay", async () => {
  await sql`create table notification_channels (id integer primary key autoincrement, owner_id integer not null, all_pages integer not null default 1)`.execute(db())
  await sql`create table notification_channel_pages (channel_id integer not null, page_id integer not null, primary key (channel_id, page_id))`.execute(db())
  await sql`create table subscribers (id integer primary key autoincrement, page_id integer not null, confirmed_at integer, unsubscribed_at integer)`.execute(db())
  const alice = await ctx.createOwner()
  const bob = await ctx.createOwner()
  const page = await ctx.createPage(alice.key, { slug: 'with-tables', name: 'With tables' })
  const other = await ctx.createPage(alice.key, { slug: 'stays-put', name: 'Stays put' })
  await sql`insert into notification_channels (id, owner_id, all_pages) values (901, ${alice.user.id}, 0), (902, ${bob.user.id}, 0)`.execute(db())
  await sql`insert into notification_channel_pages (channel_id, page_id) values (901, ${page.id}), (901, ${other.id}), (902, ${page.id})`.execute(db())
  await sql`insert into subscribers (page_id, confirmed_at, unsubscribed_at) values (${page.id}, 1, null), (${page.id}, 1, null), (${page.id}, null, null), (${page.id}, 1, 5), (${other.id}, 1, null)`.execute(db())

  const { transfers } = ctx.app.services
  await transfers.startAsAdministrator(alice.user, page.id, bob.user.email)
  expect(await new TransfersRepo(db()).countSubscribers(page.id)).toBe(2)
  await transfers.acceptForPage(bob.user, page.id)
  const links = await sql<{ channel_id: number; page_id: number }>`select channel_id, page_id from notification_channel_pages order by channel_id, page_id`.execute(db())
  expect(links.rows).toEqual([
    { channel_id: 901, page_id: other.id },
    { channel_id: 902, page_id: page.id },
  ])
  // Subscribers belong to the page by its id: all of them are still there.
  expect((await sql<{ n: number }>`select count(*) as n from subscribers where page_id = ${page.id}`.execute(db())).rows[0]!.n).toBe(4)
})
