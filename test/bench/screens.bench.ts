/**
 * Screens a new owner opens, first visit: the time from the click (or the address typed) until the
 * screen is drawn, in headless Chromium with an empty cache (a fresh browser context per visit,
 * its renderer started on the screen's origin first, so Chromium's process start is not counted),
 * against Lantern started as `bun src/main.ts` in its own process on a temporary database. Median
 * of N visits per screen, after one visit that warms the server (shown as "first after start"),
 * printed against the goals: 300 ms for every screen, 500 ms for the ones that hash a password on
 * purpose (account creation, log in, private-page unlock), with the hash alone at the shipped
 * settings as their baseline. Swagger UI (/swagger/ui) is measured too, for comparison, without a goal.
 *
 *   bun run bench screens            (BENCH_VISITS=N to change N, default 7)
 *   BENCH_ROOT=/path/to/checkout     runs that checkout's server (e.g. an older commit), same screens
 *   BENCH_SCREENS=swagger,analytics  only the screens whose name contains one of these words
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { DAY_MS } from '../../src/lib/time.ts'
import { argon2idHasher } from '../../src/lib/password.ts'
import { chromiumPath } from '../helpers/browser.ts'
import { median, seedDatabase, seedHistoryPage, tempDir } from './lib.ts'

const VISITS = Number(process.env.BENCH_VISITS ?? 7)
const ROOT = process.env.BENCH_ROOT ?? join(import.meta.dir, '../..')
const PASSWORD = 'bench-password'
const GATE_PASSWORD = 'vault-password'

const temp = tempDir()
const databasePath = join(temp.dir, 'screens.sqlite')
const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
const port = probe.port!
probe.stop(true)
const base = `http://localhost:${port}`
const env = { DATABASE_PATH: databasePath, PORT: String(port), HOST: '127.0.0.1', BASE_URL: base, STATUS_DOMAIN: `localhost:${port}`, SIGNUP: 'open' }

// The owner, a public page with 20 components and 90 days of history and views (Branding, Analytics),
// and a private page with a password (the gate).
const seeded = await seedDatabase(loadConfig(env), 'enterprise', async (services, owner) => {
  const { page } = await seedHistoryPage(services, owner, { slug: 'acme', name: 'Acme', days: 90 })
  const vault = await services.pages.create(owner, { slug: 'vault', name: 'Vault', visibility: 'private' })
  await services.pageAccess.setPassword(vault.id, GATE_PASSWORD)
  const today = Math.floor(Date.now() / DAY_MS)
  const rows = Array.from({ length: 90 }, (_, i) => ({ page_id: page.id, day: today - i, views: 500 + i * 7, uniques: 200 + i * 3, incident_views: i % 9, incident_uniques: i % 5 }))
  return { email: owner.email, pageId: page.id, rows }
})
{
  const { Database } = await import('bun:sqlite')
  const db = new Database(databasePath)
  const insert = db.prepare('INSERT INTO page_view_daily (page_id, day, views, uniques, incident_views, incident_uniques) VALUES (?, ?, ?, ?, ?, ?)')
  db.transaction(() => seeded.rows.forEach((r) => insert.run(r.page_id, r.day, r.views, r.uniques, r.incident_views, r.incident_uniques)))()
  db.close()
}

const server = Bun.spawn([process.execPath, 'src/main.ts'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdout: 'ignore', stderr: 'inherit' })
for (const started = performance.now(); ; ) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break
  } catch {}
  if (performance.now() - started > 20_000) throw new Error('the server did not answer /healthz within 20 s')
  await Bun.sleep(20)
}

// *.localhost goes to the server's loopback address (Chromium would try ::1 too).
const browser: Browser = await chromium.launch({
  executablePath: chromiumPath(),
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--host-resolver-rules=MAP localhost 127.0.0.1, MAP *.localhost 127.0.0.1'],
})

let client = 0
/**
 * A fresh context (empty cache, no cookies) with its own client address, so per-client budgets
 * never bind; its renderer already runs on `origin` (a bodiless page there, not timed).
 */
async function freshContext(origin = base): Promise<{ context: BrowserContext; page: Page }> {
  client++
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${client % 250}` } })
  const page = await context.newPage()
  await page.goto(`${origin}/healthz`)
  return { context, page }
}

/** A session cookie for the owner, from the login form posted without the browser (not timed). */
async function ownerCookie(): Promise<string> {
  const response = await fetch(`${base}/user/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: seeded.email, password: PASSWORD, next: '/user' }),
  })
  const cookie = response.headers.get('set-cookie')?.split(';')[0]
  if (!cookie) throw new Error(`login answered ${response.status} without a cookie`)
  return cookie
}

async function signedIn(): Promise<{ context: BrowserContext; page: Page }> {
  const fresh = await freshContext()
  const [name, value] = (await ownerCookie()).split('=') as [string, string]
  await fresh.context.addCookies([{ name, value, url: base }])
  return fresh
}

async function elapsed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await run()
  return performance.now() - started
}

interface Screen {
  name: string
  goal: number
  /** Prepares a fresh context (untimed), then times the visit. */
  visit(): Promise<number>
}

