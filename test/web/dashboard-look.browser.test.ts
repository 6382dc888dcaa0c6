/**
 * What the analytics dashboard shows, in real headless Chromium against a listening test context
 * with a fixed clock (2026-11-23 12:00 UTC, never the wall clock): figures and labels, ISO dates,
 * chart axes readable in light and dark mode, a lone response-time point drawn, and no sideways
 * scroll at 320 px; every series line in colours of the theme (charts.css) that stand out from the
 * card, and axe in both themes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { contrastRatio } from '../../src/modules/branding/palette.ts'
import { launchBrowser, seriousAxeViolations } from '../helpers/browser.ts'
import { json } from '../helpers/context.ts'
import { listenTestContext, type ListeningContext } from '../helpers/listening.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const DAY = 86_400_000
const EMAIL = 'look@example.com'
const PASSWORD = 'correct horse battery'
const shots = join(tmpdir(), 'lantern-screenshots')

let browser: Browser
let site: ListeningContext
let pageId: number

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  site = await listenTestContext({ now: NOW })
  const { ctx } = site
  const { key } = await ctx.createOwner('pro', EMAIL)
  pageId = (await ctx.createPage(key, { slug: 'dash-look', name: 'Look' })).id
  const call = async (path: string, method: string, body: unknown) => {
    const response = await ctx.request(`/user/api/v1${path}`, { method, key, json: body })
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
    return json(response)
  }
  const steady = (await call(`/status-pages/${pageId}/components`, 'POST', { name: 'Always up' })).data.id
  const api = (await call(`/status-pages/${pageId}/components`, 'POST', { name: 'API' })).data.id
  await call(`/components/${steady}/history`, 'POST', [{ status: 'up', at: new Date(NOW - 120 * DAY).toISOString() }])
  await call(`/components/${api}/history`, 'POST', [
    { status: 'up', at: new Date(NOW - 120 * DAY).toISOString() },
    { status: 'down', at: new Date(NOW - 3 * DAY).toISOString() },
    { status: 'up', at: new Date(NOW - 3 * DAY + 3_600_000).toISOString() },
  ])
  // Monitoring started today: one day with response times in the whole range.
  await call(`/components/${api}/checks`, 'POST', [{ at: new Date(NOW - 60_000).toISOString(), ok: true, response_ms: 120 }])
  browser = await launchBrowser()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
}, 60_000)

async function dashboard(scheme: 'light' | 'dark', width: number, query = '', initScript?: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme })
  if (initScript) await context.addInitScript(initScript)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${site.base}/user/login?next=${encodeURIComponent(`/user/analytics/${pageId}${query}`)}`)
  await page.fill('input[name=email]', EMAIL)
  await page.fill('input[name=password]', PASSWORD)
  await page.click('button[type=submit]')
  await page.waitForURL(/\/user\/analytics\/\d+/)
  await page.waitForSelector('#summary .metric')
  await page.waitForSelector('#chart-response canvas')
  return { page, errors }
}

/** Reads the pixels of a chart's canvas in the page: how many match a colour, or the best contrast of a band. */
function canvasPixels(page: Page, chart: string) {
  return page.evaluate((selector) => {
    const canvas = document.querySelector(`${selector} canvas`) as HTMLCanvasElement
    const context = canvas.getContext('2d')!
    const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height)
    const pixels: Array<[number, number, number, number, number]> = []
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4
        if (data[i + 3]! > 200) pixels.push([x, y, data[i]!, data[i + 1]!, data[i + 2]!])
      }
    }
    const card = getComputedStyle(canvas.closest('.card')!).backgroundColor
    return { pixels, width, height, card }
  }, chart)
}

