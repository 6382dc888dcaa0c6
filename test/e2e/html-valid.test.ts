/**
 * Every page Lantern renders is valid HTML: the pages of test/helpers/site-map.ts (the owner's
 * screens, the service host's public pages, the status hosts' pages with the gate and the error
 * pages, over seeded data) and first-run setup, each checked by html-validate with its
 * `recommended` and `document` rules. Findings are collected over all pages and reported together.
 *
 * Rules set otherwise than their defaults, with the reason:
 * - require-sri: off. Every script and stylesheet comes from the instance itself (the CSP allows
 *   nothing else); the embed preview loads the widget by its full address, exactly as the snippet an
 *   owner pastes, and the widget changes with each release, so a hash would break pasted snippets.
 * - doctype-style: lower case, `<!doctype html>`, as the HTML standard writes it.
 * - form-dup-name: checkboxes may share a name, as radio buttons do: a group of them
 *   (`component_ids`, `events`) is how a form sends a list.
 * - valid-id: relaxed to what HTML allows (an id may begin with a digit): the changelog's dated
 *   anchors (`#2026-11-27`) and numbered headings' anchors are links people have shared.
 * - no-trailing-whitespace: off. It is about the layout of the source, not the document: templates
 *   leave blanks at the end of a line where an optional part is empty, and browsers ignore them.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { HtmlValidate } from 'html-validate'
import { HTML_RULES } from '../helpers/html-rules.ts'
import { announceFirstRunSetup } from '../../src/modules/accounts/setup.ts'
import { listenTestContext, type ListeningContext } from '../helpers/listening.ts'
import { loginCookie, seedSite, SITE_ENV, sitePages, startMonitorTarget, type SitePage } from '../helpers/site-map.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)


let server: ListeningContext
let target: ReturnType<typeof startMonitorTarget>
let pages: SitePage[]
let unlisted: string[]
let cookie: string

beforeAll(async () => {
  target = startMonitorTarget()
  server = await listenTestContext({ now: NOW, env: SITE_ENV })
  const { user } = await server.ctx.createOwner('enterprise')
  const seed = await seedSite(server, user, { target: target.url })
  cookie = await loginCookie(server, user.email)
  ;({ pages, unlisted } = await sitePages(server, seed, cookie))
}, 60_000)
afterAll(async () => {
  await server.close()
  target.stop()
})

async function problems(validator: HtmlValidate, label: string, html: string): Promise<string[]> {
  const report = await validator.validateString(html, label)
  return report.results.flatMap((result) => result.messages.map((m) => `${label}:${m.line}:${m.column} ${m.ruleId}: ${m.message} (${m.selector ?? ''})`))
}

test('every page validates: 0 errors', async () => {
  expect(unlisted).toEqual([])
  expect(pages.length).toBeGreaterThan(60)
  const validator = new HtmlValidate(HTML_RULES)
  const found: string[] = []
  for (const page of pages) {
    const response = await server.ctx.request(page.url, { headers: { accept: 'text/html', ...(page.as === 'owner' ? { cookie } : {}) } })
    expect({ url: page.url, status: response.status }).toEqual({ url: page.url, status: page.status })
    found.push(...(await problems(validator, page.url, await response.text())))
  }
  // First-run setup exists only on an instance without users.
  const fresh = await listenTestContext({ now: NOW })
  try {
    const line = (await announceFirstRunSetup(fresh.ctx.app.services.accounts, fresh.base))!
    const setup = await fresh.ctx.request(/(http:\/\/\S+)/.exec(line)![1]!)
    expect(setup.status).toBe(200)
    found.push(...(await problems(validator, '/user/setup', await setup.text())))
  } finally {
    await fresh.close()
  }
  if (found.length > 0) console.error(found.join('\n'))
  expect(found).toEqual([])
}, 120_000)

test('the API reference with every operation and schema opened validates too (their details are written in when opened)', async () => {
  const page = await (await server.ctx.request('/swagger')).text()
  let partsUrl = ''
  await new HTMLRewriter().on('main[data-parts]', { element: (e) => void (partsUrl = e.getAttribute('data-parts')!) }).transform(new Response(page)).text()
  expect(partsUrl).toMatch(/^\/swagger\/parts\.json\?v=[0-9a-f]+$/)
  const parts = (await (await server.ctx.request(partsUrl)).json()) as string[]
  expect(parts.length).toBeGreaterThan(100)
  // What reference.js does on each <details>: its first <div> gets its part, in place of the fallback.
  let index = -1
  const opened = await new HTMLRewriter()
    .on('details[data-part]', { element: (e) => void (index = Number(e.getAttribute('data-part'))) })
    .on('details[data-part] > div', { element: (e) => void e.setInnerContent(parts[index]!, { html: true }) })
    .transform(new Response(page))
    .text()
  expect(index).toBe(parts.length - 1)
  const found = await problems(new HtmlValidate(HTML_RULES), '/swagger (opened)', opened)
  if (found.length > 0) console.error(found.slice(0, 50).join('\n'))
  expect(found).toEqual([])
}, 120_000)
