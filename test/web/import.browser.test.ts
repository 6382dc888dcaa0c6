/**
 * The Import screen in real Chromium, with the shared fixtures: the Uptime Kuma 2.x database is
 * uploaded through the form, the report is on the page (valid HTML, accessible), the monitors are
 * on the Monitors screen; a second upload makes nothing and says so; a Gatus configuration through
 * its form; a file that is not a database, an SQLite file that is not Kuma's, YAML that does not
 * parse and a file past the size are clear errors that change nothing (a body past the path's
 * limit is refused at the door: a page for forms, JSON for the API); markup in a file name stays
 * text; no temporary copy is left behind; a cross-site post is 403; a viewer cannot import; the plan's monitor limit is the
 * importer's own message.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HtmlValidate } from 'html-validate'
import type { Page } from 'playwright-core'
import { HTML_RULES } from '../helpers/html-rules.ts'
import { checkA11y, checkLayouts, startWebApp, type WebApp } from '../helpers/webapp.ts'

const FIXTURES = join(import.meta.dir, '../fixtures/importers')
const KUMA2 = join(FIXTURES, 'uptime-kuma-2.5.3.db')
const GATUS = join(FIXTURES, 'gatus-config.yaml')
/** After the fixtures' heartbeats (history from the future is not imported). */
const NOW = Date.UTC(2026, 10, 28, 12, 0)
const MB = 1024 * 1024

let app: WebApp
beforeAll(async () => {
  // The fixtures' monitors check addresses on loopback.
  app = await startWebApp({ now: NOW, env: { MONITOR_PRIVATE_TARGETS: '1' } })
})
afterAll(() => app.close())

const services = () => app.server.ctx.app.services
const db = () => app.server.ctx.database.db
/** What the team holds: monitors, pages, channels, import mappings. */
async function holdings(teamId: number) {
  const n = async (table: 'monitors' | 'status_pages' | 'notification_channels' | 'import_mappings') =>
    Number((await db().selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', teamId).executeTakeFirstOrThrow()).n)
  return { monitors: await n('monitors'), pages: await n('status_pages'), channels: await n('notification_channels'), mappings: await n('import_mappings') }
}
/** Temporary copies of uploads still on disk. */
const leftCopies = () => readdirSync(tmpdir()).filter((name) => name.startsWith('lantern-import-'))

/** Chooses the file and sends the form; the answer's status (its HTML, as sent, in `lastHtml`). */
let lastHtml = ''
async function upload(page: Page, label: string, file: string | { name: string; mimeType: string; buffer: Buffer }, button: string): Promise<number> {
  await page.getByLabel(label).setInputFiles(file)
  const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: button }).click()])
  await page.waitForLoadState('load')
  lastHtml = await response.text()
  return response.status()
}

const KUMA_LABEL = 'Uptime Kuma database (kuma.db)'
const GATUS_LABEL = 'Gatus configuration (config.yaml)'

