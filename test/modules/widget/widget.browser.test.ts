/**
 * The live widget in a real headless Chromium: a host page on another origin pastes `widget_html`
 * from `/api/embed/markdown`, exactly as an owner would, against a listening Lantern.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { loadConfig } from '../../../src/config.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { startServer, type RunningServer } from '../../../src/main.ts'
import { launchBrowser, seriousAxeViolations } from '../../helpers/browser.ts'
import { STATUS_COLOURS, type Scheme, type StatusTone } from '../../../src/modules/status-pipeline/colours.ts'

let browser: Browser
let server: RunningServer
let host: ReturnType<typeof Bun.serve>
let dir: string
let base: string
let key: string
let pageId: number
let componentId: number
let widgetHtml: string
let badgeHtml: string
const pages: Record<string, string> = {}
// The server's clock is pinned late in a UTC day: checks seeded a minute or two before it stay in
// that day and the test never depends on the hour it runs at.
const NOW = Date.UTC(2026, 10, 22, 23, 30)

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = probe.port!
  probe.stop(true)
  return port
}

const api = async (path: string, method = 'GET', body?: unknown) => {
  const response = await fetch(`${base}/user/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { data: any }).data
}

/** A host page that pastes `snippet`, with hostile CSS of its own. */
function hostPage(name: string, snippet: string): string {
  pages[`/${name}`] = `<!doctype html><html><head><title>host</title><style>
    * { color: rgb(255, 0, 0) !important; font-family: serif !important; }
    div { border: 7px dashed rgb(0, 255, 0); }
  </style></head><body><p>Host text <a class="l" href="#">host link</a></p>${snippet}<p>after</p></body></html>`
  return `http://127.0.0.1:${host.port}/${name}`
}

const fast = (snippet: string, ms = 250) => snippet.replaceAll('<script ', `<script data-poll-ms="${ms}" `)

