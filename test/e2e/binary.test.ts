/**
 * The release build: `bun run build` makes one file; copied alone into an empty folder (no source
 * tree, no node_modules) it runs the CLI and the server, with its docs and changelog inside.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '../..')
let dir: string
let binary: string

const run = async (args: string[], env: Record<string, string> = {}) => {
  const proc = Bun.spawn([binary, ...args], { cwd: dir, env: { PATH: '/usr/bin:/bin', HOME: dir, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  return { code, out: out.trim(), err: err.trim() }
}

beforeAll(async () => {
  const build = Bun.spawn(['bun', 'run', 'build'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const [code, err] = await Promise.all([build.exited, new Response(build.stderr).text()])
  if (code !== 0) throw new Error(`bun run build failed: ${err}`)
  dir = mkdtempSync(join(tmpdir(), 'lantern-binary-'))
  binary = join(dir, 'lantern')
  copyFileSync(join(ROOT, 'dist/lantern'), binary)
  Bun.spawnSync(['chmod', '+x', binary])
}, 120_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('one self-contained file', () => {
  expect(readdirSync(dir)).toEqual(['lantern'])
  expect(statSync(binary).size).toBeGreaterThan(10_000_000)
})

test('CLI subcommands work from the binary against a fresh database', async () => {
  const env = { DATABASE_PATH: join(dir, 'data/lantern.sqlite') }
  expect((await run(['version'])).out).toMatch(/^\d+\.\d+\.\d+$/)
  expect((await run(['help'])).out).toContain('backup FILE')
  const user = await run(['user', 'create', '--email', 'bin@example.com', '--password', 'correct horse battery', '--plan', 'growth'], env)
  expect(user.err).toBe('')
  expect(JSON.parse(user.out)).toMatchObject({ email: 'bin@example.com', plan: 'growth' })
  const key = await run(['key', 'create', '--email', 'bin@example.com'], env)
  expect(key.out).toMatch(/^lnt_/)
  const wrong = await run(['user', 'set-plan', '--email', 'bin@example.com', '--plan', 'gold'], env)
  expect(wrong.code).toBe(1)
  expect(wrong.err.split('\n')).toHaveLength(1)
  const backup = await run(['backup', join(dir, 'copy.sqlite')], env)
  expect(JSON.parse(backup.out)).toMatchObject({ integrity: 'ok' })
  expect(existsSync(join(dir, 'copy.sqlite'))).toBe(true)
})

test('with no arguments it serves: healthz, changelog, docs, API reference; SIGTERM stops it', async () => {
  const served = { DATABASE_PATH: join(dir, 'served.sqlite') }
  await run(['user', 'create', '--email', 'serve@example.com', '--password', 'correct horse battery'], served)
  const key = await run(['key', 'create', '--email', 'serve@example.com'], served)
  const server = Bun.spawn([binary], {
    cwd: dir,
    env: { PATH: '/usr/bin:/bin', PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'served.sqlite') },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  try {
    const reader = (server.stdout as ReadableStream<Uint8Array>).getReader()
    let log = ''
    while (!/listening on [^:]+:(\d+)/.test(log)) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`server exited: ${log} ${await new Response(server.stderr).text()}`)
      log += new TextDecoder().decode(value)
    }
    const port = /listening on [^:]+:(\d+)/.exec(log)![1]
    const base = `http://127.0.0.1:${port}`
    const health = await fetch(`${base}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const changelog = await fetch(`${base}/changelog`)
    expect(changelog.status).toBe(200)
    expect(await changelog.text()).toContain('Single executable')
    const atom = await fetch(`${base}/changelog.atom`)
    expect(atom.headers.get('content-type')).toContain('application/atom+xml')
    const docs = await fetch(`${base}/docs/getting-started`)
    expect(docs.status).toBe(200)
    expect(await docs.text()).toContain('<h1>Getting started</h1>')
    expect((await fetch(`${base}/docs/tag/setup/`)).status).toBe(200)
    expect((await fetch(`${base}/static/site.css`)).status).toBe(200)
    // A `with { type: 'file' }` asset, read with Bun.file from inside the binary.
    const icon = await fetch(`${base}/favicon.svg`)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    expect(await icon.text()).toStartWith('<svg')
    expect((await fetch(`${base}/swagger/json`)).status).toBe(200)
    // The API reference's viewer is inside the binary, not on a CDN.
    expect((await (await fetch(`${base}/static/api-docs/swagger-ui.js`)).text()).length).toBeGreaterThan(1_000_000)
    expect((await fetch(`${base}/api/embed/markdown?slug=none`)).status).toBe(404)
    // Every static asset of every feature travels inside the binary.
    for (const [path, type] of [
      ['/static/embed/v1/status.js', 'javascript'],
      ['/embed/preview.js', 'javascript'],
      ['/static/analytics/dashboard.js', 'javascript'],
      ['/static/analytics/uplot.js', 'javascript'],
      ['/static/analytics/uplot.css', 'text/css'],
      ['/static/user/user.css', 'text/css'],
      ['/user/login', 'text/html'],
      ['/', 'text/html'],
      ['/swagger', 'text/html'],
      ['/static/api-docs/swagger-ui.js', 'javascript'],
      ['/static/api-docs/swagger-ui.css', 'text/css'],
      ['/static/api-docs/start.js', 'javascript'],
      ['/static/api-docs/theme.css', 'text/css'],
    ] as const) {
      const asset = await fetch(`${base}${path}`)
      expect(`${path} ${asset.status}`).toBe(`${path} 200`)
      expect(asset.headers.get('content-type')).toContain(type)
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100)
    }
    // A status host: the page and its stylesheet.
    const created = await fetch(`${base}/user/api/v1/status-pages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.out.trim()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'binpage', name: 'Binary Page' }),
    })
    expect(created.status).toBe(201)
    const page = await fetch(`${base}/`, { headers: { host: 'binpage.localhost' } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Binary Page')
    const pageCss = await fetch(`${base}/_lantern/page.css`, { headers: { host: 'binpage.localhost' } })
    expect(pageCss.status).toBe(200)
    expect(pageCss.headers.get('content-type')).toContain('text/css')
  } finally {
    server.kill('SIGTERM')
  }
  expect(await server.exited).toBe(0)
})