describe('the Import screen', () => {
  test('a Kuma 2.x database through the form: the report, then its monitors on the Monitors screen; a second upload changes nothing', async () => {
    const page = app.page
    const before = leftCopies()
    await page.goto(`${app.base}/user/monitors`)
    await page.getByRole('link', { name: 'Move in from Uptime Kuma or Gatus' }).click()
    await page.waitForURL(`${app.base}/user/import`)
    expect(await page.locator('h1').textContent()).toBe('Import')
    await checkLayouts(page, app.shots, 'import', ['From Uptime Kuma', 'From Gatus'])

    expect(await upload(page, KUMA_LABEL, KUMA2, 'Import from Uptime Kuma')).toBe(200)
    expect(await page.getByRole('heading', { name: 'Imported from Uptime Kuma 2.x' }).isVisible()).toBe(true)
    const summary = await page.getByRole('status').filter({ hasText: 'uptime-kuma-2.5.3.db' }).textContent()
    expect(summary).toContain('Made 2 status pages, 13 components, 12 monitors, 7 notification channels, 1 maintenance window')
    expect(await page.getByRole('row', { name: /^Monitors 12 0$/ }).isVisible()).toBe(true)
    // What could not come is listed with why (a Docker monitor, ntfy, a recurring window…).
    const notBrought = page.getByRole('table', { name: 'Not brought' })
    expect(await notBrought.getByRole('row').count()).toBe(1 + 13)
    expect(await notBrought.getByRole('row', { name: /Worker container/ }).isVisible()).toBe(true)
    expect(await notBrought.getByRole('row', { name: /ntfy on-call/ }).isVisible()).toBe(true)
    const validation = await new HtmlValidate(HTML_RULES).validateString(lastHtml, 'import report')
    expect(validation.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`))).toEqual([])
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'import-report', ['Imported from Uptime Kuma 2.x', 'Not brought (13)'])
    expect(leftCopies()).toEqual(before)

    await page.getByRole('link', { name: 'See your monitors' }).click()
    await page.waitForURL(`${app.base}/user/monitors`)
    const monitors = page.getByRole('table', { name: 'Your monitors' })
    for (const name of ['Homepage', 'Webhook intake (POST)', 'PostgreSQL primary', 'Nightly backup']) {
      expect(await monitors.getByRole('link', { name, exact: true }).isVisible()).toBe(true)
    }
    const imported = await holdings(app.owner.user.id)
    expect(imported).toMatchObject({ monitors: 12, pages: 2, channels: 7 })

    await page.goto(`${app.base}/user/import`)
    expect(await upload(page, KUMA_LABEL, KUMA2, 'Import from Uptime Kuma')).toBe(200)
    expect(await page.getByRole('status').filter({ hasText: 'Nothing new: everything in this file was imported before' }).isVisible()).toBe(true)
    expect(await page.getByRole('row', { name: /^Monitors 0 12$/ }).isVisible()).toBe(true)
    expect(await holdings(app.owner.user.id)).toEqual(imported)
    expect(leftCopies()).toEqual(before)
  }, 30_000)

  test('a Gatus configuration through its form', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/import`)
    expect(await upload(page, GATUS_LABEL, GATUS, 'Import from Gatus')).toBe(200)
    expect(await page.getByRole('heading', { name: /^Imported from Gatus/ }).isVisible()).toBe(true)
    expect(await page.getByRole('status').filter({ hasText: 'gatus-config.yaml' }).textContent()).toMatch(/Made 1 status page, \d+ components, \d+ monitors/)
  })

  test('a file that is not a database, an SQLite file that is not Kuma’s, bad YAML and files past the size: clear errors, nothing changed, no copy left', async () => {
    const page = app.page
    const before = await holdings(app.owner.user.id)
    const copies = leftCopies()
    await page.goto(`${app.base}/user/import`)
    expect(await upload(page, KUMA_LABEL, { name: 'kuma.db', mimeType: 'application/octet-stream', buffer: Buffer.from('this is a text file, not a database\n') }, 'Import from Uptime Kuma')).toBe(400)
    expect(await page.locator('#f-uptime-kuma-error').textContent()).toBe('kuma.db is not an SQLite database (Uptime Kuma keeps its data in kuma.db, in its data folder)')
    expect(await page.getByLabel(KUMA_LABEL).getAttribute('aria-invalid')).toBe('true')
    await checkA11y(page)
    // Markup in the file's name stays text.
    const markup = '<img src=x onerror=window.pwned=1>.db'
    expect(await upload(page, KUMA_LABEL, { name: markup, mimeType: 'application/octet-stream', buffer: Buffer.from('no') }, 'Import from Uptime Kuma')).toBe(400)
    expect(await page.locator('#f-uptime-kuma-error').textContent()).toStartWith(`${markup} is not an SQLite database`)
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()

    // A real SQLite file of another program.
    const folder = mkdtempSync(join(tmpdir(), 'import-test-'))
    try {
      const other = new Database(join(folder, 'notes.db'))
      other.run('CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)')
      other.close()
      const buffer = readFileSync(join(folder, 'notes.db'))
      expect(await upload(page, KUMA_LABEL, { name: 'notes.db', mimeType: 'application/vnd.sqlite3', buffer }, 'Import from Uptime Kuma')).toBe(400)
      expect(await page.locator('#f-uptime-kuma-error').textContent()).toStartWith('notes.db is not an Uptime Kuma database: it has no "monitor"')
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }

    expect(await upload(page, GATUS_LABEL, { name: 'config.yaml', mimeType: 'application/yaml', buffer: Buffer.from('endpoints: [\n  - name: x\n  url: ]]\n') }, 'Import from Gatus')).toBe(400)
    expect(await page.locator('#f-gatus-error').textContent()).toStartWith('config.yaml is not valid YAML')
    expect(await upload(page, GATUS_LABEL, { name: 'big.yaml', mimeType: 'application/yaml', buffer: Buffer.alloc(MB + 1, 'a') }, 'Import from Gatus')).toBe(413)
    expect(await page.locator('#f-gatus-error').textContent()).toStartWith('big.yaml is larger than 1 MB')

    // A body past the Kuma form's limit is refused at the door, before it is read; any other form keeps 2 MB.
    const cookie = await app.cookieOf(app.context)
    const declared = await app.server.ctx.app.handle(new Request(`${app.base}/user/import/uptime-kuma`, { method: 'POST', headers: { cookie, origin: app.base, 'content-length': String(51 * MB), 'content-type': 'multipart/form-data; boundary=x' }, body: 'x' }))
    expect(declared.status).toBe(413)
    expect(await declared.text()).toContain('This form takes at most 50 MB, and more was sent.')
    const other = await fetch(`${app.base}/user/teams`, { method: 'POST', headers: { cookie, origin: app.base, 'content-type': 'application/x-www-form-urlencoded' }, body: `name=${'a'.repeat(3 * MB)}` })
    expect(other.status).toBe(413)
    expect(await other.text()).toContain('This form takes at most 2 MB')
    const api = await fetch(`${app.base}/user/api/v1/status-pages`, { method: 'POST', headers: { authorization: `Bearer ${app.owner.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'a'.repeat(3 * MB) }) })
    expect(api.status).toBe(413)
    expect(await api.json()).toEqual({ error: 'the request body is larger than 2 MB, the most this address takes' })
    expect(await holdings(app.owner.user.id)).toEqual(before)
    expect(leftCopies()).toEqual(copies)
  }, 30_000)

  test('a cross-site post is 403; a viewer cannot import; the plan’s monitor limit is the importer’s message', async () => {
    const cookie = await app.cookieOf(app.context)
    const form = () => {
      const body = new FormData()
      body.set('file', new Blob([readFileSync(KUMA2)]), 'kuma.db')
      return body
    }
    const before = await holdings(app.owner.user.id)
    const crossSite = await fetch(`${app.base}/user/import/uptime-kuma`, { method: 'POST', body: form(), headers: { cookie, origin: 'https://evil.example' } })
    expect(crossSite.status).toBe(403)
    expect(await crossSite.text()).toContain('This form must be sent from this site.')
    expect(await holdings(app.owner.user.id)).toEqual(before)

    // A viewer in the owner's team sees the screen but may not import.
    const viewer = await app.createOwner('enterprise')
    const { link } = await services().teams.invite(app.owner.user, { email: viewer.email, role: 'viewer' })
    await services().teams.accept(viewer.user, link!.split('/').at(-1)!)
    const { context, page } = await app.loginAs(viewer)
    const session = await services().accounts.authenticateSession(decodeURIComponent((await app.cookieOf(context)).split('=')[1]!))
    await services().accounts.chooseTeam(session!.sessionId!, app.owner.user.id)
    await page.goto(`${app.base}/user/import`)
    expect(await upload(page, KUMA_LABEL, KUMA2, 'Import from Uptime Kuma')).toBe(403)
    expect(await page.getByText('(Viewer) may not do this').isVisible()).toBe(true)
    expect(await holdings(app.owner.user.id)).toEqual(before)
    await context.close()

    // The Free plan's monitors: the importer refuses the whole file, and says why.
    const free = await app.createOwner('free')
    const freeLogin = await app.loginAs(free)
    await freeLogin.page.goto(`${app.base}/user/import`)
    expect(await upload(freeLogin.page, KUMA_LABEL, KUMA2, 'Import from Uptime Kuma')).toBe(403)
    expect(await freeLogin.page.locator('#f-uptime-kuma-error').textContent()).toMatch(/^the import brings 12 monitors; the Free plan allows \d+ and you have 0$/)
    expect(await holdings(free.user.id)).toEqual({ monitors: 0, pages: 0, channels: 0, mappings: 0 })
    await freeLogin.context.close()
  }, 30_000)
})
