/**
 * First-run setup without a terminal: a fresh database makes the server print one setup link; the
 * link creates the first account (admin, default plan) once, then is 404 like every wrong token.
 * The first test runs the real server process (`bun src/main.ts`, as `bun run start` does).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

const MAIN = join(import.meta.dir, '../../../src/main.ts')
const SETUP_LINE = /lantern: no accounts yet — create the first one at (http:\/\/\S+\/user\/setup\?token=[A-Za-z0-9_-]{43})/

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = probe.port!
  probe.stop(true)
  return port
}

const sessionCookieOf = (response: Response) =>
  response.headers.getSetCookie().find((cookie) => cookie.startsWith('lantern_session='))?.split(';')[0]

/** Runs the server process until `until` holds for its output; returns the output and the process. */
async function startProcess(env: Record<string, string>) {
  const child = Bun.spawn(['bun', MAIN], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  let output = ''
  void (async () => {
    const reader = (child.stdout as ReadableStream<Uint8Array>).getReader()
    for (let r = await reader.read(); !r.done; r = await reader.read()) output += new TextDecoder().decode(r.value)
  })()
  for (let i = 0; i < 600 && !output.includes('listening on'); i++) await Bun.sleep(50)
  if (!output.includes('listening on')) throw new Error(`server did not start: ${output}`)
  // The setup line follows the listening line in the same turn; give the pipe a moment to deliver it.
  for (let i = 0; i < 20 && !SETUP_LINE.test(output); i++) await Bun.sleep(25)
  return {
    output: () => output,
    async stop() {
      child.kill('SIGTERM')
      await child.exited
    },
  }
}

test('fresh database: the server prints a link that creates the first account once; a restart with a user prints none', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-setup-'))
  const port = freePort()
  const base = `http://localhost:${port}`
  const env = { PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'lantern.sqlite'), BASE_URL: base, STATUS_DOMAIN: `localhost:${port}` }
  try {
    const server = await startProcess(env)
    let link: string
    try {
      const match = SETUP_LINE.exec(server.output())
      expect(match).not.toBeNull()
      link = match![1]!
      expect(link.startsWith(`${base}/user/setup?token=`)).toBe(true)
      expect(server.output().match(/no accounts yet/g)).toHaveLength(1)

      const form = await fetch(link)
      expect(form.status).toBe(200)
      expect(await form.text()).toContain('Set up Lantern')

      const token = new URL(link).searchParams.get('token')!
      const post = (email: string) =>
        fetch(`${base}/user/setup`, {
          method: 'POST',
          redirect: 'manual',
          headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token, email, password: 'correct horse battery' }),
        })
      const created = await post('first@example.com')
      expect(created.status).toBe(303)
      expect(created.headers.get('location')).toBe('/user')
      const cookie = sessionCookieOf(created)!
      const home = await fetch(`${base}/user`, { headers: { cookie }, redirect: 'manual' })
      expect(home.status).toBe(200)
      expect(await home.text()).toContain('first@example.com')
      // The new account may use the API at once, on the self-hosted default plan, as an administrator.
      const keys = await fetch(`${base}/user/api/v1/api-keys`, { headers: { cookie } })
      expect(keys.status).toBe(200)

      // Single use: the same link, a second POST and a wrong token are all 404; no second user.
      expect((await fetch(link)).status).toBe(404)
      expect((await post('second@example.com')).status).toBe(404)
      expect((await fetch(`${base}/user/setup?token=${'A'.repeat(43)}`)).status).toBe(404)
    } finally {
      await server.stop()
    }
    const again = await startProcess(env)
    try {
      expect(again.output()).not.toContain('no accounts yet')
      expect((await fetch(link)).status).toBe(404)
    } finally {
      await again.stop()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)

let ctx: TestContext
let token: string
const SAME = 'https://lantern.test'

const postSetup = (fields: Record<string, string>, origin: string | null = SAME) =>
  ctx.request('/user/setup', {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
    body: new URLSearchParams(fields),
  })

