/**
 * Every page, swept in Chromium: the pages of test/helpers/site-map.ts (every GET route of the app
 * that answers HTML, filled from a seeded page with status history, page views, monitor results, SLA
 * targets, a logo, an incident, a maintenance window and more; the status hosts' home, history,
 * incident, subscribe pages, gate and error pages; docs, blog, changelog) and first-run setup. On each:
 *
 * - axe in light and dark (at 1280 px), and at 320 px: no serious or critical violation;
 * - at 320 and 1280 px: a screenshot, no sideways scroll, the <h1> visible, no word cut in two by a
 *   line break in a table cell, heading, navigation link, button or label; at 1280 px no table
 *   hidden in part in a sideways-scrolling region;
 * - no error in the browser (uncaught exception, console error, failed sub-resource), no broken image;
 * - on the web app's pages, each POST form's submit goes through its script without an error and
 *   arms its double-submit guard (status pages run no script).
 *
 * Findings are collected over all pages and reported together. The links the screens show under
 * /user must all lead to listed routes.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { announceFirstRunSetup } from '../../src/modules/accounts/setup.ts'
import { brokenImages, seriousAxeViolations, unguardedForms, watchErrors, wordsBrokenMidWord } from '../helpers/browser.ts'
import { listenTestContext } from '../helpers/listening.ts'
import { NOT_PAGES, routeList, seedSite, SITE_ENV, sitePages, startMonitorTarget, type SitePage } from '../helpers/site-map.ts'
import { startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

let app: WebApp
let target: ReturnType<typeof startMonitorTarget>
let pages: SitePage[]
let unlisted: string[]

beforeAll(async () => {
  target = startMonitorTarget()
  app = await startWebApp({ now: NOW, env: SITE_ENV })
  const seed = await seedSite(app.server, app.owner.user, { target: target.url })
  ;({ pages, unlisted } = await sitePages(app.server, seed, await app.cookieOf(app.context)))
}, 60_000)
afterAll(async () => {
  await app.close()
  target.stop()
})

/** The axe rules whose outcome depends on the width of the screen, run again at 320 px. */
const WIDTH_RULES = ['scrollable-region-focusable', 'target-size', 'meta-viewport']

interface Finding {
  screen: string
  problem: string
}

/** The widest element that sticks out of the page, so a finding says where to look. */
async function sidewaysCulprit(page: Page): Promise<{ scroll: number; client: number; culprit: string }> {
  return page.evaluate(() => {
    const root = document.documentElement
    let culprit = ''
    if (root.scrollWidth > root.clientWidth) {
      for (const el of Array.from(document.body.querySelectorAll('*'))) {
        const right = el.getBoundingClientRect().right
        if (right > root.clientWidth + 1 && !el.closest('.visually-hidden')) {
          culprit = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''} (right ${Math.round(right)})`
          break
        }
      }
    }
    return { scroll: root.scrollWidth, client: root.clientWidth, culprit }
  })
}

/** Elements that scroll sideways (their content is wider than they are), named by their label or class. */
async function clippedRegions(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('main *'))
      .filter((el) => {
        const style = getComputedStyle(el)
        return (style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0
      })
      .map((el) => `${el.tagName.toLowerCase()}${typeof el.className === 'string' && el.className ? `.${el.className.split(' ').join('.')}` : ''} "${el.getAttribute('aria-label') ?? ''}" (${el.scrollWidth} > ${el.clientWidth})`),
  )
}

/** Every check of the header comment on the page `page` shows now. */
async function sweep(page: Page, screen: string, errors: { take(): string[] }, findings: Finding[]): Promise<void> {
  const add = (problem: string) => findings.push({ screen, problem })
  const heading = (await page.locator('h1').count()) > 0 ? (await page.locator('h1').first().innerText()).trim() : ''
  if (!heading) add('no visible <h1>')
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    // What a visitor sees once the scheme has switched: colour transitions (Swagger UI has some) run to their end first.
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))))
    for (const v of await seriousAxeViolations(page)) add(`axe ${colorScheme}: ${v.id} (${v.impact}) ${v.help}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 })
    // What depends on the width (a table that scrolls only there) is checked by axe at 320 px too.
    if (width === 320) for (const v of await seriousAxeViolations(page, WIDTH_RULES)) add(`axe at 320 px: ${v.id} (${v.impact}) ${v.help}`)
    // At desktop width every table fits its card: nothing hides in a sideways-scrolling region.
    if (width === 1280) for (const region of await clippedRegions(page)) add(`at 1280 px a scrolling region hides part of its content: ${region}`)
    const file = join(app.shots, `sweep-${screen.replace(/[^a-z0-9]+/gi, '_')}-${width}.png`)
    await page.screenshot({ path: file })
    if (readFileSync(file).subarray(1, 4).toString() !== 'PNG') add(`no PNG at ${width}`)
    const overflow = await sidewaysCulprit(page)
    if (overflow.scroll > overflow.client) add(`sideways scroll at ${width} px (${overflow.scroll} > ${overflow.client}): ${overflow.culprit}`)
    if (heading && !(await page.getByText(heading, { exact: false }).first().isVisible())) add(`"${heading}" not visible at ${width} px`)
    for (const cut of await wordsBrokenMidWord(page)) add(`"${cut.word}" cut in two at ${width} px in ${cut.where}`)
  }
  await page.setViewportSize({ width: 1280, height: 800 })
  for (const src of await brokenImages(page)) add(`broken image ${src}`)
  // The web app's script guards its forms; status pages run no script at all.
  if ((await page.locator('script[src="/static/user/app.js"]').count()) > 0) {
    for (const action of await unguardedForms(page)) add(`the form posting to ${action} is not guarded against a double post`)
  }
  for (const error of errors.take()) add(error)
}

/** Paths of the links a screen shows that stay on this site under /user. */
async function userLinks(page: Page): Promise<string[]> {
  const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))
  return hrefs.map((href) => new URL(href)).filter((url) => url.origin === app.base && url.pathname.startsWith('/user')).map((url) => url.pathname)
}