async function open(url: string, setup?: (page: Page) => Promise<unknown>) {
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await setup?.(page)
  await page.goto(url)
  return { page, errors }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-widget-'))
  const port = freePort()
  base = `http://127.0.0.1:${port}`
  server = await startServer(loadConfig({ PORT: String(port), HOST: '127.0.0.1', BASE_URL: base, DATABASE_PATH: join(dir, 'db.sqlite') }), { clock: new ManualClock(NOW) })
  const user = await server.app.services.accounts.createUser({ email: 'widget@example.com', password: 'correct horse battery', plan: 'growth' })
  key = (await server.app.services.accounts.createApiKey(user.id, 'test')).key
  pageId = (await api('/status-pages', 'POST', { slug: 'widgety', name: 'Widgety <b>Inc</b>' })).id
  componentId = (await api(`/status-pages/${pageId}/components`, 'POST', { name: 'API' })).id
  await api(`/status-pages/${pageId}/components`, 'POST', { name: 'Web' })
  const snippets = (await (await fetch(`${base}/api/embed/markdown?slug=widgety`)).json()) as { widget_html: string; badge_html: string }
  widgetHtml = snippets.widget_html
  badgeHtml = snippets.badge_html
  host = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => {
      const html = pages[new URL(request.url).pathname]
      return html ? new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } }) : new Response('no', { status: 404 })
    },
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  host?.stop(true)
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('live widget in Chromium', () => {
  test('the pasted widget_html renders the status label linking to the status page, in a shadow root', async () => {
    expect(widgetHtml).toContain(`src="${base}/static/embed/v1/status.js"`)
    const { page, errors } = await open(hostPage('basic', widgetHtml))
    const label = page.locator('.lantern-status .l')
    await label.waitFor()
    expect(await label.textContent()).toBe('Operational')
    expect(await page.locator('.lantern-status a').getAttribute('href')).toBe('http://widgety.localhost:' + new URL(base).port)
    // Rendered right after its own script element, inside a shadow root.
    expect(await page.evaluate(() => document.querySelector('script[data-slug]')!.nextElementSibling!.className)).toBe('lantern-status')
    expect(await page.evaluate(() => document.querySelector('.lantern-status')!.shadowRoot !== null)).toBe(true)
    expect(await page.evaluate(() => document.querySelector('.lantern-status')!.textContent)).toBe('')
    // Host CSS does not leak in...
    const inside = await label.evaluate((el) => getComputedStyle(el).color)
    expect(inside).not.toBe('rgb(255, 0, 0)')
    const box = await page.locator('.lantern-status .w').evaluate((el) => getComputedStyle(el).borderTopWidth)
    expect(box).toBe('1px')
    // ...and the widget's CSS does not leak out.
    expect(await page.locator('p a.l').evaluate((el) => getComputedStyle(el).fontWeight)).toBe('400')
    expect(errors).toEqual([])
    await page.close()
  })

  test('shows a new status after a component changes, and announces it politely', async () => {
    const { page, errors } = await open(hostPage('change', fast(widgetHtml)))
    const label = page.locator('.lantern-status .l')
    await expect(label.textContent()).resolves.toBe('Operational')
    await api(`/components/${componentId}`, 'PATCH', { status: 'down' })
    await page.waitForFunction(() => {
      const root = document.querySelector('.lantern-status')?.shadowRoot
      return root?.querySelector('.l')?.textContent === 'Partial outage'
    })
    expect(await page.locator('.lantern-status [aria-live="polite"]').textContent()).toBe('Status changed: Partial outage')
    await api(`/components/${componentId}`, 'PATCH', { status: 'up' })
    await page.waitForFunction(() => document.querySelector('.lantern-status')?.shadowRoot?.querySelector('.l')?.textContent === 'Operational')
    expect(errors).toEqual([])
    await page.close()
  })

  test('shows active incidents (markup stays text), response-time sparkline and uptime bars', async () => {
    const now = NOW
    await api(`/components/${componentId}/checks`, 'POST', [
      { at: new Date(now - 120_000).toISOString(), ok: true, response_ms: 120 },
      { at: new Date(now - 60_000).toISOString(), ok: true, response_ms: 80 },
    ])
    const incident = await api('/incidents', 'POST', { status_page_id: pageId, title: '<img src=x onerror=alert(1)>Login errors', component_ids: [componentId], incident_state_id: '2' })
    const { page, errors } = await open(hostPage('incidents', fast(widgetHtml)))
    const item = page.locator('.lantern-status li')
    await item.first().waitFor()
    expect(await item.first().textContent()).toBe('Identified<img src=x onerror=alert(1)>Login errors · API')
    expect(await page.locator('.lantern-status li img').count()).toBe(0)
    expect(await page.locator('.lantern-status .l').textContent()).toBe('Degraded performance')
    expect(await page.locator('.lantern-status svg.s polyline').count()).toBe(1)
    expect(await page.locator('.lantern-status .b span').count()).toBe(7)
    await api(`/incidents/${incident.id}`, 'PATCH', { incident_state_id: '4' })
    await page.waitForFunction(() => document.querySelector('.lantern-status')?.shadowRoot?.querySelectorAll('li').length === 0)
    expect(errors).toEqual([])
    await page.close()
  })

  test("speaks the host page's language, or data-lang, else the status page's; the words come with the status JSON", async () => {
    const incident = await api('/incidents', 'POST', { status_page_id: pageId, title: 'Anmeldung', component_ids: [componentId], incident_state_id: '2' })
    const shown = async (url: string) => {
      const { page, errors } = await open(url)
      await page.locator('.lantern-status .b span').first().waitFor()
      const seen = await page.evaluate(() => {
        const root = document.querySelector('.lantern-status')!.shadowRoot!
        return {
          lang: root.querySelector('.w')!.getAttribute('lang'),
          label: root.querySelector('.l')!.textContent,
          state: root.querySelector('li b')?.textContent,
          bars: root.querySelector('.b')!.getAttribute('aria-label'),
          today: root.querySelector('.b span:last-child')!.getAttribute('title'),
          yesterday: root.querySelector('.b span:nth-last-child(2)')!.getAttribute('title'),
        }
      })
      expect(errors).toEqual([])
      await page.close()
      return seen
    }
    try {
      // A German host page (a region in its tag), the status page's default English.
      hostPage('deutsch', widgetHtml)
      pages['/deutsch'] = pages['/deutsch']!.replace('<html>', '<html lang="de-AT">')
      const german = await shown(`http://127.0.0.1:${host.port}/deutsch`)
      expect(german).toMatchObject({ lang: 'de', label: 'Eingeschränkte Leistung', state: 'Ursache gefunden', bars: 'Tägliche Verfügbarkeit, letzte 7 Tage' })
      expect(german.today).toMatch(/^Heute: (Keine Daten|[\d,]+ % verfügbar)$/)
      expect(german.yesterday).toMatch(/^vor 1 Tag: /)
      // data-lang wins over the host page's language.
      const japanese = await shown(hostPage('nihongo', widgetHtml.replace('<script ', '<script data-lang="ja" ')))
      expect(japanese).toMatchObject({ lang: 'ja', label: 'パフォーマンス低下', state: '原因特定' })
      expect(japanese.yesterday).toMatch(/^1 日前: /)
      // A host's lang written with an underscore still counts; one that is no tag is left out (no 400).
      hostPage('unterstrich', widgetHtml)
      pages['/unterstrich'] = pages['/unterstrich']!.replace('<html>', '<html lang="de_DE">')
      expect(await shown(`http://127.0.0.1:${host.port}/unterstrich`)).toMatchObject({ lang: 'de', label: 'Eingeschränkte Leistung' })
      expect(await shown(hostPage('kaputt', widgetHtml.replace('<script ', '<script data-lang="&lt;b&gt; x" ')))).toMatchObject({ lang: 'en', label: 'Degraded performance' })
      // A host page without a language: the status page's own (English here), as before.
      expect(await shown(hostPage('plain', widgetHtml))).toMatchObject({ lang: 'en', label: 'Degraded performance', state: 'Identified', bars: 'Daily uptime, last 7 days' })
    } finally {
      await api(`/incidents/${incident.id}`, 'PATCH', { incident_state_id: '4' })
    }
  })

  test('pauses polling while the tab is hidden and refreshes as soon as it is visible again', async () => {
    const requests: number[] = []
    const { page, errors } = await open(hostPage('hidden', fast(widgetHtml, 150)), async (p) => {
      p.on('request', (request) => {
        if (request.url().includes('/api/embed/status')) requests.push(Date.now())
      })
    })
    await page.locator('.lantern-status .l').waitFor()
    for (let waited = 0; requests.length < 2 && waited < 5000; waited += 50) await page.waitForTimeout(50)
    expect(requests.length).toBeGreaterThanOrEqual(2)
    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => value })
        document.dispatchEvent(new Event('visibilitychange'))
      }, hidden)
    await setHidden(true)
    await page.waitForTimeout(600) // a poll already in flight may still finish (and be reported late)
    const whileHidden = requests.length
    await page.waitForTimeout(900) // six poll intervals
    expect(requests.length).toBe(whileHidden)
    await setHidden(false)
    // Visible again: a request goes out at once, not after the next interval.
    for (let waited = 0; requests.length === whileHidden && waited < 5000; waited += 50) await page.waitForTimeout(50)
    expect(requests.length).toBeGreaterThan(whileHidden)
    expect(errors).toEqual([])
    await page.close()
  })

  test('honours the dark theme, and auto follows prefers-color-scheme', async () => {
    const dark = widgetHtml.replace('data-theme="auto"', 'data-theme="dark"')
    const light = widgetHtml.replace('data-theme="auto"', 'data-theme="light"')
    const background = (page: Page, index: number) => page.locator('.lantern-status .w').nth(index).evaluate((el) => getComputedStyle(el).backgroundColor)
    const { page } = await open(hostPage('themes', dark + light + widgetHtml), (p) => p.emulateMedia({ colorScheme: 'dark' }))
    await page.locator('.lantern-status .l').nth(2).waitFor()
    expect(await page.locator('.lantern-status').count()).toBe(3)
    expect(await background(page, 0)).toBe('rgb(13, 17, 23)')
    expect(await background(page, 1)).toBe('rgb(255, 255, 255)')
    expect(await background(page, 2)).toBe('rgb(13, 17, 23)')
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await background(page, 0)).toBe('rgb(13, 17, 23)')
    expect(await background(page, 2)).toBe('rgb(255, 255, 255)')
    await page.close()
  })

  test('survives the status API answering 500: a quiet "Status unavailable", no error in the host page, recovers', async () => {
    let failing = true
    const { page, errors } = await open(hostPage('broken', fast(widgetHtml)), (p) =>
      p.route('**/api/embed/status**', (route) => (failing ? route.fulfill({ status: 500, body: 'boom' }) : route.continue())),
    )
    const unavailable = page.locator('.lantern-status .m')
    await unavailable.waitFor()
    expect(await unavailable.textContent()).toBe('Status unavailable')
    expect(await page.locator('p').first().textContent()).toContain('Host text')
    failing = false
    await page.locator('.lantern-status .l').waitFor()
    expect(await page.locator('.lantern-status .l').textContent()).toMatch(/Operational|Degraded performance/)
    expect(errors).toEqual([])
    await page.close()
  })

  test("a widget whose status request fails speaks its host page's language: a server answering 500, and one that is down", async () => {
    const script = await (await fetch(`${base}/static/embed/v1/status.js`)).text()
    // A Lantern in trouble: it still serves the script, and answers the status with 500.
    const broken = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: (request) =>
        new URL(request.url).pathname === '/static/embed/v1/status.js' ? new Response(script, { headers: { 'content-type': 'text/javascript; charset=utf-8' } }) : new Response('boom', { status: 500 }),
    })
    // A Lantern that is down: nothing listens on its port (the browser had the script from its cache).
    const downPort = freePort()
    const down = `http://127.0.0.1:${downPort}`
    const cachedScript = (page: Page) => page.route(`${down}/static/embed/v1/status.js`, (route) => route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: script }))
    const failing = async (name: string, htmlLang: string | undefined, snippet: string, setup?: (page: Page) => Promise<unknown>) => {
      hostPage(name, snippet)
      if (htmlLang !== undefined) pages[`/${name}`] = pages[`/${name}`]!.replace('<html>', `<html lang="${htmlLang}">`)
      const { page, errors } = await open(`http://127.0.0.1:${host.port}/${name}`, setup)
      const unavailable = page.locator('.lantern-status .m')
      await unavailable.waitFor()
      const seen = { text: await unavailable.textContent(), lang: await page.locator('.lantern-status .w').getAttribute('lang') }
      expect(await page.locator('p').first().textContent()).toContain('Host text')
      expect(errors).toEqual([])
      await page.close()
      return seen
    }
    const at = (origin: string) => widgetHtml.replaceAll(base, origin)
    try {
      expect(at(`http://127.0.0.1:${broken.port}`)).toContain(`http://127.0.0.1:${broken.port}/static/embed/v1/status.js`)
      expect(await failing('de-500', 'de-CH', at(`http://127.0.0.1:${broken.port}`))).toEqual({ text: 'Status nicht verfügbar', lang: 'de' })
      expect(await failing('de-down', 'de', at(down), cachedScript)).toEqual({ text: 'Status nicht verfügbar', lang: 'de' })
      expect(await failing('ja-500', 'ja', at(`http://127.0.0.1:${broken.port}`))).toEqual({ text: 'ステータスを取得できません', lang: 'ja' })
      // data-lang wins over the host page's language, as for the words that come with the status.
      expect(await failing('fr-down', 'de', at(down).replace('<script ', '<script data-lang="fr" '), cachedScript)).toEqual({ text: 'État indisponible', lang: 'fr' })
      expect(await failing('pt-500', 'pt', at(`http://127.0.0.1:${broken.port}`))).toEqual({ text: 'Status indisponível', lang: 'pt-BR' })
      // A language we do not have, or none: English (the status page's own language is not known yet).
      expect(await failing('it-500', 'it', at(`http://127.0.0.1:${broken.port}`))).toEqual({ text: 'Status unavailable', lang: 'en' })
      expect(await failing('none-down', undefined, at(down), cachedScript)).toEqual({ text: 'Status unavailable', lang: 'en' })
    } finally {
      broken.stop(true)
    }
  })

  test('unknown slug, missing slug and garbage attributes never throw into the page', async () => {
    const odd =
      `<script src="${base}/static/embed/v1/status.js" data-slug="no-such-page" data-rtm="9999" data-upd="-4"></script>` +
      `<script src="${base}/static/embed/v1/status.js" data-slug="&lt;/script&gt;" data-theme="neon"></script>` +
      `<script src="${base}/static/embed/v1/status.js"></script>`
    const { page, errors } = await open(hostPage('odd', odd))
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.lantern-status')).every((h) => h.shadowRoot?.textContent?.includes('Status unavailable')))
    expect(await page.locator('.lantern-status').count()).toBe(3)
    expect(errors).toEqual([])
    await page.close()
  })

  test('a Pro page (widget without incidents or sparklines) falls back to the basic status', async () => {
    const user = await server.app.services.accounts.createUser({ email: 'pro@example.com', password: 'correct horse battery', plan: 'pro' })
    const proKey = (await server.app.services.accounts.createApiKey(user.id, 't')).key
    await fetch(`${base}/user/api/v1/status-pages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${proKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'pro-widget', name: 'Pro' }),
    })
    const { page, errors } = await open(hostPage('pro', widgetHtml.replace('data-slug="widgety"', 'data-slug="pro-widget"')))
    await page.locator('.lantern-status .l').waitFor()
    expect(await page.locator('.lantern-status .l').textContent()).toBe('Operational')
    expect(errors).toEqual([])
    await page.close()
  })

  test('the preview page renders each snippet live (badges load, widgets render) and copies code', async () => {
    const context = await browser.newContext()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${base}/embed/preview?slug=widgety`)
    expect(await page.title()).toBe('Embed preview · Widgety <b>Inc</b>')
    const badge = page.locator('[data-snippet="badge_html"] img')
    await page.waitForFunction(() => (document.querySelector('[data-snippet="badge_html"] img') as HTMLImageElement | null)?.naturalWidth! > 0)
    expect(await badge.getAttribute('src')).toBe(`${base}/badge/widgety.svg`)
    await page.locator('[data-snippet="widget_html"] .lantern-status .l').waitFor()
    await page.locator('[data-snippet="widget_script"] .lantern-status .l').waitFor()
    await page.getByRole('button', { name: 'Copy' }).nth(2).click()
    await page.getByRole('button', { name: 'Copied' }).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      (await page.locator("code#badge_html").textContent()) ?? "",
    )
    expect(errors).toEqual([])
    await context.close()
  })

  test('the link names the page and its status; the sparkline has a scale; axe finds nothing serious in light or dark', async () => {
    await api(`/components/${componentId}/checks`, 'POST', [
      { at: new Date(NOW - 180_000).toISOString(), ok: true, response_ms: 95 },
      { at: new Date(NOW - 90_000).toISOString(), ok: true, response_ms: 140 },
    ])
    const clean = `<!doctype html><html lang="en"><head><title>host</title></head><body><main>${fast(widgetHtml)}</main></body></html>`
    pages['/clean'] = clean
    const { page, errors } = await open(`http://127.0.0.1:${host.port}/clean`)
    const link = page.getByRole('link', { name: 'Widgety <b>Inc</b>: Operational', exact: true })
    await link.waitFor()
    expect(await link.getAttribute('href')).toBe('http://widgety.localhost:' + new URL(base).port)
    // The response-time line over a labelled scale from 0 ms to its highest value, and the figures as text,
    // the same as the status JSON's.
    await page.locator('.lantern-status figure.sp').waitFor()
    const rtm = ((await (await fetch(`${base}/api/embed/status?slug=widgety&rtm=60`)).json()) as { rtm: Array<number | null> }).rtm.filter((v): v is number => v !== null)
    const [min, max, avg] = [Math.round(Math.min(...rtm)), Math.round(Math.max(...rtm)), Math.round(rtm.reduce((a, b) => a + b, 0) / rtm.length)]
    expect(await page.locator('.lantern-status .ax span').allTextContents()).toEqual([`${max} ms`, '0 ms'])
    expect(await page.locator('.lantern-status figcaption').textContent()).toBe(`Response time, last 60 min: min ${min} ms, average ${avg} ms, max ${max} ms`)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      expect({ colorScheme, violations: await seriousAxeViolations(page) }).toEqual({ colorScheme, violations: [] })
    }
    expect(errors).toEqual([])
    await page.close()
  })

  test("after a status change, a visitor's next view shows it on the pasted badge as on the widget (the browser asks again)", async () => {
    const url = hostPage('badge-and-widget', badgeHtml + widgetHtml)
    // How wide the badge is in each status: the picture the visitor's browser shows.
    const badgeWidth = async () => Number(/<svg[^>]* width="(\d+)"/.exec(await (await fetch(`${base}/badge/widgety.svg`)).text())![1])
    const shown = async (page: Page) => {
      const img = page.locator('img[alt=Status]')
      await page.waitForFunction(() => (document.querySelector('img[alt=Status]') as HTMLImageElement | null)?.complete === true)
      return img.evaluate((el) => (el as HTMLImageElement).naturalWidth)
    }
    const { page, errors } = await open(url)
    await page.locator('.lantern-status .l').waitFor()
    const operationalWidth = await badgeWidth()
    expect(await shown(page)).toBe(operationalWidth)
    await api(`/components/${componentId}`, 'PATCH', { status: 'down' })
    try {
      const outageWidth = await badgeWidth()
      expect(outageWidth).not.toBe(operationalWidth)
      // The visitor comes back to the page (a new view, the browser's cache warm).
      await page.goto(url)
      await page.waitForFunction(() => document.querySelector('.lantern-status')?.shadowRoot?.querySelector('.l')?.textContent === 'Partial outage')
      expect(await shown(page)).toBe(outageWidth)
    } finally {
      await api(`/components/${componentId}`, 'PATCH', { status: 'up' })
    }
    expect(errors).toEqual([])
    await page.close()
  })

  test('one colour per status: badge, widget dot and bars, page banner, component status and uptime bars, light and dark', async () => {
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`
    const colour = (tone: StatusTone, scheme: Scheme) => rgb(STATUS_COLOURS[tone][scheme])
    // Yesterday the API was down for 12 hours: a red day on the page's bars and on the widget's.
    const yesterday = Date.UTC(2026, 10, 21)
    await api(`/components/${componentId}/history`, 'POST', [
      { status: 'down', at: new Date(yesterday + 6 * 3_600_000).toISOString() },
      { status: 'up', at: new Date(yesterday + 18 * 3_600_000).toISOString() },
    ])
    await api(`/components/${componentId}`, 'PATCH', { status: 'down' })
    try {
      const badge = await (await fetch(`${base}/badge/widgety.svg`)).text()
      expect(badge).toContain(`fill="${STATUS_COLOURS.partial_outage.light}"`)
      const statusPage = await browser.newPage()
      await statusPage.goto(`http://widgety.localhost:${new URL(base).port}/`)
      const { page } = await open(hostPage('colours', widgetHtml))
      await page.waitForFunction(() => document.querySelector('.lantern-status')?.shadowRoot?.querySelector('.l')?.textContent === 'Partial outage')
      const style = (target: Page, selector: string, property: 'backgroundColor' | 'color') =>
        target.locator(selector).first().evaluate((el, name) => getComputedStyle(el)[name as 'color'], property)
      for (const scheme of ['light', 'dark'] as const) {
        await Promise.all([statusPage.emulateMedia({ colorScheme: scheme }), page.emulateMedia({ colorScheme: scheme })])
        const seen = {
          banner: await style(statusPage, '.banner', 'backgroundColor'),
          apiStatus: await style(statusPage, '.status--major_outage', 'color'),
          pageBarYesterday: await style(statusPage, '.bars > li:nth-last-child(2)', 'backgroundColor'),
          pageBarToday: await style(statusPage, '.bars > li:last-child', 'backgroundColor'),
          widgetDot: await style(page, '.lantern-status .d', 'backgroundColor'),
          widgetBarYesterday: await style(page, '.lantern-status .b span:nth-last-child(2)', 'backgroundColor'),
        }
        expect({ scheme, ...seen }).toEqual({
          scheme,
          banner: colour('partial_outage', scheme),
          apiStatus: colour('major_outage', scheme),
          pageBarYesterday: colour('major_outage', scheme),
          // Today: down only since a moment ago, under the red share of a day.
          pageBarToday: colour('operational', scheme),
          widgetDot: colour('partial_outage', scheme),
          widgetBarYesterday: colour('major_outage', scheme),
        })
      }
      await statusPage.close()
      await page.close()
    } finally {
      await api(`/components/${componentId}`, 'PATCH', { status: 'up' })
    }
  })
})