const userCount = async () => (await ctx.database.db.selectFrom('users').select('id').execute()).length

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 10, 23, 12) })
  token = (await ctx.app.services.accounts.issueSetupToken())!
})
afterAll(() => ctx.close())

test('the token is stored only as a hash; a new start replaces it (only the latest link works)', async () => {
  const rows = await ctx.database.db.selectFrom('setup_tokens').selectAll().execute()
  expect(rows).toHaveLength(1)
  expect(rows[0]!.token_hash).not.toContain(token)
  expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/)
  const older = token
  token = (await ctx.app.services.accounts.issueSetupToken())!
  expect((await ctx.request(`/user/setup?token=${older}`)).status).toBe(404)
  expect((await ctx.request(`/user/setup?token=${token}`)).status).toBe(200)
})

test('wrong, missing, malformed or over-long tokens are 404 HTML, not a JSON error or a 500', async () => {
  // One character off (never the same character again, whatever the token ends in).
  const almost = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
  for (const query of ['', '?token=', `?token=${'x'.repeat(5000)}`, `?token=${almost}`, '?token=%3Cb%3E']) {
    const response = await ctx.request(`/user/setup${query}`)
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toContain('text/html')
  }
  expect((await postSetup({ token: 'nope', email: 'a@example.com', password: 'correct horse battery' })).status).toBe(404)
  expect(await userCount()).toBe(0)
})

test('a POST from another site or without Origin is 403 and creates nothing', async () => {
  const fields = { token, email: 'x@example.com', password: 'correct horse battery' }
  expect((await postSetup(fields, 'https://evil.test')).status).toBe(403)
  expect((await postSetup(fields, null)).status).toBe(403)
  expect(await userCount()).toBe(0)
})

test('bad input: errors next to the fields, markup stays text, the token is not spent', async () => {
  const response = await postSetup({ token, email: '<b>not-an-email</b>', password: 'short' })
  expect(response.status).toBe(400)
  const body = await response.text()
  expect(body).toContain('value="&#60;b&#62;not-an-email&#60;/b&#62;"')
  expect(body).not.toContain('<b>not-an-email')
  expect(body).toContain('id="f-email-error"')
  expect(body).toContain('id="f-password-error"')
  expect(await userCount()).toBe(0)
  expect((await ctx.request(`/user/setup?token=${token}`)).status).toBe(200)
})

test('the login page points a newcomer to the setup link while there are no accounts, and only then', async () => {
  expect(await (await ctx.request('/user/login')).text()).toContain('This Lantern has no accounts yet')
})

test('the first account is an administrator on the default plan; once any user exists the token is gone', async () => {
  const created = await postSetup({ token, email: 'Admin@Example.com', password: 'correct horse battery' })
  expect(created.status).toBe(303)
  const user = await ctx.app.services.accounts.findUserByEmail('admin@example.com')
  expect(user.isAdmin).toBe(true)
  expect(user.plan).toBe(ctx.config.defaultPlan)
  expect(await ctx.database.db.selectFrom('setup_tokens').selectAll().execute()).toHaveLength(0)
  // A start with users issues nothing and leaves no token behind.
  expect(await ctx.app.services.accounts.issueSetupToken()).toBeUndefined()
  expect(await (await ctx.request('/user/login')).text()).not.toContain('no accounts yet')
})

test('a token issued before a user was created elsewhere (the CLI) no longer works', async () => {
  const other = await createTestContext({ now: Date.UTC(2026, 10, 23, 12) })
  try {
    const early = (await other.app.services.accounts.issueSetupToken())!
    await other.createOwner('free')
    expect((await other.request(`/user/setup?token=${early}`)).status).toBe(404)
    const response = await other.request('/user/setup', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://lantern.test' },
      body: new URLSearchParams({ token: early, email: 'late@example.com', password: 'correct horse battery' }),
    })
    expect(response.status).toBe(404)
    expect((await other.database.db.selectFrom('users').select('email').execute()).map((row) => row.email)).not.toContain('late@example.com')
  } finally {
    await other.close()
  }
})
