/**
 * Cache hits are answered before the server's edge. Through a real listening server: they carry
 * their security headers, they are not counted by the rate limit (misses are), and a request with
 * an `auth_token` for a private page never gets the public cached answer.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { startServer, type RunningServer } from '../../src/main.ts'

let dir: string
let server: RunningServer
let base: string
let key: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-lane-'))
  server = await startServer(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'lane.sqlite'), RATE_LIMIT: '3', TRUST_PROXY: '127.0.0.1' }),
  )
  base = `http://127.0.0.1:${server.port}`
  const { accounts } = server.app.services
  const user = await accounts.personalTeamOwner(await accounts.createUser({ email: 'lane@example.com', password: 'a-long-password', plan: 'growth' }))
  key = (await accounts.createApiKey(user.id, 'test')).key
  const create = (body: object) =>
    fetch(`${base}/user/api/v1/status-pages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  expect((await create({ slug: 'open', name: 'Open' })).status).toBe(201)
  expect((await create({ slug: 'hidden', name: 'Hidden', visibility: 'private' })).status).toBe(201)
})
afterAll(async () => {
  await server.stop()
  rmSync(dir, { recursive: true, force: true })
})

const from = (client: string) => ({ headers: { 'x-forwarded-for': client } })

test('cache hits carry their security headers', async () => {
  for (const path of ['/api/embed/markdown?slug=open', '/badge/open.svg', '/api/embed/status?slug=open']) {
    await fetch(`${base}${path}`) // fills the cache
    const hit = await fetch(`${base}${path}`)
    expect(hit.status).toBe(200)
    expect(hit.headers.get('x-content-type-options')).toBe('nosniff')
    if (path.startsWith('/badge')) expect(hit.headers.get('content-security-policy')).toContain("default-src 'none'")
  }
})

test('the rate limit counts what reaches the application, not cache hits', async () => {
  await fetch(`${base}/api/embed/markdown?slug=open`)
  for (let i = 0; i < 10; i++) expect((await fetch(`${base}/api/embed/markdown?slug=open`, from('203.0.113.7'))).status).toBe(200)
  const misses: number[] = []
  // Distinct unknown slugs: one unknown slug is itself cached (briefly) after its first miss.
  for (let i = 0; i < 5; i++) misses.push((await fetch(`${base}/api/embed/markdown?slug=nope-${i}`, from('203.0.113.7'))).status)
  expect(misses).toEqual([404, 404, 404, 429, 429])
})

test('a private page embed with its token is never answered from the public cache', async () => {
  const pageId = (await server.app.services.pages.list(await server.app.services.accounts.personalTeamOwner(await server.app.services.accounts.findUserByEmail('lane@example.com'))))
    .find((p) => p.slug === 'hidden')!.id
  // The public (unknown) badge of the private page gets cached first.
  await fetch(`${base}/badge/hidden.svg`)
  const unknown = await (await fetch(`${base}/badge/hidden.svg`)).text()
  expect(unknown).toContain('Unknown')
  const token = await fetch(`${base}/user/api/v1/status-pages/${pageId}/access/token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
  })
  expect(token.status).toBeLessThan(300)
  const secret = JSON.stringify(await token.json()).match(/lpt_[A-Za-z0-9_-]+/)![0]
  const granted = await (await fetch(`${base}/badge/hidden.svg?auth_token=${secret}`)).text()
  expect(granted).not.toContain('Unknown')
  expect(granted).toContain('Operational')
})
