import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/config.ts'
import { startServer, type RunningServer } from '../src/main.ts'
import { runCliProcess } from './helpers/cli.ts'

let dir: string
let env: Record<string, string>

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-cli-'))
  env = { DATABASE_PATH: join(dir, 'cli.sqlite') }
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cli = (...args: string[]) => runCliProcess(args, env)
// Every test spawns CLI processes (a few hundred ms each, far more on a loaded machine).
setDefaultTimeout(30_000)

describe('lantern CLI', () => {
  test('backup on PostgreSQL points to pg_dump and writes nothing', async () => {
    const result = await runCliProcess(['backup', join(dir, 'never.sqlite')], { DATABASE_URL: 'postgres://lantern@127.0.0.1:9/lantern' })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('on PostgreSQL use pg_dump')
    expect(await Bun.file(join(dir, 'never.sqlite')).exists()).toBe(false)
  })

  test('creates a user (printed as JSON), a key (printed alone), and the key works against the API', async () => {
    const created = await cli('user', 'create', '--email', 'Ops@Example.com', '--password', 'a-long-password', '--plan', 'pro', '--admin')
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    const user = JSON.parse(created.stdout)
    expect(user).toMatchObject({ email: 'ops@example.com', plan: 'pro', admin: true })
    expect(user).not.toHaveProperty('password_hash')

    const key = await cli('key', 'create', '--email', 'ops@example.com', '--name', 'deploy')
    expect(key.code).toBe(0)
    expect(key.stdout.trim()).toMatch(/^lnt_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/)

    const server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', ...env }))
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/user/api/v1/status-pages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.stdout.trim()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ slug: 'cli-page', name: 'CLI' }),
      })
      expect(response.status).toBe(201)
    } finally {
      await server.stop()
    }
  })

  test('users get DEFAULT_PLAN unless told otherwise; set-plan changes it', async () => {
    const made = await runCliProcess(['user', 'create', '--email', 'plain@example.com', '--password', 'a-long-password'], { ...env, DEFAULT_PLAN: 'growth' })
    expect(JSON.parse(made.stdout).plan).toBe('growth')
    const changed = await cli('user', 'set-plan', '--email', 'plain@example.com', '--plan', 'free')
    expect(changed.code).toBe(0)
    expect(JSON.parse(changed.stdout).plan).toBe('free')
  })

  test('blocks and unblocks a page', async () => {
    expect(JSON.parse((await cli('page', 'block', '--slug', 'CLI-PAGE')).stdout)).toEqual({ slug: 'cli-page', blocked: true })
    expect(JSON.parse((await cli('page', 'unblock', '--slug', 'cli-page')).stdout)).toEqual({ slug: 'cli-page', blocked: false })
  })

  test('wrong input: one line on stderr, exit 1, nothing on stdout', async () => {
    const cases: Array<[string[], string]> = [
      [['user', 'create', '--email', 'x@example.com'], 'lantern: --password is required'],
      [['user', 'create', '--email', 'not-an-email', '--password', 'a-long-password'], 'lantern: email is not a valid address'],
      [['user', 'create', '--email', 'y@example.com', '--password', 'short'], 'lantern: password must be at least 8 characters'],
      [['user', 'create', '--email', 'ops@example.com', '--password', 'a-long-password'], 'lantern: a user with this email already exists'],
      [['user', 'create', '--email', 'z@example.com', '--password', 'a-long-password', '--plan', 'gold'], 'lantern: plan must be one of free, pro, growth, business, oss_hero, enterprise'],
      [['user', 'set-plan', '--email', 'nobody@example.com', '--plan', 'pro'], 'lantern: no user with this email'],
      [['key', 'create', '--email', 'nobody@example.com'], 'lantern: no user with this email'],
      [['page', 'block', '--slug', 'no-such-page'], 'lantern: no page with this slug'],
      [['page', 'block'], 'lantern: --slug is required'],
      [['user', 'create', '--email', 'q@example.com', '--password', 'a-long-password', '--bogus'], "lantern: Unknown option '--bogus'"],
      [['user', 'delete'], 'lantern: unknown command "user delete" (try "lantern help")'],
      [['frobnicate'], 'lantern: unknown command "frobnicate" (try "lantern help")'],
    ]
    for (const [args, message] of cases) {
      const result = await cli(...args)
      expect(result.code).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr.trim().startsWith(message)).toBe(true)
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
    }
    // Twelve processes one after the other: a bound for a hung one, not a speed test.
  }, 180_000)

  test('bad configuration is one line naming the variable', async () => {
    const result = await runCliProcess(['user', 'create', '--email', 'c@example.com', '--password', 'a-long-password'], { ...env, DEFAULT_PLAN: 'gold' })
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe('lantern: DEFAULT_PLAN must be one of free, pro, growth, business, oss_hero, enterprise, got "gold"')
  })

  test('help prints the usage', async () => {
    const result = await cli('help')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('user create --email E --password P')
  })
})

