/**
 * Password-guess budgets (and the sign-up and passkey sign-in budgets) hold across app servers (issue 17): the counters
 * live in the database, so a guesser who spreads attempts over two servers behind one proxy gets the
 * budget of one. Two real
 * servers on one PostgreSQL database; skipped without LANTERN_TEST_POSTGRES (CI starts one).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { startServer, type RunningServer } from '../../src/main.ts'
import { LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT } from '../../src/modules/accounts/service.ts'
import { GATE_ATTEMPTS } from '../../src/modules/page-access/service.ts'
import { SIGN_IN_OPTIONS_PER_CLIENT } from '../../src/modules/passkeys/service.ts'
import { freshTestDatabase, testPostgresServer, type TestDatabase } from '../helpers/database.ts'

const PASSWORD = 'correct horse battery'

describe.skipIf(!testPostgresServer)('password-guess budgets across two app servers on one PostgreSQL database', () => {
  let dir: string
  let database: TestDatabase
  let a: RunningServer
  let b: RunningServer
  let email: string
  let key: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lantern-pg-throttles-'))
    database = await freshTestDatabase(dir)
    const env = { ...database.env, PORT: '0', HOST: '127.0.0.1', BASE_URL: 'http://lantern.test', STATUS_DOMAIN: 'status.test', SIGNUP: 'open' }
    a = await startServer(loadConfig(env), { monitors: false })
    b = await startServer(loadConfig(env), { monitors: false })
    const user = await a.app.services.accounts.createUser({ email: 'guessed@example.com', password: PASSWORD, plan: 'pro' })
    email = user.email
    key = (await a.app.services.accounts.createApiKey(user.id, 'test')).key
  })
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await database?.dispose()
    rmSync(dir, { recursive: true, force: true })
  })

  // The servers trust X-Forwarded-For from loopback (the default TRUST_PROXY), as behind a proxy.
  const login = (server: RunningServer, password: string, client: string) =>
    fetch(`${server.url}user/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { host: 'lantern.test', origin: 'http://lantern.test', 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
      body: new URLSearchParams({ email, password }).toString(),
    })

  test('10 wrong logins split across A and B: the 11th is 429 on either server', async () => {
    const guesser = '198.51.100.7'
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT; i++) {
      expect((await login(i % 2 === 0 ? a : b, `guess ${i}`, guesser)).status).toBe(401)
    }
    for (const server of [a, b]) {
      const held = await login(server, PASSWORD, guesser)
      expect(held.status).toBe(429)
      expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0)
    }
    // Only that client is held back: the owner elsewhere logs in through either server.
    expect((await login(b, PASSWORD, '203.0.113.5')).status).toBe(303)
    expect((await login(a, PASSWORD, '203.0.113.6')).status).toBe(303)
  })

  test('parallel wrong logins through both servers are counted before they are checked: exactly the budget gets through', async () => {
    const guesser = '198.51.100.8'
    const statuses = await Promise.all(Array.from({ length: 16 }, (_, i) => login(i % 2 === 0 ? a : b, `parallel ${i}`, guesser).then((r) => r.status)))
    expect(statuses.filter((s) => s === 401).length).toBe(LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT)
    expect(statuses.filter((s) => s === 429).length).toBe(16 - LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT)
  })

  test('guesses at a private page gate split across A and B share one budget', async () => {
    const api = (path: string, method: string, body: unknown) =>
      fetch(`${a.url}user/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', host: 'lantern.test' }, body: JSON.stringify(body) })
    const page = ((await (await api('/status-pages', 'POST', { slug: 'hidden', name: 'Hidden', visibility: 'private' })).json()) as { data: { id: number } }).data
    expect((await api(`/status-pages/${page.id}/access`, 'PUT', { password: 'the real password' })).status).toBe(200)
    const gate = (server: RunningServer, password: string, client: string) =>
      fetch(`${server.url}_lantern/access`, {
        method: 'POST',
        redirect: 'manual',
        headers: { host: 'hidden.status.test', 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
        body: new URLSearchParams({ password, next: '/' }).toString(),
      })
    const guesser = '198.51.100.9'
    for (let i = 0; i < GATE_ATTEMPTS; i++) expect((await gate(i % 2 === 0 ? b : a, `guess ${i}`, guesser)).status).toBe(401)
    for (const server of [a, b]) expect((await gate(server, 'the real password', guesser)).status).toBe(429)
    expect((await gate(a, 'the real password', '203.0.113.7')).status).toBe(303)
  })

  test('sign-ups split across A and B share the budget of one client', async () => {
    const signUp = (server: RunningServer, i: number) =>
      fetch(`${server.url}user/signup`, {
        method: 'POST',
        redirect: 'manual',
        headers: { host: 'lantern.test', origin: 'http://lantern.test', 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.10' },
        // Not an address: refused with 400 after the attempt is counted, and cheap (no hashing).
        body: new URLSearchParams({ email: `not an address ${i}`, password: 'long enough password' }).toString(),
      })
    for (let i = 0; i < 10; i++) expect((await signUp(i % 2 === 0 ? a : b, i)).status).toBe(400)
    for (const server of [a, b]) {
      const held = await signUp(server, 99)
      expect(held.status).toBe(429)
      expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0)
    }
  })

  test('passkey sign-ins begun through A and B share the budget of one client', async () => {
    const options = (server: RunningServer, client: string) =>
      fetch(`${server.url}user/passkeys/sign-in/options`, { method: 'POST', headers: { host: 'lantern.test', origin: 'http://lantern.test', 'content-type': 'application/json', 'x-forwarded-for': client }, body: '{}' })
    for (let i = 0; i < SIGN_IN_OPTIONS_PER_CLIENT; i++) expect((await options(i % 2 === 0 ? a : b, '198.51.100.11')).status).toBe(200)
    for (const server of [a, b]) {
      const held = await options(server, '198.51.100.11')
      expect(held.status).toBe(429)
      expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0)
    }
    expect((await options(b, '203.0.113.8')).status).toBe(200)
  })
})
