/**
 * The API reference at `/swagger` and Swagger UI at `/swagger/ui` in real headless Chromium with
 * every request off loopback blocked (as on a machine without internet): the reference is one
 * server-rendered page listing every operation (what each holds written in when it is opened),
 * Swagger UI is served by Lantern itself and lists them too, both under the site's CSP without a
 * single violation, in light and dark.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { launchBrowser, seriousAxeViolations } from '../helpers/browser.ts'
import { listenTestContext, type ListeningContext } from '../helpers/listening.ts'

let browser: Browser
let site: ListeningContext

beforeAll(async () => {
  site = await listenTestContext({ now: Date.UTC(2026, 10, 1, 12, 0, 0) })
  browser = await launchBrowser()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
}, 60_000)

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** The operations of /swagger/json in the order Swagger UI lists them: by tag, then by path. */
async function documentOperations(): Promise<Array<{ method: string; path: string }>> {
  const document = (await (await site.ctx.request('/swagger/json')).json()) as {
    tags: Array<{ name: string }>
    paths: Record<string, Record<string, { tags?: string[] }>>
  }
  const byTag = new Map<string, Array<{ method: string; path: string }>>(document.tags.map((tag) => [tag.name, []]))
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue
      for (const tag of operation.tags ?? ['default']) {
        if (!byTag.has(tag)) byTag.set(tag, [])
        byTag.get(tag)!.push({ method, path })
      }
    }
  }
  return [...byTag.values()].flat()
}

/** The outgoing webhooks of /swagger/json, in the document's order, as Swagger UI lists them after the paths. */
async function documentWebhooks(): Promise<Array<{ method: string; path: string }>> {
  const document = (await (await site.ctx.request('/swagger/json')).json()) as { webhooks?: Record<string, Record<string, unknown>> }
  return Object.entries(document.webhooks ?? {}).flatMap(([name, item]) => Object.keys(item).filter((method) => METHODS.includes(method)).map((method) => ({ method, path: name })))
}

/** A context that records requests off loopback (and blocks them), and a page that records errors. */
async function offlinePage(scheme: 'light' | 'dark') {
  const context = await browser.newContext({ viewport: { width: 320, height: 800 }, colorScheme: scheme })
  const offSite: string[] = []
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url())
    if (url.hostname === 'localhost' || url.hostname === '127.0.0.1') return route.continue()
    offSite.push(url.href)
    return route.abort()
  })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  return { context, page, offSite, problems }
}

