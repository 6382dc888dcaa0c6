/**
 * The subscribe flow in the visitor's language, in real Chromium with a real SMTP server: a German
 * browser subscribes on a German page (Europe/Berlin), gets a German confirmation mail, confirms,
 * and gets a German incident mail with the time in the page's zone, the zone named. The subscribe
 * form, the manage and unsubscribe pages in German and Japanese at 320 and 1280 px: nothing
 * overflows sideways, no translation key or unfilled `{place}` is shown, `<html lang>` is right.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { startWebApp, type WebApp } from '../../helpers/webapp.ts'
import { expectTranslatedLayout } from '../../helpers/translated-layout.ts'
import { emit, linkIn } from './helpers.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const NAV_SUBSCRIBE = (JSON.parse(readFileSync(join(import.meta.dir, '../../../src/content/locales/de.json'), 'utf8')) as Record<string, string>)['nav.subscribe']!

let smtp: SmtpHarness
let app: WebApp
let pageId: number
const slug = 'sprachen-abo'

beforeAll(async () => {
  smtp = await startSmtp()
  app = await startWebApp({ now: NOW, plan: 'pro', env: smtp.env })
  const response = await app.server.ctx.request('/user/api/v1/status-pages', { method: 'POST', key: app.owner.key, json: { slug, name: 'Sprachen Cloud', language: 'de', time_zone: 'Europe/Berlin' } })
  pageId = ((await response.json()) as { data: { id: number } }).data.id
  for (const name of ['Zahlungs-API', 'Website']) await app.server.ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key: app.owner.key, json: { name } })
})
afterAll(async () => {
  await app.close()
  await smtp.close()
})

const services = () => app.server.ctx.app.services
const rowOf = (email: string) => app.server.ctx.database.db.selectFrom('subscribers').selectAll().where('email', '=', email).executeTakeFirst()

const looksRight = (tab: Page, where: string, lang: string) => expectTranslatedLayout(tab, where, lang, '.hp, [hidden]')

let manageUrl = ''
let unsubscribeUrl = ''

describe('a German visitor', () => {
  test('subscribes in German, gets a German confirmation and a German incident mail timed in Europe/Berlin', async () => {
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'de-DE' })
    const tab = await context.newPage()
    try {
      await tab.goto(`${app.server.statusHost(slug)}/`)
      await tab.getByRole('link', { name: NAV_SUBSCRIBE }).click()
      await tab.getByRole('heading', { name: 'Statusmeldungen erhalten' }).waitFor()
      await looksRight(tab, 'de /subscribe', 'de')
      await tab.getByLabel('E-Mail-Adresse').fill('kunde@example.com')
      await tab.getByRole('button', { name: 'Abonnieren' }).click()
      await tab.getByRole('heading', { name: 'Bitte prüfen Sie Ihr Postfach' }).waitFor()
      expect((await rowOf('kunde@example.com'))!.language).toBe('de')

      await services().outboxWorker.drain()
      const confirmation = await smtp.waitFor((m) => m.to === 'kunde@example.com')
      expect(confirmation.subject).toBe('Bestätigen Sie Ihr Abonnement von Sprachen Cloud')
      expect(confirmation.text).toContain('Jemand, hoffentlich Sie, möchte Statusmeldungen von Sprachen Cloud')
      expect(confirmation.html).toContain('<html lang="de">')
      await tab.goto(linkIn(confirmation.text, '/subscribe/confirm'))
      await tab.getByRole('heading', { name: 'Abonnement bestätigen' }).waitFor()
      await looksRight(tab, 'de confirm', 'de')
      await tab.getByRole('button', { name: 'Abonnement bestätigen' }).click()
      await tab.getByRole('heading', { name: 'Abonnement bestätigt' }).waitFor()

      const incident = await services().incidents.create(app.owner.user, { status_page_id: pageId, title: 'Langsame Zahlungen', message: 'Wir untersuchen erhöhte Fehlerraten.' })
      await emit(app.server.ctx, { kind: 'incident.opened', pageId, incidentId: incident.id, notifySubscribers: true, at: NOW })
      await services().outboxWorker.drain()
      const update = await smtp.waitFor((m) => m.to === 'kunde@example.com' && m.subject.includes('Langsame Zahlungen'))
      expect(update.subject).toBe('[Sprachen Cloud] Neue Störung: Langsame Zahlungen')
      // 12:00 UTC is 13:00 in Berlin in November (CET), written the German way with the zone named.
      const berlin = new Intl.DateTimeFormat('de', { timeZone: 'Europe/Berlin', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(NOW)
      expect(berlin).toContain('13:00')
      expect(update.text).toContain(`Veröffentlicht am ${berlin}`)
      expect(update.text).toContain('Wird untersucht: Wir untersuchen erhöhte Fehlerraten.')
      expect(update.text).toContain('Sie erhalten diese E-Mail, weil Sie Sprachen Cloud (')
      expect(update.html).toContain('Abbestellen')
      manageUrl = linkIn(update.text, '/subscribe/manage')
      unsubscribeUrl = linkIn(update.text, '/unsubscribe')
      expect(new URL(manageUrl).searchParams.get('lang')).toBe('de')
    } finally {
      await context.close()
    }
  })
})

describe('the subscribe pages in German and Japanese', () => {
  for (const width of [320, 1280]) {
    test(`${width} px: form, manage and unsubscribe pages, nothing overflowing, no key shown`, async () => {
      expect(manageUrl).not.toBe('')
      const context = await app.browser.newContext({ viewport: { width, height: 800 }, locale: 'en-US' })
      const tab = await context.newPage()
      try {
        for (const lang of ['de', 'ja']) {
          const inLang = (url: string) => {
            const u = new URL(url)
            u.searchParams.set('lang', lang)
            return u.href
          }
          for (const [name, url] of [['form', `${app.server.statusHost(slug)}/subscribe?lang=${lang}`], ['manage', inLang(manageUrl)], ['unsubscribe', inLang(unsubscribeUrl)]] as const) {
            const response = await tab.goto(url)
            expect({ name, status: response?.status() }).toEqual({ name, status: 200 })
            await looksRight(tab, `${lang} ${name} at ${width} px`, lang)
          }
        }
        // The switcher on the manage page keeps the token: Japanese, then saving keeps Japanese for the mails.
        await tab.goto(manageUrl)
        await tab.getByRole('link', { name: '日本語' }).click()
        await tab.getByRole('heading', { name: '購読の設定' }).waitFor()
        await tab.getByRole('button', { name: '保存' }).click()
        await tab.getByText('保存しました。').waitFor()
        expect((await rowOf('kunde@example.com'))!.language).toBe('ja')
      } finally {
        await context.close()
      }
    })
  }
})
