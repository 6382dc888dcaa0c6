/**
 * The browser harness of the owner's web app (copy this pattern for every screen):
 *
 *   const app = await startWebApp({ now: Date.UTC(2026, 10, 23, 12) })   // listening server, temp SQLite,
 *   const page = app.page                                                // an owner logged in by the form
 *   await page.goto(`${app.base}/user`)
 *   await checkA11y(page)                    // axe: no serious/critical violations, light and dark
 *   await checkLayouts(page, 'pages-list', ['Your status pages'])   // 320 and 1280 px: PNG, no sideways
 *                                            // scroll, the texts visible
 *   await postForm(app, '/user/pages', { name: 'x' }, { origin: null })  // a form post without the browser
 *   await app.close()
 *
 * Real parts only: Bun.serve on loopback, the real app and migrations, Debian's Chromium.
 */
import { expect } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { Owner as ActingOwner } from '../../src/modules/accounts/service.ts'
import type { Plan } from '../../src/modules/plans/matrix.ts'
import type { DnsResolver } from '../../src/modules/status-pages/dns-check.ts'
import type { CheckDeps } from '../../src/modules/monitors/kinds/spec.ts'
import { launchBrowser, seriousAxeViolations, wordsBrokenMidWord } from './browser.ts'
import { listenTestContext, type ListeningContext } from './listening.ts'

export const OWNER_PASSWORD = 'correct horse battery'

export interface Owner {
  user: ActingOwner
  key: string
  email: string
}

export interface WebApp {
  server: ListeningContext
  base: string
  browser: Browser
  /** The logged-in browser context of `owner`. */
  context: BrowserContext
  page: Page
  owner: Owner
  /** Where screenshots go (removed by close). */
  shots: string
  /** Another owner (same password), for "someone else's id" tests. */
  createOwner(plan?: Plan): Promise<Owner>
  /** A fresh browser context logged in as `owner` through the login form. */
  loginAs(owner: Owner): Promise<{ context: BrowserContext; page: Page }>
  /** The session cookie (`name=value`) of `context`, for fetch-based checks. */
  cookieOf(context: BrowserContext): Promise<string>
  close(): Promise<void>
}

export async function startWebApp(options: { now: number; plan?: Plan; dns?: DnsResolver; env?: Record<string, string>; checkDeps?: CheckDeps }): Promise<WebApp> {
  const server = await listenTestContext({ now: options.now, env: options.env, dns: options.dns, checkDeps: options.checkDeps })
  const browser = await launchBrowser()
  const shots = mkdtempSync(join(tmpdir(), 'lantern-shots-'))
  const createOwner = async (plan: Plan = 'enterprise'): Promise<Owner> => {
    const { user, key } = await server.ctx.createOwner(plan)
    return { user, key, email: user.email }
  }
  const loginAs = async (owner: Owner) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.goto(`${server.base}/user/login`)
    await page.getByLabel('Email').fill(owner.email)
    await page.getByLabel('Password').fill(OWNER_PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(`${server.base}/user`)
    return { context, page }
  }
  const owner = await createOwner(options.plan)
  const { context, page } = await loginAs(owner)
  return {
    server,
    base: server.base,
    browser,
    context,
    page,
    owner,
    shots,
    createOwner,
    loginAs,
    async cookieOf(ctx) {
      const cookie = (await ctx.cookies()).find((c) => c.name === 'lantern_session')
      if (!cookie) throw new Error('not logged in')
      return `${cookie.name}=${cookie.value}`
    },
    async close() {
      await browser.close()
      await server.close()
      rmSync(shots, { recursive: true, force: true })
    },
  }
}

/** axe-core serious and critical violations in light AND dark must be none. */
export async function checkA11y(page: Page): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    const violations = await seriousAxeViolations(page)
    expect({ url: page.url(), colorScheme, violations }).toEqual({ url: page.url(), colorScheme, violations: [] })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/**
 * The id of the focused element once the focus settles on `expected` (or after 5 s, whatever it is
 * then): Chromium applies `autofocus` and app.js's focus at a rendering step that can come after
 * the load event, so reading it at once races the browser.
 */
export async function focusedId(page: Page, expected: string): Promise<string> {
  await page.waitForFunction((id) => document.activeElement?.id === id, expected, { timeout: 5_000 }).catch(() => undefined)
  return page.evaluate(() => document.activeElement?.id ?? '')
}

/**
 * Screenshots at 320 and 1280 px (non-empty PNGs under `shots`), no sideways scrolling, no word cut
 * in two by a line break (browser.ts `wordsBrokenMidWord`), and each of `texts` visible at both widths.
 */
export async function checkLayouts(page: Page, shots: string, name: string, texts: string[]): Promise<void> {
  const before = page.viewportSize()
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 })
    const file = join(shots, `${name}-${width}.png`)
    await page.screenshot({ path: file, fullPage: true })
    const png = readFileSync(file)
    expect(png.length).toBeGreaterThan(1000)
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG')
    const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }))
    expect({ name, width, sideways: overflow.scroll > overflow.client }).toEqual({ name, width, sideways: false })
    expect({ name, width, broken: await wordsBrokenMidWord(page) }).toEqual({ name, width, broken: [] })
    for (const text of texts) {
      const visible = await page.getByText(text, { exact: false }).first().isVisible()
      expect({ name, width, text, visible }).toEqual({ name, width, text, visible: true })
    }
  }
  if (before) await page.setViewportSize(before)
}

/**
 * A form post without the browser: urlencoded `fields`, the session `cookie`, and an Origin (this
 * site's by default; `null` sends none, a string sends that one). Redirects are not followed.
 */
export async function postForm(
  app: Pick<WebApp, 'base'>,
  path: string,
  fields: Record<string, string>,
  options: { cookie: string; origin?: string | null },
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', cookie: options.cookie }
  const origin = options.origin === undefined ? app.base : options.origin
  if (origin !== null) headers.origin = origin
  return fetch(`${app.base}${path}`, { method: 'POST', headers, body: new URLSearchParams(fields).toString(), redirect: 'manual' })
}