const matches = (pattern: string, path: string) => new RegExp(`^${pattern.replace(/:[a-z_]+/gi, '[^/]+')}$`).test(path)

/** The name of a page in findings and screenshots: its route, and what tells two of one route apart. */
const screenOf = (page: SitePage) => {
  const url = new URL(page.url)
  const host = url.host === new URL(app.base).host ? '' : `${url.hostname.split('.')[0]} `
  return `${host}${url.pathname}${url.search.startsWith('?type=') ? url.search : ''}`
}

/** Opens each page in `tab` and sweeps it; the links it shows under /user go into `linked`. */
async function sweepAll(tab: Page, list: SitePage[], findings: Finding[], linked: Set<string>): Promise<void> {
  const errors = watchErrors(tab)
  for (const page of list) {
    const screen = screenOf(page)
    const response = await tab.goto(page.url)
    // Charts and tables that scripts fill (the analytics dashboard) are swept once they are there.
    if ((await tab.locator('#dashboard').count()) > 0) await tab.waitForSelector('#dashboard[data-loaded-range]')
    if (response?.status() !== page.status) {
      findings.push({ screen, problem: `status ${response?.status()} for ${page.url}, not ${page.status}` })
      errors.take()
      continue
    }
    // An error page's own status is not a browser error; anything it loads is.
    if (page.status !== 200) errors.take().filter((error) => !error.includes(`(${page.url})`)).forEach((problem) => findings.push({ screen, problem }))
    for (const link of await userLinks(tab)) linked.add(link)
    await sweep(tab, screen, errors, findings)
  }
}

function report(findings: Finding[]): void {
  if (findings.length > 0) console.error(findings.map((f) => `${f.screen}: ${f.problem}`).join('\n'))
  expect(findings).toEqual([])
}

test('the page list covers the app: every GET route is a page, answers no HTML, or is named with the reason', () => {
  expect(unlisted).toEqual([])
  const routes = pages.map((page) => page.route)
  // The sweep must see the pages it is meant for (a broken route listing would pass vacuously).
  for (const known of ['/user', '/user/pages/:id', '/user/pages/:id/components/:cid', '/user/incidents/:id', '/user/monitors/:id', '/user/pages/:id/sla', '/user/analytics/:id', '/user/pages/:id/branding', '/', '/history', '/incidents/:id', '/subscribe', 'status gate', '/docs/:slug', '/changelog']) {
    expect(routes).toContain(known)
  }
  expect(pages.filter((page) => page.as === 'owner').length).toBeGreaterThanOrEqual(50)
})

test("the owner's screens: axe light and dark, 320 and 1280 px without cut words or clipped tables, no browser error, forms guarded", async () => {
  const findings: Finding[] = []
  const linked = new Set<string>()
  await sweepAll(app.page, pages.filter((page) => page.as === 'owner'), findings, linked)
  // Every link under /user that a screen shows leads to a route of the app.
  const known = [...Object.keys(NOT_PAGES), ...routeList(app.server.ctx.app).filter((route) => route.method === 'GET').map((route) => route.path)]
  expect([...linked].filter((path) => !known.some((pattern) => matches(pattern, path)))).toEqual([])
  report(findings)
}, 900_000)

test('the public pages (status hosts, gate, error pages, docs, blog, changelog, sign-in) and first-run setup: the same checks', async () => {
  const findings: Finding[] = []
  const anonymous = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    await sweepAll(await anonymous.newPage(), pages.filter((page) => page.as === 'visitor'), findings, new Set())
  } finally {
    await anonymous.close()
  }
  // First-run setup exists only on an instance without users: a fresh one, its link as printed.
  const fresh = await listenTestContext({ now: NOW })
  const first = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    const line = (await announceFirstRunSetup(fresh.ctx.app.services.accounts, fresh.base))!
    const setup = await first.newPage()
    const errors = watchErrors(setup)
    const response = await setup.goto(/(http:\/\/\S+)/.exec(line)![1]!)
    if (response?.status() !== 200) findings.push({ screen: '/user/setup', problem: `status ${response?.status()}` })
    else await sweep(setup, '/user/setup', errors, findings)
  } finally {
    await first.close()
    await fresh.close()
  }
  report(findings)
}, 900_000)