let signups = 0
const screens: Screen[] = [
  {
    name: 'account creation (sign-up form → /user)',
    goal: 500,
    async visit() {
      const { context, page } = await freshContext()
      await page.goto(`${base}/user/signup`)
      await page.fill('input[name=email]', `new-${++signups}-${port}@example.com`)
      await page.fill('input[name=password]', 'a new password for the bench')
      const ms = await elapsed(() => Promise.all([page.waitForURL(`${base}/user`, { waitUntil: 'load' }), page.click('button[type=submit]')]))
      await context.close()
      return ms
    },
  },
  {
    name: 'log in (login form → /user)',
    goal: 500,
    async visit() {
      const { context, page } = await freshContext()
      await page.goto(`${base}/user/login`)
      await page.fill('input[name=email]', seeded.email)
      await page.fill('input[name=password]', PASSWORD)
      const ms = await elapsed(() => Promise.all([page.waitForURL(`${base}/user`, { waitUntil: 'load' }), page.click('button[type=submit]')]))
      await context.close()
      return ms
    },
  },
  {
    name: 'private-page unlock (gate form → page)',
    goal: 500,
    async visit() {
      const { context, page } = await freshContext(`http://vault.localhost:${port}`)
      await page.goto(`http://vault.localhost:${port}/`)
      await page.fill('input[name=password]', GATE_PASSWORD)
      const ms = await elapsed(async () => {
        await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')])
        await page.waitForSelector('h1')
      })
      if (await page.$('input[name=password]')) throw new Error('the gate did not open')
      await context.close()
      return ms
    },
  },
  {
    name: '/swagger (operations listed)',
    goal: 300,
    async visit() {
      const { context, page } = await freshContext()
      const ms = await elapsed(async () => {
        await page.goto(`${base}/swagger`, { waitUntil: 'load' })
        // The reference lists them in its HTML; (before) Swagger UI drew them after loading.
        await page.waitForSelector('details.op, .opblock', { timeout: 60_000 })
      })
      await context.close()
      return ms
    },
  },
  {
    name: 'Branding (with the framed public page)',
    goal: 300,
    async visit() {
      const { context, page } = await signedIn()
      const ms = await elapsed(() => page.goto(`${base}/user/pages/${seeded.pageId}/branding`, { waitUntil: 'load' }))
      await context.close()
      return ms
    },
  },
  {
    name: 'Analytics (report drawn)',
    goal: 300,
    async visit() {
      const { context, page } = await signedIn()
      const ms = await elapsed(async () => {
        await page.goto(`${base}/user/analytics/${seeded.pageId}`, { waitUntil: 'load' })
        await page.waitForSelector('#dashboard[data-loaded-range]', { timeout: 30_000 })
      })
      await context.close()
      return ms
    },
  },
]

const fmt = (ms: number) => `${ms.toFixed(0).padStart(5)} ms`
try {
  // The baseline of the hashing screens: one hash and one verify at the shipped parameters, in this process.
  const hashes: number[] = []
  const verifies: number[] = []
  for (let i = 0; i < VISITS; i++) {
    let hash = ''
    hashes.push(await elapsed(async () => (hash = await argon2idHasher.hash(PASSWORD))))
    verifies.push(await elapsed(() => argon2idHasher.verify(PASSWORD, hash)))
  }
  const hashMs = median(hashes)
  const swaggerUi = process.env.BENCH_SWAGGER_UI !== '0' && (await fetch(`${base}/swagger/ui`)).ok
  console.log(`\n## screens: first visit (empty browser cache), median of ${VISITS} after one warm-up, server in its own process`)
  console.log(`password hash alone: ${fmt(hashMs)} (verify ${fmt(median(verifies))}), ${hashes.length} each`)
  const only = (process.env.BENCH_SCREENS ?? '').toLowerCase().split(',').filter(Boolean)
  for (const screen of screens.filter((s) => only.length === 0 || only.some((word) => s.name.toLowerCase().includes(word)))) {
    const first = await screen.visit()
    const times: number[] = []
    for (let i = 0; i < VISITS; i++) times.push(await screen.visit())
    const m = median(times)
    const verdict = m <= screen.goal ? 'within' : 'OVER'
    const ratio = screen.goal === 500 ? `, ${(m / hashMs).toFixed(1)}× the hash` : ''
    console.log(`${screen.name.padEnd(44)} ${fmt(m)} (min ${fmt(Math.min(...times))}, max ${fmt(Math.max(...times))}; first after start ${fmt(first)})  goal ${screen.goal} ms: ${verdict}${ratio}`)
  }
  if (swaggerUi) {
    const times: number[] = []
    for (let i = 0; i < 3; i++) {
      const { context, page } = await freshContext()
      times.push(await elapsed(async () => {
        await page.goto(`${base}/swagger/ui`, { waitUntil: 'load' })
        await page.waitForSelector('.opblock', { timeout: 60_000 })
      }))
      await context.close()
    }
    console.log(`${'Swagger UI at /swagger/ui (no goal)'.padEnd(44)} ${fmt(median(times))} (median of 3)`)
  }
} finally {
  await browser.close()
  server.kill('SIGTERM')
  await server.exited
  temp.remove()
}