for (const scheme of ['light', 'dark'] as const) {
  test(`/swagger is the reference: every operation on one page, offline, one small script, no CSP violation (${scheme}, 320 px)`, async () => {
    const { context, page, offSite, problems } = await offlinePage(scheme)
    const response = await page.goto(`${site.base}/swagger`)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'")
    // One script of our own and nothing inline: the operations' details come as JSON of their own, after the page.
    expect(await page.locator('script[src]').evaluateAll((scripts) => scripts.map((script) => script.getAttribute('src')))).toEqual(['/static/api-docs/reference.js'])
    expect(await page.locator('script:not([src])').count()).toBe(0)
    expect((await response!.body()).byteLength).toBeLessThan(200_000)
    // What made the first visit slow: tens of thousands of elements. The closed details are not in the page.
    expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(8_000)
    const operations = await documentOperations()
    const listed = await page.locator('details.op > summary').evaluateAll((summaries) =>
      summaries.map((summary) => `${summary.querySelector('.method')?.textContent} ${summary.querySelector('.path')?.textContent}`),
    )
    // Then the outgoing webhooks, each under its event name.
    expect(listed).toEqual([...operations, ...(await documentWebhooks())].map((operation) => `${operation.method.toUpperCase()} ${operation.path}`))
    const text = await page.locator('main').innerText()
    for (const expected of ['Lantern API', '/api/embed/status', '/api/v2/summary.json', '/history.rss', 'Status host']) expect(text).toContain(expected)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(await seriousAxeViolations(page)).toEqual([])
    // An open operation (parameters, body, responses) too.
    const patch = page.locator('details.op').filter({ has: page.locator('summary', { hasText: 'PATCH' }) }).first()
    await patch.locator('summary').click()
    await patch.locator('.op-body h3', { hasText: 'Responses' }).waitFor()
    for (const heading of ['Parameters', 'Request body']) expect(await patch.locator('.op-body h3', { hasText: heading }).count()).toBe(1)
    expect(await patch.locator('.op-body .responses li').count()).toBeGreaterThan(0)
    expect(await patch.getByRole('link', { name: 'Try it in Swagger UI' }).count()).toBe(1)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(await seriousAxeViolations(page)).toEqual([])
    // A schema it links to opens where it is defined, with its properties.
    const schemaLink = patch.locator('.op-body a[href^="#schema-"]').first()
    const target = (await schemaLink.getAttribute('href'))!
    await schemaLink.click()
    const definition = page.locator(`details.schema-def[id="${target.slice(1)}"]`)
    expect(await definition.getAttribute('open')).not.toBeNull()
    await definition.locator('.schema').filter({ hasText: /\S/ }).waitFor()
    expect(await seriousAxeViolations(page)).toEqual([])
    expect(offSite).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  }, 60_000)

  test(`/swagger/ui (Swagger UI) lists the operations offline, with no CSP violation (${scheme}, 320 px)`, async () => {
    const { context, page, offSite, problems } = await offlinePage(scheme)
    const response = await page.goto(`${site.base}/swagger/ui`)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'")
    expect(response?.headers()['content-security-policy']).not.toContain('http')
    // Every operation of the document is on the page at once, down to the last one, without
    // scrolling: find-in-page and screen readers reach all of them (no virtualised list).
    const operations = await documentOperations()
    const last = operations.at(-1)!
    await page.locator(`.opblock-summary-path[data-path="${last.path}"]`).last().waitFor({ timeout: 20_000 })
    await page.getByText('/user/api/v1/status-pages/{id}', { exact: true }).first().waitFor({ timeout: 20_000 })
    const listed = await page.locator('#swagger-ui .opblock-summary').evaluateAll((summaries) =>
      summaries.map((summary) => `${summary.querySelector('.opblock-summary-method')?.textContent} ${summary.querySelector('[data-path]')?.getAttribute('data-path')}`),
    )
    // Then the outgoing webhooks (the document's `webhooks` section), each under its event name.
    const webhooks = await documentWebhooks()
    expect(webhooks.length).toBeGreaterThan(0)
    expect(listed).toEqual([...operations, ...webhooks].map((operation) => `${operation.method.toUpperCase()} ${operation.path}`))
    const text = await page.locator('#swagger-ui').innerText()
    for (const expected of ['Lantern API', '/api/embed/status', '/api/v2/summary.json', '/history.rss', 'Status host']) expect(text).toContain(expected)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    // Swagger UI's own markup, themed and patched (theme.css, start.js), has no serious finding.
    expect(await seriousAxeViolations(page)).toEqual([])
    expect(offSite).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  }, 60_000)
}

test('/swagger deep links (Swagger UI\'s form) open the operation; "Try it in Swagger UI" opens it there', async () => {
  const reference = await browser.newPage()
  await reference.goto(`${site.base}/swagger#/Incidents/patchUserApiV1IncidentsById`)
  const opened = reference.locator('details.op[open]')
  expect(await opened.count()).toBe(1)
  expect(await opened.locator('summary').innerText()).toContain('/user/api/v1/incidents/{id}')
  await opened.locator('.op-body h3', { hasText: 'Responses' }).waitFor()
  // A schema's address opens its definition too.
  await reference.goto(`${site.base}/swagger#schema-Error`)
  await reference.locator('details.schema-def#schema-Error[open] .schema').filter({ hasText: /\S/ }).waitFor()
  expect(await opened.getByRole('link', { name: 'Try it in Swagger UI' }).getAttribute('href')).toBe('/swagger/ui#/Incidents/patchUserApiV1IncidentsById')
  await reference.close()
})

test('/swagger: an operation opened before its details arrive is filled when they do; a failed fetch says so and the next opening tries again', async () => {
  const context = await browser.newContext()
  const page = await context.newPage()
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  let fetches = 0
  let failNext = false
  await page.route('**/swagger/parts.json?*', async (route) => {
    fetches++
    if (failNext) return route.abort()
    await held
    return route.continue()
  })
  await page.goto(`${site.base}/swagger`)
  const first = page.locator('details.op').first()
  await first.locator('summary').click()
  expect(await first.getAttribute('open')).not.toBeNull()
  // Nothing written in yet: the details are still on their way.
  expect(await first.locator('.op-body h3').count()).toBe(0)
  release()
  await first.locator('.op-body h3', { hasText: 'Responses' }).waitFor()
  expect(fetches).toBe(1)

  // A page whose fetch fails: the opened operation says so, with the OpenAPI document's link.
  failNext = true
  await page.reload()
  const again = page.locator('details.op').first()
  await again.locator('summary').click()
  await again.locator('.op-body .load-failed').waitFor()
  expect(await again.getByRole('link', { name: 'the OpenAPI document' }).getAttribute('href')).toBe('/swagger/json')
  // Closed and opened again once the server answers: the details are there.
  failNext = false
  await again.locator('summary').click()
  await again.locator('summary').click()
  await again.locator('.op-body h3', { hasText: 'Responses' }).waitFor()
  await context.close()
})

