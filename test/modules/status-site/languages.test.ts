/**
 * Visitor languages and time zones over real HTTP: the owner sets a page's default language and
 * zone through the API (bad values are 400 and change nothing); the public page, its history and
 * incident pages answer in the visitor's language (`?lang=`, else Accept-Language, else the
 * page's default) with every time in the page's zone, named, or the visitor's with `?tz=`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string
let pageId: number

beforeAll(async () => {
  ctx = await createTestContext()
  key = (await ctx.createOwner('pro')).key
  pageId = (await ctx.createPage(key, { slug: 'sprachen', name: 'Sprachen' })).id
})
afterAll(() => ctx.close())

const patch = (id: number, body: Record<string, unknown>) => ctx.request(`/user/api/v1/status-pages/${id}`, { method: 'PATCH', key, json: body })

describe('the owner sets the default language and zone', () => {
  test('a new page reads English and UTC; a chosen language and zone are kept and spelled as IANA does', async () => {
    const fresh = await json(await ctx.request(`/user/api/v1/status-pages/${pageId}`, { key }))
    expect(fresh.data).toMatchObject({ language: 'en', time_zone: 'UTC' })
    const changed = await patch(pageId, { language: 'de', time_zone: 'europe/berlin' })
    expect(changed.status).toBe(200)
    expect((await json(changed)).data).toMatchObject({ language: 'de', time_zone: 'Europe/Berlin' })
    const made = await ctx.createPage(key, { slug: 'nihongo', name: 'Nihongo', language: 'ja', time_zone: 'Asia/Tokyo' })
    expect(made).toMatchObject({ language: 'ja', time_zone: 'Asia/Tokyo' })
  })

  test('an unknown language or zone is a 400 that changes nothing', async () => {
    for (const body of [{ language: 'xx' }, { language: 'de-DE' }, { time_zone: 'Mars/Olympus' }, { time_zone: '../../etc' }, { time_zone: '' }, { language: 'fr', time_zone: 'Nowhere/City' }]) {
      const response = await patch(pageId, body)
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(/language|time_zone/)
    }
    const created = await ctx.request('/user/api/v1/status-pages', { method: 'POST', key, json: { slug: 'bad-zone', name: 'Bad', time_zone: 'Atlantis/Deep' } })
    expect(created.status).toBe(400)
    const after = await json(await ctx.request(`/user/api/v1/status-pages/${pageId}`, { key }))
    expect(after.data).toMatchObject({ language: 'de', time_zone: 'Europe/Berlin' })
    expect((await ctx.request('/user/api/v1/status-pages', { key }).then(json)).data.map((p: { slug: string }) => p.slug)).not.toContain('bad-zone')
  })

  test("someone else's page is a 404", async () => {
    const stranger = (await ctx.createOwner('pro')).key
    const response = await ctx.request(`/user/api/v1/status-pages/${pageId}`, { method: 'PATCH', key: stranger, json: { language: 'fr' } })
    expect(response.status).toBe(404)
  })
})

describe('visitors read the public pages in their language and the page\'s zone', () => {
  // A seeded instant: 13:05 UTC on 27 Nov 2026 is 14:05 in Berlin (CET, "MEZ" in German) and 22:05 in Tokyo.
  const STARTED = Date.UTC(2026, 10, 27, 13, 5)
  const HOST = 'https://berlin.status.test'
  let incidentId: number
  const get = (path: string, headers: Record<string, string> = {}) => ctx.request(`${HOST}${path}`, { headers })

  beforeAll(async () => {
    const page = await ctx.createPage(key, { slug: 'berlin', name: 'Berlin', language: 'de', time_zone: 'Europe/Berlin' })
    expect((await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name: 'Kasse', type: 'site' } })).status).toBe(201)
    ctx.clock.set(STARTED)
    const made = await ctx.request('/user/api/v1/incidents', { method: 'POST', key, json: { status_page_id: page.id, title: 'Zahlungen langsam', message: 'Wir prüfen das.' } })
    incidentId = (await json(made)).data.id
    ctx.clock.set(STARTED + 10 * 60_000)
  })

  test('a visitor who asks for nothing gets the page\'s default language, times in its zone with the zone named', async () => {
    const response = await get('/')
    expect(response.status).toBe(200)
    expect(response.headers.get('vary')).toContain('Accept-Language')
    const body = await response.text()
    expect(body).toContain('<html lang="de">')
    expect(body).toContain('<h2 id="active-incidents">Aktuelle Störungen</h2>')
    expect(body).toContain('Betrifft: Alle Komponenten.')
    expect(body).toContain('>27. Nov. 2026, 14:05 MEZ</time>')
    expect(body).toContain('Zeiten in Europe/Berlin.')
    expect(body).toContain('<link rel="alternate" type="text/calendar" title="Status von Berlin (Wartungskalender)" href="/maintenance.ics">')
    expect(body).toContain('<span class="days-90">vor 90 Tagen</span>')
    expect(body).not.toContain('Incident history')
  })

  test('Accept-Language picks the best language we have; each language is kept apart in the cache', async () => {
    const english = await (await get('/', { 'accept-language': 'en-GB,en;q=0.9,de;q=0.5' })).text()
    expect(english).toContain('<html lang="en">')
    expect(english).toContain('<h2 id="active-incidents">Active incidents</h2>')
    expect(english).toContain('>27 Nov 2026, 14:05 GMT+1</time>')
    expect(english).not.toContain('Aktuelle Störungen')
    // The German answer is cached by now; a Japanese reader still gets Japanese, and so on.
    const japanese = await (await get('/', { 'accept-language': 'zz, ja;q=0.8, fr;q=0.5' })).text()
    expect(japanese).toContain('<html lang="ja">')
    expect(japanese).toContain('<h2 id="active-incidents">発生中の障害</h2>')
    expect(japanese).toContain('>2026年11月27日 14:05 GMT+1</time>')
    expect(await (await get('/', { 'accept-language': 'pt' })).text()).toContain('<html lang="pt-BR">')
    expect(await (await get('/', { 'accept-language': 'fr-CH, fr;q=0.9' })).text()).toContain('Incidents en cours')
    expect(await (await get('/', { 'accept-language': 'es-MX' })).text()).toContain('Incidentes activos')
    // A language we don't have falls back to the page's default; so does a weight of 0.
    expect(await (await get('/', { 'accept-language': 'ko, en;q=0' })).text()).toContain('<html lang="de">')
    const again = await (await get('/', { 'accept-language': 'en-GB,en;q=0.9,de;q=0.5' })).text()
    expect(again).toBe(english)
  })

  test('?lang= wins over Accept-Language, and the page\'s links and the switcher keep it', async () => {
    const body = await (await get('/?lang=ja', { 'accept-language': 'de' })).text()
    expect(body).toContain('<html lang="ja">')
    // (The page's escaping writes '=' in attributes as &#61; and '&' as &#38;.)
    expect(body).toContain('<a href="/history?lang&#61;ja">障害履歴</a>')
    expect(body).toContain(`<a href="/incidents/${incidentId}?lang&#61;ja">Zahlungen langsam</a>`)
    expect(body).toContain('<nav class="languages" aria-label="言語">')
    for (const [lang, name] of [['en', 'English'], ['de', 'Deutsch'], ['fr', 'Français'], ['es', 'Español'], ['pt-BR', 'Português (Brasil)'], ['ja', '日本語']]) {
      expect(body).toContain(`<a href="/?lang=${lang}" lang="${lang}" hreflang="${lang}"`)
      expect(body).toContain(`>${name}</a>`)
    }
    expect(body).toContain('<a href="/?lang=ja" lang="ja" hreflang="ja" aria-current="true">日本語</a>')
  })

  test('a bad ?lang= or ?tz= is ignored: the page still answers, in the negotiated language and the page\'s zone', async () => {
    for (const query of ['?lang=xx', '?lang=', '?lang=%3Cscript%3E', `?lang=${'a'.repeat(5000)}`, '?lang=de&lang=ja', '?tz=Mars/Olympus', '?tz=../../etc/passwd', '?tz=']) {
      const response = await get(`/${query}`, { 'accept-language': 'fr' })
      expect({ query, status: response.status }).toEqual({ query, status: 200 })
      const body = await response.text()
      // Of two ?lang= the first counts.
      const german = query.startsWith('?lang=de&')
      expect(body).toContain(german ? '<html lang="de">' : '<html lang="fr">')
      expect(body).toContain(german ? '27. Nov. 2026, 14:05 MEZ' : '27 nov. 2026, 14:05 UTC+1')
      expect(body).not.toContain('script')
    }
    for (const path of ['/history?lang=xx', `/incidents/${incidentId}?lang=%00`, '/history?tz=Nowhere']) expect((await get(path)).status).toBe(200)
  })

  test('?tz= shows every time in the visitor\'s zone, named, with a way back to the page\'s', async () => {
    const cached = ctx.app.publicCache!.size
    const body = await (await get('/?lang=en&tz=asia/tokyo')).text()
    expect(body).toContain('>27 Nov 2026, 22:05 GMT+9</time>')
    expect(body).toContain('Times are shown in Asia/Tokyo.')
    expect(body).toContain('<a href="/?lang=en">Show the page&#39;s time zone (Europe/Berlin)</a>')
    expect(body).toContain('<a href="/history?lang&#61;en&#38;tz&#61;Asia%2FTokyo">Incident history</a>')
    expect(await (await get('/?lang=ja&tz=Asia/Tokyo')).text()).toContain('>2026年11月27日 22:05 JST</time>')
    // Answers in a visitor's own zone are not kept: made-up zones cannot crowd the cache.
    for (const zone of ['America/New_York', 'Europe/Paris', 'Australia/Sydney']) for (const path of ['/', '/history', `/incidents/${incidentId}`]) expect((await get(`${path}?tz=${zone}`)).status).toBe(200)
    expect(ctx.app.publicCache!.size).toBe(cached)
  })

  test('the history and an incident\'s page speak the visitor\'s language too', async () => {
    const history = await get('/history', { 'accept-language': 'ja' })
    expect(history.headers.get('vary')).toContain('Accept-Language')
    const archive = await history.text()
    expect(archive).toContain('<html lang="ja">')
    expect(archive).toContain('<title>障害履歴 · Berlin</title>')
    expect(archive).toContain('<h3>2026年11月</h3>')
    const incident = await (await get(`/incidents/${incidentId}?lang=de`)).text()
    expect(incident).toContain('<html lang="de">')
    expect(incident).toContain('<span class="state">Wird untersucht</span>')
    expect(incident).toContain('Auswirkung: <strong class="impact impact-minor">Gering</strong>')
    expect(incident).toContain('Begonnen <time datetime="2026-11-27T13:05:00.000Z">27. Nov. 2026, 14:05 MEZ</time>')
    const french = await (await get(`/incidents/${incidentId}`, { 'accept-language': 'fr' })).text()
    expect(french).toContain('<span class="state">En cours d’analyse</span>')
    expect(french).toContain('<a href="/history">Historique des incidents</a>')
  })
})
