/** The docs, blog and changelog in a real browser, under the security headers the server sends. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { loadConfig } from '../../src/config.ts'
import { startServer, type RunningServer } from '../../src/main.ts'
import { contentRoutes } from '../../src/modules/content/index.ts'
import { ContentService } from '../../src/modules/content/service.ts'
import { readOperationsConfig } from '../../src/config.ts'
import { createEdge } from '../../src/http/edge/edge.ts'
import { Elysia } from 'elysia'
import { launchBrowser } from '../helpers/browser.ts'

let browser: Browser
let server: RunningServer
let dir: string
let base: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-site-'))
  // BASE_URL is the address the browser uses, so these are service-host pages.
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = probe.port!
  probe.stop(true)
  base = `http://127.0.0.1:${port}`
  server = await startServer(loadConfig({ PORT: String(port), HOST: '127.0.0.1', BASE_URL: base, DATABASE_PATH: join(dir, 'db.sqlite') }))
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

async function open(path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage()
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  const response = await page.goto(`${base}${path}`)
  expect(response?.status()).toBe(200)
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  return { page, problems }
}

test('pages render styled under their Content-Security-Policy, without violations', async () => {
  for (const path of ['/docs/', '/docs/getting-started', '/docs/tag/setup/', '/blog/', '/blog/introducing-lantern', '/changelog']) {
    const { page, problems } = await open(path)
    // The stylesheet applied (CSP allows it): the header is a flex row.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('header.site')!).display)).toBe('flex')
    expect(await page.locator('h1').first().isVisible()).toBe(true)
    expect(problems).toEqual([])
    await page.close()
  }
})

test('a visitor follows a changelog anchor and navigates docs by tag', async () => {
  const { page } = await open('/changelog')
  const firstEntry = page.locator('article.entry').first()
  const anchor = await firstEntry.getAttribute('id')
  expect(anchor).toMatch(/^\d{4}-\d{2}-\d{2}/)
  await page.goto(`${base}/changelog#${anchor}`)
  expect(await page.locator('article.entry h2').first().textContent()).toContain('2026')
  await page.goto(`${base}/docs/embedding`)
  await page.getByRole('link', { name: '#embedding' }).click()
  await page.waitForURL(`${base}/docs/tag/embedding/`)
  expect(await page.locator('h1').textContent()).toContain('embedding')
  await page.getByRole('link', { name: 'Embedding your status' }).click()
  await page.waitForURL(`${base}/docs/embedding`)
  await page.close()
})

test('hostile Markdown runs nothing in a real browser', async () => {
  const nasty = `---
title: <img src=x onerror="window.pwned='title'">
date: 2026-01-01
tags: [xss]
---

<script>window.pwned = 'script'</script>

<img src="x" onerror="window.pwned = 'img'">

<svg onload="window.pwned = 'svg'"></svg>

[click me](javascript:window.pwned='link') and <a href="javascript:window.pwned='raw'">raw</a>

\`\`\`html
<script>window.pwned = 'code'</script>
\`\`\`
`
  const content = new ContentService({ docs: { nasty }, blog: {}, changelog: "## 2026-01-01\n### New\n- <script>window.pwned='changelog'</script>\n", siteCss: '' }, 'http://127.0.0.1')
  const app = new Elysia().use(contentRoutes(content))
  const edge = createEdge((request) => app.handle(request), { operations: readOperationsConfig({}, 0), serviceOrigin: 'http://127.0.0.1' })
  const hostile = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => edge(request, '127.0.0.1') })
  try {
    for (const path of ['/docs/nasty', '/changelog']) {
      const page = await browser.newPage()
      const dialogs: string[] = []
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message())
        void dialog.dismiss()
      })
      await page.goto(`http://127.0.0.1:${hostile.port}${path}`)
      const text = await page.locator('main').innerText()
      if (path === '/docs/nasty') {
        // The markup is shown as text, the dangerous link is not a link.
        expect(text).toContain("<script>window.pwned = 'script'</script>")
        await page.getByText('[click me](javascript:', { exact: false }).click()
      }
      expect(await page.evaluate(() => (window as unknown as { pwned?: string }).pwned)).toBeUndefined()
      expect(await page.locator('main script, main img, main svg, main iframe').count()).toBe(0)
      expect(dialogs).toEqual([])
      await page.close()
    }
  } finally {
    hostile.stop(true)
  }
})
