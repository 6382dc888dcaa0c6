/**
 * Every language of the public side in real headless Chromium (one browser), served by a listening
 * server: the status page, its history and an incident's page in each of the six languages at
 * 320 and 1280 px. Nothing overflows sideways, no translation key or unfilled `{place}` is shown,
 * `<html lang>` names the language, and the language switcher's links lead to each language.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext } from 'playwright-core'
import { loadConfig } from '../../../src/config.ts'
import { LANGUAGES } from '../../../src/lib/i18n.ts'
import { startServer, type RunningServer } from '../../../src/main.ts'
import { launchBrowser } from '../../helpers/browser.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { expectTranslatedLayout } from '../../helpers/translated-layout.ts'

const DAY = 86_400_000
const NOW = Date.UTC(2026, 10, 27, 13, 5)

let browser: Browser
let server: RunningServer
let dir: string
let incidentId: number
const host = () => `http://sprachen.localhost:${server.port}`

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-languages-e2e-'))
  server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'db.sqlite') }), { clock: new ManualClock(NOW) })
  const { accounts, pages, components, incidents, maintenances } = server.app.services
  const owner = await accounts.personalTeamOwner(await accounts.createUser({ email: 'sprachen@example.com', password: 'correct horse battery', plan: 'business' }))
  const page = await pages.create(owner, { slug: 'sprachen', name: 'Sprachen Cloud', language: 'de', time_zone: 'Europe/Berlin' })
  for (const [name, group, type] of [['Zahlungs-API', 'Plattformdienste', 'api'], ['Website', null, 'site'], ['Namensauflösung', 'Plattformdienste', 'dns']] as const) {
    const c = await components.create(owner, page.id, { name, group, type })
    await components.importHistory(owner, c.id, [
      { status: 'up', at: new Date(NOW - 120 * DAY).toISOString() },
      { status: 'down', at: new Date(NOW - 5 * DAY).toISOString() },
      { status: 'up', at: new Date(NOW - 5 * DAY + 2 * 3_600_000).toISOString() },
    ])
  }
  const api = (await components.list(owner, page.id))[0]!
  await components.update(owner, api.id, { status: 'degraded' })
  incidentId = (await incidents.create(owner, { status_page_id: page.id, component_ids: [api.id], title: 'Langsame Zahlungen', message: 'Wir untersuchen erhöhte Fehlerraten.' })).id
  const old = await incidents.create(owner, { status_page_id: page.id, title: 'Kurzer Ausfall', message: 'Behoben.', state: 'resolved', started_at: new Date(NOW - 3 * DAY).toISOString() })
  await incidents.savePostmortem(owner, old.id, { body: 'Ein **Zertifikat** war abgelaufen.' })
  await incidents.publishPostmortem(owner, old.id, {})
  await maintenances.create(owner, { status_page_id: page.id, title: 'Datenbank-Upgrade', message: 'Schreibzugriffe können langsam sein.', start_at: new Date(NOW + DAY).toISOString(), end_at: new Date(NOW + DAY + 3_600_000).toISOString() })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('every language in Chromium', () => {
  for (const width of [320, 1280]) {
    test(`${width} px: the page, history and an incident in each language, nothing overflowing, no key shown`, async () => {
      // A French browser: its Accept-Language picks the page's language where no ?lang= is given.
      const context: BrowserContext = await browser.newContext({ viewport: { width, height: 800 }, locale: 'fr-FR' })
      const tab = await context.newPage()
      try {
        for (const lang of LANGUAGES) {
          for (const path of ['/', '/history', `/incidents/${incidentId}`]) {
            const where = `${lang} ${path} at ${width} px`
            const response = await tab.goto(`${host()}${path}?lang=${lang}`)
            expect({ where, status: response?.status() }).toEqual({ where, status: 200 })
            await expectTranslatedLayout(tab, where, lang, '.sr-only, .tip, datalist, [hidden]')
          }
        }
        // The browser's language without ?lang=; the switcher is plain links: following one shows that language.
        await tab.goto(`${host()}/`)
        expect(await tab.evaluate(() => document.documentElement.lang)).toBe('fr')
        expect(await tab.getByRole('heading', { name: 'Incidents en cours' }).isVisible()).toBe(true)
        await tab.getByRole('link', { name: '日本語' }).click()
        await tab.waitForURL(/lang=ja/)
        expect(await tab.evaluate(() => document.documentElement.lang)).toBe('ja')
        expect(await tab.getByRole('heading', { name: '発生中の障害' }).isVisible()).toBe(true)
      } finally {
        await context.close()
      }
    })
  }
})
