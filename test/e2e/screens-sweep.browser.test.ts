/**
 * Every screen, swept: the GET routes of the web app are listed from its own Elysia apps (the user
 * area and the analytics dashboard), so a new screen cannot be forgotten; their ids are filled from a
 * seeded page, component, incident, template, maintenance window, API key and monitor. Each one that answers
 * HTML, plus `/`, `/user/login`, `/user/signup`, `/user/setup`, `/docs` (and each guide it links to) and
 * `/changelog`, runs axe in
 * light and dark (no serious or critical violations) and the 320/1280 px layout check (screenshots,
 * no sideways scroll, its heading visible). Findings are collected over all screens and reported
 * together. The links the screens show under /user must all lead to listed routes.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { analyticsRoutes } from '../../src/modules/analytics/index.ts'
import { announceFirstRunSetup } from '../../src/modules/accounts/setup.ts'
import { userAreaRoutes } from '../../src/modules/user-area/index.ts'
import { seriousAxeViolations } from '../helpers/browser.ts'
import { listenTestContext } from '../helpers/listening.ts'
import { startWebApp, type WebApp } from '../helpers/webapp.ts'
import { ToolChecksRepo } from '../../src/modules/lookup-tools/repo.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

let app: WebApp
const ids: Record<string, number> = {}

beforeAll(async () => {
  // Sign-up open, so that its screen is there to sweep too.
  app = await startWebApp({ now: NOW, env: { SIGNUP: 'open' } })
  const services = app.server.ctx.app.services
  const user = app.owner.user
  const page = await app.server.ctx.createPage(app.owner.key, { name: 'Acme Cloud', slug: 'sweep' })
  const website = await services.components.create(user, page.id, { name: 'Website', group: 'Frontend' })
  await services.components.create(user, page.id, { name: 'API', group: 'Backend', type: 'api' })
  await services.components.create(user, page.id, { name: 'Database', group: 'Backend', status: 'degraded' })
  const template = await services.incidents.createTemplate(user, { name: 'Outage', title: '{{component}} outage', message: 'We are investigating problems with {{component}}.' })
  const incident = await services.incidents.create(user, { status_page_id: page.id, title: 'Website outage', message: 'Looking into it.', component_ids: [website.id] })
  const maintenance = await services.maintenances.create(user, {
    status_page_id: page.id,
    title: 'Database upgrade',
    start_at: '2026-11-24T09:00:00Z',
    end_at: '2026-11-24T11:00:00Z',
  })
  const key = (await services.accounts.listApiKeys(user.id))[0]!
  const { monitor } = await services.monitors.create(user, { name: 'Website check', type: 'http', target: 'https://example.com/', component_id: website.id })
  // A kept lookup (the Tools result screen), shaped as the DKIM tool answers.
  const dkim = { status: 'warning', reason: 's1: RSA key of 1024 bits; use 2048 or more', selectors: [{ selector: 's1', status: 'warning', reason: 's1: RSA key of 1024 bits; use 2048 or more', key_type: 'rsa', bits: 1024, records: [`v=DKIM1; k=rsa; p=${'A'.repeat(216)}`] }] }
  const toolCheck = await new ToolChecksRepo(app.server.ctx.database.db).insertKeeping({ user_id: user.id, tool: 'dkim', target: 's1 @ example.com', status: 'warning', summary: `DKIM warning: ${dkim.reason}`, result_json: JSON.stringify({ domain: 'example.com', dkim }), created_at: NOW }, 1_000)
  const channel = await services.channels.create(user, { type: 'webhook', name: 'Ops hook', url: 'https://hooks.example.com/lantern', secret: 'sweep-secret-0123456789abcdef' })
  Object.assign(ids, { channel: channel.id, page: page.id, component: website.id, incident: incident.id, template: template.id, maintenance: maintenance.id, key: key.id, monitor: monitor.id, toolCheck })
}, 60_000)
afterAll(() => app.close())

/** Which seeded id fills `:param` of a route, by the segment before it. */
function fill(path: string): string {
  const segments = path.split('/')
  return segments
    .map((segment, i) => {
      if (!segment.startsWith(':')) return segment
      const owner = `${segments[i - 1]}/${segment}`
      const value = {
        'pages/:id': ids.page,
        'analytics/:id': ids.page,
        'components/:cid': ids.component,
        'incidents/:id': ids.incident,
        'templates/:id': ids.template,
        'maintenance/:id': ids.maintenance,
        'api-keys/:id': ids.key,
        'monitors/:id': ids.monitor,
        'checks/:id': ids.toolCheck,
        'notifications/:id': ids.channel,
        'tools/:tool': 'dkim',
      }[owner]
      if (value === undefined) throw new Error(`the sweep does not know how to fill ${owner} in ${path}: add a seeded id for it`)
      return String(value)
    })
    .join('/')
}