describe('changes made by another process', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', ...env }))
  })
  afterAll(() => server.stop())

  test('a plan change and a block through the CLI reach the cached snippets within 2 seconds', async () => {
    const snippets = () => fetch(`http://127.0.0.1:${server.port}/api/embed/markdown?slug=cli-page`)
    const waitFor = async (status: number) => {
      const started = performance.now()
      while (performance.now() - started < 2000) {
        if ((await snippets()).status === status) return performance.now() - started
        await Bun.sleep(50)
      }
      throw new Error(`still not ${status} after 2 s`)
    }
    // ops@example.com is on pro: snippets are 403, and that answer is cached.
    expect((await snippets()).status).toBe(403)
    expect((await cli('user', 'set-plan', '--email', 'ops@example.com', '--plan', 'growth')).code).toBe(0)
    expect(await waitFor(200)).toBeLessThan(2000)
    // Now the 200 is cached for 5 minutes; a block from the CLI must still show within 2 s.
    expect((await cli('page', 'block', '--slug', 'cli-page')).code).toBe(0)
    expect(await waitFor(404)).toBeLessThan(2000)
  })
})

describe('key list and key revoke', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', ...env }))
  })
  afterAll(() => server.stop())

  const pages = (key: string) => fetch(`http://127.0.0.1:${server.port}/user/api/v1/status-pages`, { headers: { authorization: `Bearer ${key}` } })
  const listKeys = async (email: string) => {
    const result = await cli('key', 'list', '--email', email)
    expect(result.code).toBe(0)
    return { text: result.stdout, keys: result.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) }
  }

  test('lists keys as JSON lines without the secret; a revoked key is refused at once and stays listed', async () => {
    expect((await cli('user', 'create', '--email', 'keys@example.com', '--password', 'a-long-password')).code).toBe(0)
    const first = (await cli('key', 'create', '--email', 'keys@example.com', '--name', 'ci')).stdout.trim()
    const second = (await cli('key', 'create', '--email', 'keys@example.com', '--name', 'laptop')).stdout.trim()
    expect((await pages(first)).status).toBe(200)

    const before = await listKeys('keys@example.com')
    for (const key of [first, second]) expect(before.text).not.toContain(key.slice(17))
    expect(before.keys).toEqual([
      { id: expect.any(Number), prefix: first.slice(0, 16), name: 'ci', created_at: expect.any(String), last_used_at: expect.any(String), revoked_at: null, state: 'active', role: 'owner' },
      { id: expect.any(Number), prefix: second.slice(0, 16), name: 'laptop', created_at: expect.any(String), last_used_at: null, revoked_at: null, state: 'active', role: 'owner' },
    ])

    const byId = await cli('key', 'revoke', '--email', 'keys@example.com', '--id', String(before.keys[0].id))
    expect(byId.code).toBe(0)
    expect(JSON.parse(byId.stdout)).toMatchObject({ id: before.keys[0].id, state: 'revoked' })
    expect((await pages(first)).status).toBe(401)
    expect((await pages(second)).status).toBe(200)

    const byPrefix = await cli('key', 'revoke', '--email', 'keys@example.com', '--prefix', second.slice(0, 16))
    expect(byPrefix.code).toBe(0)
    expect((await pages(second)).status).toBe(401)
    const after = await listKeys('keys@example.com')
    expect(after.keys.map((k: { state: string }) => k.state)).toEqual(['revoked', 'revoked'])
    // Seven processes one after the other: a bound for a hung one, not a speed test.
  }, 180_000)

  test("someone else's key and wrong input: one line on stderr, exit 1, nothing changes", async () => {
    const othersId = (await listKeys('ops@example.com')).keys[0].id
    const cases: Array<[string[], string]> = [
      [['key', 'revoke', '--email', 'keys@example.com', '--id', String(othersId)], 'lantern: not found'],
      [['key', 'revoke', '--email', 'keys@example.com', '--prefix', 'lnt_AAAAAAAAAAAA'], 'lantern: no key with this prefix'],
      [['key', 'revoke', '--email', 'keys@example.com'], 'lantern: --id or --prefix is required'],
      [['key', 'revoke', '--email', 'keys@example.com', '--id', '1', '--prefix', 'lnt_AAAAAAAAAAAA'], 'lantern: give --id or --prefix, not both'],
      [['key', 'revoke', '--email', 'keys@example.com', '--id', 'x1'], 'lantern: --id must be a positive integer'],
      [['key', 'revoke', '--email', 'keys@example.com', '--prefix', 'lnt_short'], 'lantern: prefix must be lnt_ followed by the 12 characters of the key id'],
      [['key', 'list'], 'lantern: --email is required'],
      [['key', 'list', '--email', 'nobody@example.com'], 'lantern: no user with this email'],
    ]
    for (const [args, message] of cases) {
      const result = await cli(...args)
      expect(result.code).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr.trim()).toBe(message)
    }
    expect((await listKeys('ops@example.com')).keys[0].state).toBe('active')
    // Ten processes one after the other: a bound for a hung one, not a speed test.
  }, 180_000)
})