const hexOf = (r: number, g: number, b: number) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`
const cssHex = (css: string) => {
  const [r, g, b] = /rgba?\(([^)]+)\)/.exec(css)![1]!.split(/[ ,]+/).map(Number) as [number, number, number]
  return hexOf(r, g, b)
}

test('figures and labels: 100 % reads "100 %", outage periods are named as such, a custom range names its last day', async () => {
  const { page, errors } = await dashboard('light', 1280)
  const uptimeOf = (name: string) => page.locator('#components tbody tr', { hasText: name }).locator('td').nth(1).textContent()
  expect(await uptimeOf('Always up')).toBe('100 %')
  // The summary counts times a component went down, which are not published incidents.
  const labels = await page.locator('#summary .metric .label').allTextContents()
  expect(labels).toContain('Outage periods (a component went down)')
  expect(labels.some((label) => /^Incidents/.test(label))).toBe(false)
  expect(await page.locator('#summary .metric', { hasText: 'Outage periods' }).locator('.value').textContent()).toBe('1')

  await page.fill('#range-form input[name=from]', '2026-11-01')
  await page.fill('#range-form input[name=to]', '2026-11-10')
  await page.click('#range-form button[type=submit]')
  await page.waitForFunction(() => document.querySelector('#range-label')?.textContent?.includes('1 Nov 2026'))
  expect(await page.textContent('#range-label')).toBe('1 Nov 2026 to 10 Nov 2026 (10 days)')
  expect(errors).toEqual([])
  await page.context().close()
}, 60_000)

// Keeps each uPlot chart the dashboard makes, to read the labels it drew on its canvas.
const CAPTURE_CHARTS = `(() => {
  let wrapped
  Object.defineProperty(window, 'uPlot', {
    configurable: true,
    get: () => wrapped,
    set(real) {
      wrapped = function (...args) { const chart = new real(...args); (window.__charts ||= []).push(chart); return chart }
      Object.assign(wrapped, real)
    },
  })
})()`

test('chart axes are ISO days (2026-11-23), not US month/day; the legend names the day as people read it', async () => {
  const { page } = await dashboard('light', 1280, '?range=7d', CAPTURE_CHARTS)
  const xLabels = (await page.evaluate(() => (window as any).__charts.map((chart: any) => chart.axes[0]._values))) as string[][]
  expect(xLabels.length).toBe(3)
  for (const labels of xLabels) {
    expect(labels.length).toBeGreaterThan(1)
    for (const label of labels) expect(label).toMatch(/^2026-11-(1[7-9]|2[0-3])$/)
  }
  const over = page.locator('#chart-uptime .u-over')
  const box = (await over.boundingBox())!
  await over.hover({ position: { x: box.width - 2, y: box.height / 2 } })
  const day = await page.locator('#chart-uptime .u-legend .u-series').first().locator('.u-value').textContent()
  expect(day).toBe('23 Nov 2026')
  await page.context().close()
}, 60_000)

for (const scheme of ['light', 'dark'] as const) {
  describe(`${scheme} mode`, () => {
    test('axis labels read against the card (contrast of at least 4.5)', async () => {
      const { page } = await dashboard(scheme, 1280)
      const { pixels, height, card } = await canvasPixels(page, '#chart-uptime')
      const dpr = await page.evaluate(() => devicePixelRatio)
      // The x axis sits below the plot: its band holds the day labels (and grey ticks).
      const band = pixels.filter(([, y]) => y > height - 40 * dpr)
      expect(band.length).toBeGreaterThan(0)
      const best = Math.max(...band.map(([, , r, g, b]) => contrastRatio(hexOf(r, g, b), cssHex(card))))
      expect(best).toBeGreaterThanOrEqual(4.5)
      await page.screenshot({ path: join(shots, `dashboard-${scheme}-1280.png`), fullPage: true })
      await page.context().close()
    }, 60_000)

    test('every series line stands out from the card (3:1), in colours of this theme from CSS custom properties; axe finds nothing serious', async () => {
      const { page } = await dashboard(scheme, 1280, '', CAPTURE_CHARTS)
      const { card } = await canvasPixels(page, '#chart-uptime')
      const strokes = (await page.evaluate(() =>
        (window as any).__charts.map((chart: any) => chart.series.slice(1).map((s: any, i: number) => s.stroke(chart, i + 1))),
      )) as string[][]
      const fromCss = await page.evaluate(() =>
        ['--chart-uptime', '--chart-views', '--chart-visitors', '--chart-incident-views', '--chart-avg', '--chart-p95'].map((name) =>
          getComputedStyle(document.documentElement).getPropertyValue(name).trim(),
        ),
      )
      expect(strokes.flat()).toEqual(fromCss)
      for (const colour of strokes.flat()) {
        expect({ scheme, colour, enough: contrastRatio(colour, cssHex(card)) >= 3 }).toEqual({ scheme, colour, enough: true })
      }
      expect(await seriousAxeViolations(page)).toEqual([])
      // The views chart as a picture: a real PNG of the card, with the theme's lines in it.
      const shot = await page.locator('#chart-views').screenshot({ path: join(shots, `dashboard-views-${scheme}.png`) })
      expect([...shot.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG')
      expect(shot.length).toBeGreaterThan(1000)
      await page.context().close()
    }, 60_000)

    // The default 90 days with one day of data, and a range of that one day.
    for (const query of ['', '?range=custom&from=2026-11-23&to=2026-11-23']) {
      test(`a response-time chart with one day of data draws it (${query || '90 days'})`, async () => {
        const { page } = await dashboard(scheme, 1280, query)
        const { pixels } = await canvasPixels(page, '#chart-response')
        // The series colours of this theme (avg and p95), allowing for anti-aliasing.
        const [avg, p95] = (await page.evaluate(() =>
          ['--chart-avg', '--chart-p95'].map((name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim()),
        )).map((hex) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)))
        const near = (r: number, g: number, b: number, [R, G, B]: number[]) => Math.abs(r - R!) + Math.abs(g - G!) + Math.abs(b - B!) < 60
        const drawn = pixels.filter(([, , r, g, b]) => near(r, g, b, avg!) || near(r, g, b, p95!))
        expect(drawn.length).toBeGreaterThan(10)
        await page.context().close()
      }, 60_000)
    }

    test('320 px wide: the dashboard has no sideways scroll', async () => {
      const { page, errors } = await dashboard(scheme, 320)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
      await page.screenshot({ path: join(shots, `dashboard-${scheme}-320.png`), fullPage: true })
      expect(errors).toEqual([])
      await page.context().close()
    }, 60_000)
  })
}

test('320 px wide: the other user-area pages have no sideways scroll either', async () => {
  const { page } = await dashboard('light', 320)
  for (const path of ['/user', '/user/password', `/user/analytics/${pageId}?range=custom&from=2026-11-01&to=2026-11-10`]) {
    await page.goto(`${site.base}${path}`)
    await page.waitForLoadState('load')
    expect({ path, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ path, width: 320 })
  }
  await page.context().close()
}, 60_000)