/** Screens that need a query to show (the add-channel form is per channel type). */
const QUERIES: Record<string, string> = { '/user/notifications/new': '?type=webhook' }

/** Routes that are GETs under /user but not screens of a logged-in owner (each with the reason). */
const ELSEWHERE: Record<string, string> = {
  '/user/login': 'swept logged out below',
  '/user/signup': 'swept logged out below',
  '/user/setup': 'only while there are no users: swept on a fresh instance below',
  '/user/api/v1/status-pages/:id/sla.pdf': 'an SLA report download of the API (linked from the SLA screen), not a screen',
  '/user/api/v1/status-pages/:id/sla.csv': 'an SLA report download of the API (linked from the SLA screen), not a screen',
  '/user/api/v1/status-pages/:id/sla': 'the SLA report as JSON from the API (linked from the SLA screen), not a screen',
  '/user/transfers/:token': 'needs the token of a mailed offer: axe and layouts in test/modules/user-area/transfer.browser.test.ts',
}

function screenRoutes(): string[] {
  const deps = { services: app.server.ctx.app.services, config: app.server.ctx.config }
  const routes = [...userAreaRoutes(deps).routes, ...analyticsRoutes({ ...deps, accounts: deps.services.accounts, analytics: deps.services.analytics, shareTokens: deps.services.shareTokens }).routes]
  return [...new Set(routes.filter((r) => r.method === 'GET' && r.path.startsWith('/user') && !(r.path in ELSEWHERE)).map((r) => r.path))]
}

interface Finding {
  screen: string
  problem: string
}

/** axe in light and dark, then 320 and 1280 px: no sideways scroll, `heading` visible, a real PNG. */
async function sweep(page: Page, screen: string, findings: Finding[]): Promise<void> {
  const heading = (await page.locator('h1').first().innerText()).trim()
  if (!heading) findings.push({ screen, problem: 'no visible <h1>' })
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    for (const v of await seriousAxeViolations(page)) findings.push({ screen, problem: `axe ${colorScheme}: ${v.id} (${v.impact}) ${v.help}` })
  }
  await page.emulateMedia({ colorScheme: 'light' })
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 })
    const file = join(app.shots, `sweep-${screen.replace(/[^a-z0-9]+/gi, '_')}-${width}.png`)
    await page.screenshot({ path: file, fullPage: true })
    if (readFileSync(file).subarray(1, 4).toString() !== 'PNG') findings.push({ screen, problem: `no PNG at ${width}` })
    const overflow = await page.evaluate(() => {
      const root = document.documentElement
      // Name the widest element that sticks out, so a finding says where to look.
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
    if (overflow.scroll > overflow.client) findings.push({ screen, problem: `sideways scroll at ${width} px (${overflow.scroll} > ${overflow.client}): ${overflow.culprit}` })
    if (heading && !(await page.getByText(heading, { exact: false }).first().isVisible())) findings.push({ screen, problem: `"${heading}" not visible at ${width} px` })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** Paths of the links a screen shows that stay on this site under /user. */
async function userLinks(page: Page): Promise<string[]> {
  const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))
  return hrefs.map((href) => new URL(href)).filter((url) => url.origin === app.base && url.pathname.startsWith('/user')).map((url) => url.pathname)
}

