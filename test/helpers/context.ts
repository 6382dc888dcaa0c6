/**
 * A fresh Lantern for one test file: a real SQLite file in a temporary folder, the real
 * migrations, the real app. Requests go through `app.handle`, exactly as the server does it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp, type App } from '../../src/app.ts'
import { loadConfig, type Config } from '../../src/config.ts'
import type { DatabaseHandle } from '../../src/db/client.ts'
import { freshTestDatabase } from './database.ts'
import { argon2idHasher, type PasswordHasher } from '../../src/lib/password.ts'
import { ManualClock } from './clock.ts'
import { fastTestHasher } from './password.ts'
import type { Owner, User } from '../../src/modules/accounts/service.ts'
import type { Plan } from '../../src/modules/plans/matrix.ts'
import type { DnsResolver } from '../../src/modules/status-pages/dns-check.ts'
import type { CheckDeps } from '../../src/modules/monitors/kinds/spec.ts'

export interface TestContext {
  dir: string
  databasePath: string
  /** DATABASE_PATH, or DATABASE_URL on PostgreSQL: what a CLI or server process needs to open this database. */
  databaseEnv: Record<string, string>
  config: Config
  clock: ManualClock
  /** The hasher the app was built with: fast unless `realPasswords` was asked for. */
  passwords: PasswordHasher
  database: DatabaseHandle
  app: App
  /** Sends a request to the app; `path` is relative to BASE_URL unless it is a full URL. */
  request(path: string, init?: RequestInit & { json?: unknown; key?: string }): Promise<Response>
  /**
   * An account with an API key, on the given plan: `user` is the account acting in its personal
   * team as its owner (what services take), `account` the account itself.
   */
  createOwner(plan?: Plan, email?: string): Promise<{ user: Owner; account: User; key: string }>
  /** Creates a page through the API as `key` and returns its JSON. */
  createPage(key: string, body: Record<string, unknown>): Promise<PageJson>
  close(): Promise<void>
}

export interface PageJson {
  id: number
  slug: string
  name: string
  custom_domain: string | null
  visibility: 'public' | 'private'
  blocked: boolean
  url: string
  description: string
}

let ownerCounter = 0

export async function createTestContext(
  options: {
    env?: Record<string, string>
    publicCache?: boolean
    now?: number
    /** argon2id as in production, for tests of hashing and login; otherwise a fast test hasher. */
    realPasswords?: boolean
    /** DNS answers for the custom-domain check (production: node:dns); absent, the check is off. */
    dns?: DnsResolver
    /** What monitor checks and lookup tools use (resolvers, guard); default the system's. */
    checkDeps?: CheckDeps
  } = {},
): Promise<TestContext> {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-test-'))
  const databasePath = join(dir, 'lantern.sqlite')
  const testDatabase = await freshTestDatabase(dir)
  const config = loadConfig({
    BASE_URL: 'https://lantern.test',
    STATUS_DOMAIN: 'status.test',
    DATABASE_PATH: databasePath,
    ...testDatabase.env,
    ...options.env,
  })
  const clock = new ManualClock(options.now ?? Date.UTC(2026, 10, 1, 12, 0, 0))
  const database = testDatabase.handle
  const passwords = options.realPasswords ? argon2idHasher : fastTestHasher
  const app = createApp({ db: database.db, config, clock, passwords, publicCache: options.publicCache, logError: () => {}, dns: options.dns, checkDeps: options.checkDeps })

  const request: TestContext['request'] = async (path, init = {}) => {
    const { json, key, ...rest } = init
    const headers = new Headers(rest.headers)
    if (json !== undefined) headers.set('content-type', 'application/json')
    if (key) headers.set('authorization', `Bearer ${key}`)
    const url = path.startsWith('http') ? path : `${config.baseUrl}${path}`
    return app.handle(
      new Request(url, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body }),
    )
  }

  return {
    dir,
    databasePath,
    databaseEnv: testDatabase.env,
    config,
    clock,
    passwords,
    database,
    app,
    request,
    async createOwner(plan = 'enterprise', email) {
      const account = await app.services.accounts.createUser({
        email: email ?? `owner${++ownerCounter}-${crypto.randomUUID().slice(0, 8)}@example.com`,
        password: 'correct horse battery',
        plan,
      })
      const { key } = await app.services.accounts.createApiKey(account.id, 'test')
      return { user: await app.services.accounts.personalTeamOwner(account), account, key }
    },
    async createPage(key, body) {
      const response = await request('/user/api/v1/status-pages', { method: 'POST', key, json: body })
      if (response.status !== 201) throw new Error(`createPage failed: ${response.status} ${await response.text()}`)
      return ((await response.json()) as { data: PageJson }).data
    },
    async close() {
      // Outbox deliveries in flight end (or go back to the queue) and the SMTP pool closes.
      await app.services.outboxWorker.stop(0)
      await testDatabase.dispose()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export async function json<T = any>(response: Response): Promise<T> {
  return (await response.json()) as T
}
