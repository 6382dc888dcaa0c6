/**
 * The outbox with several app servers on one PostgreSQL database: every server runs the delivery
 * loop, so a server that starts (a deploy, a restart after a kill -9) must not free the leases of
 * rows another live server is sending right now, or those go out twice. A killed server's leases
 * lapse on their own. PostgreSQL only (LANTERN_TEST_POSTGRES; CI starts one): on SQLite one process
 * runs the loop (with WORKERS=N, worker 1), and it frees what its killed predecessor left at start.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openConfiguredDatabase } from '../../../src/db/open.ts'
import { OutboxWorker } from '../../../src/modules/notify/worker.ts'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { testPostgresServer } from '../../helpers/database.ts'

describe.skipIf(!testPostgresServer)('the outbox on several servers', () => {
  let hub: ChatHub
  let ctx: TestContext

  beforeAll(async () => {
    hub = await startChatHub()
    ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
  })
  afterAll(async () => {
    await ctx.close()
    await hub.close()
  })

  test("a server that starts leaves alone the rows another server is sending", async () => {
    hub.answer('/slow', ['hang', 200])
    await ctx.database.db.transaction().execute((trx) =>
      ctx.app.services.outbox.enqueue(trx, [{ target: 'channel:slow', request: { url: `${hub.url}/slow`, headers: {}, body: '{"n":1}' } }]),
    )
    const other = openConfiguredDatabase(ctx.config)
    const guard = ctx.app.services.checkDeps.guard
    const sending = new OutboxWorker({ db: ctx.database.db, clock: ctx.clock, mail: undefined, guard, userAgent: 'a', pollMs: 60_000 })
    const starting = new OutboxWorker({ db: other.db, clock: ctx.clock, mail: undefined, guard, userAgent: 'b', pollMs: 60_000 })
    try {
      await sending.start()
      await hub.waitFor('/slow')
      // The second server comes up while the first is mid-send, and looks for due rows.
      await starting.start()
      expect(await starting.drain()).toEqual({ sent: 0, failed: 0, dead: 0 })
      expect(hub.received('/slow')).toHaveLength(1)
      const row = await ctx.database.db.selectFrom('outbox').select(['status', 'lease_until']).where('target', '=', 'channel:slow').executeTakeFirstOrThrow()
      expect(row.status).toBe('queued')
      expect(row.lease_until).toBeGreaterThan(ctx.clock.now())
    } finally {
      await starting.stop(0)
      await sending.stop(0)
      await other.close()
    }
  })
})