const matches = (pattern: string, path: string) => new RegExp(`^${pattern.replace(/:[a-z_]+/gi, '[^/]+')}$`).test(path)

test('every screen passes axe in light and dark and fits 320 and 1280 px', async () => {
  const findings: Finding[] = []
  const routes = screenRoutes()
  // The sweep must see the screens it is meant for (a broken route listing would pass vacuously).
  for (const known of ['/user', '/user/pages/:id', '/user/pages/:id/components/:cid', '/user/incidents/:id', '/user/maintenance/:id/cancel', '/user/api-keys/:id/revoke', '/user/analytics/:id']) {
    expect(routes).toContain(known)
  }
  const page = app.page
  const cookie = await app.cookieOf(app.context)
  const swept: string[] = []
  const linked = new Set<string>()
  for (const route of routes) {
    const path = fill(route) + (QUERIES[route] ?? '')
    // What the route answers decides whether it is a screen (JSON, CSS and redirects to them are not).
    const probe = await fetch(`${app.base}${path}`, { headers: { cookie, accept: 'text/html' } })
    const type = probe.headers.get('content-type') ?? ''
    await probe.body?.cancel()
    if (!type.includes('text/html')) continue
    const response = await page.goto(`${app.base}${path}`)
    if (response?.status() !== 200) {
      findings.push({ screen: route, problem: `status ${response?.status()} for ${path}` })
      continue
    }
    swept.push(route)
    for (const link of await userLinks(page)) linked.add(link)
    await sweep(page, route, findings)
  }
  expect(swept.length).toBeGreaterThanOrEqual(20)

  // Logged out: the front page, login, sign-up, the guides and the changelog.
  const anonymous = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
  const visitor = await anonymous.newPage()
  const guides: string[] = []
  for (const path of ['/', '/user/login', '/user/signup', '/docs', '/changelog']) {
    const response = await visitor.goto(`${app.base}${path}`)
    if (response?.status() !== 200) findings.push({ screen: path, problem: `status ${response?.status()}` })
    else await sweep(visitor, path, findings)
    // The guides the docs index links to are swept too (they hold the longest code samples).
    if (path === '/docs') guides.push(...(await visitor.locator('main a[href^="/docs/"]').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname))))
  }
  expect(guides.length).toBeGreaterThan(0)
  for (const path of new Set(guides)) {
    const response = await visitor.goto(`${app.base}${path}`)
    if (response?.status() !== 200) findings.push({ screen: path, problem: `status ${response?.status()}` })
    else await sweep(visitor, path, findings)
  }
  await anonymous.close()

  // First-run setup exists only on an instance without users: a fresh one, its link as printed.
  const fresh = await listenTestContext({ now: NOW })
  const first = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    const line = (await announceFirstRunSetup(fresh.ctx.app.services.accounts, fresh.base))!
    const setup = await first.newPage()
    const response = await setup.goto(/(http:\/\/\S+)/.exec(line)![1]!)
    if (response?.status() !== 200) findings.push({ screen: '/user/setup', problem: `status ${response?.status()}` })
    else await sweep(setup, '/user/setup', findings)
  } finally {
    await first.close()
    await fresh.close()
  }

  // Every link under /user that a screen shows leads to a listed route (or a form target elsewhere).
  const known = [...routes, ...Object.keys(ELSEWHERE)]
  const unknown = [...linked].filter((path) => !known.some((pattern) => matches(pattern, path)))
  expect(unknown).toEqual([])
  expect(findings).toEqual([])
  // A bound for a hung browser, not a speed test: every screen and every guide, four checks each,
  // takes minutes on a loaded 2-core machine.
}, 600_000)
