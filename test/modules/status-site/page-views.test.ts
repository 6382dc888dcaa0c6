import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../../src/app.ts'
import { loadConfig } from '../../../src/config.ts'
import { openDatabase, type DatabaseHandle } from '../../../src/db/client.ts'
import { migrateToLatest } from '../../../src/db/migrate.ts'
import { ManualClock } from '../../helpers/clock.ts'

// The hook analytics plugs into: one call per page view by a visitor allowed to see the page.
let dir: string
let database: DatabaseHandle
let app: ReturnType<typeof createApp>
const views: Array<{ pageId: number; host: string }> = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-views-'))
  database = openDatabase(join(dir, 'db.sqlite'))
  await migrateToLatest(database.db)
  const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', DATABASE_PATH: join(dir, 'db.sqlite') })
  app = createApp({
    db: database.db,
    config,
    clock: new ManualClock(),
    logError: () => {},
    onPageView: (pageId, request) => views.push({ pageId, host: new URL(request.url).host }),
  })
  const owner = await app.services.accounts.personalTeamOwner(await app.services.accounts.createUser({ email: 'views@example.com', password: 'long enough', plan: 'growth' }))
  await app.services.pages.create(owner, { slug: 'open', name: 'Open' })
  const secret = await app.services.pages.create(owner, { slug: 'closed', name: 'Closed', visibility: 'private' })
  await app.services.pageAccess.setPassword(secret.id, 'secret!!1')
})
afterAll(async () => {
  await database.close()
  rmSync(dir, { recursive: true, force: true })
})

test('onPageView is called for each view of the page (200 or 304), with the original request', async () => {
  const first = await app.handle(new Request('https://open.status.test/'))
  expect(first.status).toBe(200)
  const etag = first.headers.get('etag')!
  expect((await app.handle(new Request('https://open.status.test/', { headers: { 'if-none-match': etag } }))).status).toBe(304)
  expect(views).toEqual([
    { pageId: expect.any(Number), host: 'open.status.test' },
    { pageId: expect.any(Number), host: 'open.status.test' },
  ])
})

test('no view is counted for assets, JSON, HEAD, the gate, or unknown pages', async () => {
  views.length = 0
  for (const url of ['https://open.status.test/robots.txt', 'https://open.status.test/api/v2/status.json', 'https://closed.status.test/', 'https://nobody.status.test/']) {
    await app.handle(new Request(url))
  }
  await app.handle(new Request('https://open.status.test/', { method: 'HEAD' }))
  expect(views).toEqual([])
})
