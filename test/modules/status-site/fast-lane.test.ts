/**
 * The status hosts' fast lane: a warm public read is answered from the cache by the front door,
 * without the status site's app (proved by `answerFromCache`, which never reaches an app, and by
 * a counter of route executions), with the same bytes and headers as the full path. Private and
 * blocked pages never come from it; page views are still counted; HSTS under https.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp, type App } from '../../../src/app.ts'
import { loadConfig } from '../../../src/config.ts'
import { openDatabase, type DatabaseHandle } from '../../../src/db/client.ts'
import { migrateToLatest } from '../../../src/db/migrate.ts'
import { clientKey } from '../../../src/http/context.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { fastTestHasher } from '../../helpers/password.ts'

let dir: string
let database: DatabaseHandle
let app: App
const views: Array<{ pageId: number; host: string }> = []
/** The client each view was counted for, as analytics reads it. */
const viewClients: string[] = []
let openId = 0

const get = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers: { host: new URL(url).host, ...headers } })
const WARM_PATHS = ['/', '/history', '/history.rss', '/history.atom', '/api/v2/summary.json', '/api/v2/incidents/unresolved.json', '/robots.txt', '/_lantern/page.css', '/_lantern/theme.css']

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-site-lane-'))
  database = openDatabase(join(dir, 'db.sqlite'))
  await migrateToLatest(database.db)
  const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', DATABASE_PATH: join(dir, 'db.sqlite') })
  app = createApp({
    db: database.db,
    config,
    clock: new ManualClock(),
    passwords: fastTestHasher,
    logError: () => {},
    workerId: 2,
    onPageView: (pageId, request) => {
      views.push({ pageId, host: new URL(request.url).host })
      viewClients.push(clientKey(request))
    },
  })
  const owner = await app.services.accounts.personalTeamOwner(await app.services.accounts.createUser({ email: 'lane@example.com', password: 'long enough', plan: 'growth' }))
  openId = (await app.services.pages.create(owner, { slug: 'open', name: 'Open' })).id
  await app.services.pages.create(owner, { slug: 'shut', name: 'Shut' })
  const secret = await app.services.pages.create(owner, { slug: 'closed', name: 'Closed', visibility: 'private' })
  await app.services.pageAccess.setPassword(secret.id, 'secret!!1')
})
afterAll(async () => {
  await database.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the status hosts fast lane', () => {
  test('a cold read takes the full path; once warm, the same read comes from the cache with the same bytes and headers', async () => {
    for (const path of WARM_PATHS) {
      const url = `https://open.status.test${path}`
      // The first read loads the page and fills the cache (nothing is known yet).
      const full = await app.handle(get(url))
      expect(full.status).toBe(200)
      const hit = app.answerFromCache(get(url))
      expect(hit, path).toBeDefined()
      expect(hit!.status).toBe(200)
      expect(new Uint8Array(await hit!.arrayBuffer())).toEqual(new Uint8Array(await full.arrayBuffer()))
      // Everything the full path adds at the edge is baked in, HSTS and the worker id included.
      expect(Object.fromEntries(hit!.headers), path).toEqual(Object.fromEntries(full.headers))
    }
  })

  test('a warm read through the front door is answered without the app, with HSTS (https) and the worker id', async () => {
    await app.handle(get('https://open.status.test/api/v2/status.json'))
    const response = app.handle(get('https://open.status.test/api/v2/status.json'))
    // Synchronous: the status site's app (async, Elysia) was never reached.
    expect(response).toBeInstanceOf(Response)
    const hit = response as Response
    expect(hit.status).toBe(200)
    expect(hit.headers.get('strict-transport-security')).toBe('max-age=31536000')
    expect(hit.headers.get('x-lantern-worker')).toBe('2')
    expect(hit.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('conditional requests answer 304 from the fast lane as on the full path', async () => {
    const full = await app.handle(get('https://open.status.test/history.rss'))
    const etag = full.headers.get('etag')!
    const hit = app.answerFromCache(get('https://open.status.test/history.rss', { 'if-none-match': etag }))
    expect(hit!.status).toBe(304)
  })

  test('each view of the page served from the fast lane is counted, 200 and 304 alike', async () => {
    const first = await app.handle(get('https://open.status.test/'))
    views.length = 0
    const hit = app.handle(get('https://open.status.test/'))
    expect(hit).toBeInstanceOf(Response)
    const revalidated = app.handle(get('https://open.status.test/', { 'if-none-match': first.headers.get('etag')! }))
    expect(revalidated).toBeInstanceOf(Response)
    expect((revalidated as Response).status).toBe(304)
    expect(views).toEqual([
      { pageId: openId, host: 'open.status.test' },
      { pageId: openId, host: 'open.status.test' },
    ])
    // Not for other reads from the lane.
    views.length = 0
    expect(app.answerFromCache(get('https://open.status.test/api/v2/summary.json'))).toBeDefined()
    expect(views).toEqual([])
  })

  test('a private page never comes from the shared cache, with or without a session', async () => {
    for (const path of WARM_PATHS) {
      const url = `https://closed.status.test${path}`
      await app.handle(get(url))
      expect(app.answerFromCache(get(url)), path).toBeUndefined()
      expect(app.answerFromCache(get(url, { cookie: 'lantern_gate=forged' })), path).toBeUndefined()
    }
    // The full path still gates it.
    expect((await app.handle(get('https://closed.status.test/'))).status).toBe(401)
  })

  test('a blocked page is never served from the cache, warm entries or not', async () => {
    for (const path of WARM_PATHS) await app.handle(get(`https://shut.status.test${path}`))
    expect(app.answerFromCache(get('https://shut.status.test/'))).toBeDefined()
    await app.services.pages.setBlocked('shut', true)
    for (const path of WARM_PATHS) {
      const url = `https://shut.status.test${path}`
      expect(app.answerFromCache(get(url)), path).toBeUndefined()
    }
    const blocked = await app.handle(get('https://shut.status.test/'))
    expect(blocked.status).toBe(503)
    await app.services.pages.setBlocked('shut', false)
  })

  test('the lane keys on the visitor\'s language: a German answer is never served to an English reader', async () => {
    const german = await app.handle(get('https://open.status.test/', { 'accept-language': 'de-DE,de;q=0.9' }))
    expect(await german.text()).toContain('<html lang="de">')
    expect(german.headers.get('vary')).toContain('Accept-Language')
    for (const [headers, lang] of [[{ 'accept-language': 'de-AT' }, 'de'], [{ 'accept-language': 'en-US' }, 'en'], [{}, 'en'], [{ 'accept-language': 'ja' }, undefined]] as const) {
      const hit = app.answerFromCache(get('https://open.status.test/', headers))
      if (lang === undefined) expect(hit).toBeUndefined() // no Japanese answer cached yet: the full path renders it
      else expect(await hit!.text()).toContain(`<html lang="${lang}">`)
    }
    await app.handle(get('https://open.status.test/history?lang=fr'))
    expect(await app.answerFromCache(get('https://open.status.test/history?lang=fr', { 'accept-language': 'de' }))!.text()).toContain('<html lang="fr">')
    expect(app.answerFromCache(get('https://open.status.test/history', { 'accept-language': 'de' }))).toBeUndefined()
    await app.handle(get('https://open.status.test/history', { 'accept-language': 'de' }))
    expect(await app.answerFromCache(get('https://open.status.test/history', { 'accept-language': 'de' }))!.text()).toContain('<html lang="de">')
  })

  test('an archive cursor, another method or an unknown host takes the full path', async () => {
    await app.handle(get('https://open.status.test/history?before=1'))
    expect(app.answerFromCache(get('https://open.status.test/history?before=1'))).toBeUndefined()
    expect(app.answerFromCache(new Request('https://open.status.test/', { method: 'HEAD', headers: { host: 'open.status.test' } }))).toBeUndefined()
    await app.handle(get('https://nobody.status.test/'))
    expect(app.answerFromCache(get('https://nobody.status.test/'))).toBeUndefined()
  })

  test('over a real socket, a view served from the fast lane is counted for the connection\'s client', async () => {
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', development: false, fetch: (request, srv) => app.fetch(request, () => srv.requestIP(request)?.address) })
    try {
      const url = `http://127.0.0.1:${server.port}/`
      const headers = { host: 'open.status.test' }
      expect((await fetch(url, { headers })).status).toBe(200)
      // Warm: the next socket read is a fast-lane hit (asking counts a view too, hence the reset after).
      expect(app.answerFromCache(get('https://open.status.test/'))).toBeDefined()
      viewClients.length = 0
      const hit = await fetch(url, { headers })
      expect(hit.status).toBe(200)
      expect(hit.headers.get('x-lantern-worker')).toBe('2')
      expect(viewClients).toEqual(['127.0.0.1'])
    } finally {
      await server.stop(true)
    }
  })
})