test('/swagger without JavaScript: the operations are listed, and each points to the OpenAPI document and Swagger UI', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto(`${site.base}/swagger`)
  expect(await page.locator('details.op').count()).toBe((await documentOperations()).length + (await documentWebhooks()).length)
  const operation = page.locator('details.op').first()
  await operation.locator('summary').click()
  expect(await operation.getByRole('link', { name: 'the OpenAPI document' }).getAttribute('href')).toBe('/swagger/json')
  expect(await operation.getByRole('link', { name: 'Swagger UI' }).getAttribute('href')).toMatch(/^\/swagger\/ui#\//)
  await context.close()
})

test('/swagger/ui deep links: opening an operation puts it in the address, and that address opens it', async () => {
  const page = await browser.newPage()
  await page.goto(`${site.base}/swagger/ui`)
  const summary = page.locator('#operations-Incidents-patchUserApiV1IncidentsById .opblock-summary-control')
  await summary.click()
  await page.waitForURL((url) => url.hash === '#/Incidents/patchUserApiV1IncidentsById')
  const reopened = await browser.newPage()
  await reopened.goto(`${site.base}/swagger/ui#/Incidents/patchUserApiV1IncidentsById`)
  await reopened.locator('#operations-Incidents-patchUserApiV1IncidentsById.is-open .responses-wrapper').waitFor()
  // An open operation (parameters, body, responses) has no serious axe finding either.
  expect(await seriousAxeViolations(reopened)).toEqual([])
  await page.close()
  await reopened.close()
}, 60_000)

test('/swagger has the same CSP as every other page of the service host, and its files come from the program', async () => {
  const policy = async (path: string) => (await site.ctx.request(path)).headers.get('content-security-policy')
  expect(await policy('/swagger')).toBe(await policy('/docs/'))
  expect(await policy('/swagger/ui')).toBe(await policy('/docs/'))
  for (const path of ['/swagger', '/swagger/ui']) {
    const html = await (await site.ctx.request(path)).text()
    expect(html).not.toMatch(/<script>|<style|style="/)
    for (const src of html.match(/(?:src)="[^"]+"/g) ?? []) expect(src).toMatch(/="\//)
    for (const href of html.match(/<link [^>]*href="[^"]+"/g) ?? []) expect(href).toMatch(/href="\//)
  }
  const script = await site.ctx.request('/static/api-docs/swagger-ui.js')
  expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  expect(script.headers.get('etag')).toBeTruthy()
  expect((await site.ctx.request('/static/api-docs/nope.js')).status).toBe(404)
})

test('the reference and the viewer\'s files go out gzip-encoded to clients that take it, each encoding with its own ETag', async () => {
  for (const path of ['/swagger', '/static/api-docs/swagger-ui.js', '/static/api-docs/swagger-ui.css', '/static/api-docs/reference.css', '/static/api-docs/reference.js']) {
    const plain = await site.ctx.request(path)
    const zipped = await site.ctx.request(path, { headers: { 'accept-encoding': 'gzip, br' }, decompress: false } as RequestInit)
    expect({ path, encoding: zipped.headers.get('content-encoding'), vary: zipped.headers.get('vary') }).toEqual({ path, encoding: 'gzip', vary: 'Accept-Encoding' })
    expect(plain.headers.get('content-encoding')).toBeNull()
    const plainBytes = (await plain.arrayBuffer()).byteLength
    const zippedBytes = (await zipped.arrayBuffer()).byteLength
    expect({ path, smaller: zippedBytes < plainBytes / 2 }).toEqual({ path, smaller: true })
    expect(zipped.headers.get('etag')).not.toBe(plain.headers.get('etag'))
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await (await site.ctx.request(path, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit)).arrayBuffer())))).toBe(await (await site.ctx.request(path)).text())
  }
  const refused = await site.ctx.request('/static/api-docs/swagger-ui.css', { headers: { 'accept-encoding': 'gzip;q=0' } })
  expect(refused.headers.get('content-encoding')).toBeNull()
})
