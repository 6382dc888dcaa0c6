/**
 * Account, API keys, sessions, plan and first-run setup in real Chromium, through the browser
 * (the API is called only to use a key and to check what changed): a key is created, seen once,
 * used (200), revoked in the browser and then refused (401); sessions from two browser contexts,
 * the other one ended; usage counts; axe light/dark, 320/1280 px; markup stays text; another
 * owner's ids are 404; cross-origin posts are 403.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { listenTestContext } from '../helpers/listening.ts'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp } from '../helpers/webapp.ts'
import { usageLine } from '../../src/web/views/plan.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'

let app: WebApp
beforeAll(async () => {
  app = await startWebApp({ now: NOW })
})
afterAll(() => app.close())

const api = (path: string, key: string, init: { method?: string; json?: unknown } = {}) =>
  fetch(`${app.base}/user/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${key}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  })
const accounts = () => app.server.ctx.app.services.accounts

describe('API keys in the browser', () => {
  test('create a key, see it once, use it (200), revoke it in the browser, then it gets 401', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/api-keys`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'api-keys', ['API keys', 'New API key'])

    await page.getByLabel('Name', { exact: true }).fill('deploy script')
    await page.getByRole('button', { name: 'Create key' }).click()
    const field = page.getByRole('textbox', { name: 'API key deploy script' })
    const key = await field.inputValue()
    expect(key).toMatch(/^lnt_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/)
    expect(await page.getByText('shown this once').first().isVisible()).toBe(true)
    // copy.js reveals the copy button (hidden without JavaScript).
    expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'api-key-created', ['Your new key', 'Copy it now'])

    expect((await api('/status-pages', key)).status).toBe(200)
    // The default role is the member's own.
    expect(await page.getByRole('row', { name: /deploy script/ }).getByRole('cell', { name: 'Owner', exact: true }).isVisible()).toBe(true)

    // A key with a lower role reads and changes nothing.
    await page.getByLabel('Name', { exact: true }).fill('status reader')
    await page.getByLabel('Role').selectOption({ label: 'Viewer' })
    await page.getByRole('button', { name: 'Create key' }).click()
    const reader = await page.getByRole('textbox', { name: 'API key status reader' }).inputValue()
    expect(await page.getByRole('row', { name: /status reader/ }).getByRole('cell', { name: 'Viewer', exact: true }).isVisible()).toBe(true)
    expect((await api('/status-pages', reader)).status).toBe(200)
    expect((await api('/status-pages', reader, { method: 'POST', json: { name: 'Nope', slug: 'nope-by-viewer' } })).status).toBe(403)

    // Never again: the list (and a reload of it) shows the prefix, not the key.
    // `lnt_` + a 12-character id + `_` + the secret (the id and the secret may themselves hold `_`).
    const secret = key.slice('lnt_'.length + 12 + 1)
    expect(secret).toHaveLength(43)
    await page.goto(`${app.base}/user/api-keys`)
    expect(await page.content()).not.toContain(secret)
    await page.reload()
    expect(await page.content()).not.toContain(secret)
    expect(await page.getByRole('textbox', { name: /API key/ }).count()).toBe(0)
    expect(await page.getByRole('cell', { name: key.slice(0, 16) }).isVisible()).toBe(true)

    await page.getByRole('link', { name: 'Revoke deploy script' }).click()
    await page.waitForURL(/\/user\/api-keys\/\d+\/revoke$/)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'api-key-revoke', ['Revoke "deploy script"?'])
    await page.getByRole('button', { name: 'Revoke key' }).click()
    await page.waitForURL(`${app.base}/user/api-keys`)
    expect(await page.getByRole('status').filter({ hasText: 'Key "deploy script" revoked' }).isVisible()).toBe(true)
    expect((await api('/status-pages', key)).status).toBe(401)
  })

  test('a blank name is refused next to the field with the API schema\'s text; markup in the name stays text', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/api-keys`)
    await page.getByLabel('Name', { exact: true }).fill('   ')
    await page.getByRole('button', { name: 'Create key' }).click()
    const apiAnswer = await fetch(`${app.base}/user/api/v1/api-keys`, {
      method: 'POST',
      headers: { cookie: await app.cookieOf(app.context), origin: app.base, 'content-type': 'application/json' },
      body: JSON.stringify({ name: '   ' }),
    })
    expect(apiAnswer.status).toBe(400)
    // The API's sentence, shown beside the field with the field's label.
    expect(((await apiAnswer.json()) as { error: string }).error).toBe('name must be 1 to 100 characters, not only spaces')
    expect(await page.locator('#f-name-error').textContent()).toBe('Name must be 1 to 100 characters, not only spaces')

    await page.getByLabel('Name', { exact: true }).fill(MARKUP)
    await page.getByRole('button', { name: 'Create key' }).click()
    expect(await page.locator('main').innerText()).toContain('<b>bold</b>')
    for (const path of ['/user/api-keys']) {
      await page.goto(`${app.base}${path}`)
      expect(await page.locator('main').innerText()).toContain('<b>bold</b>')
    }
    const id = (await accounts().listApiKeys(app.owner.user.id)).find((k) => k.name === MARKUP)!.id
    await page.goto(`${app.base}/user/api-keys/${id}/revoke`)
    expect(await page.locator('h1').innerText()).toContain('<b>bold</b>')
    expect(await page.locator('main b, main img').count()).toBe(0)
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()
  })
})

describe('sessions in the browser', () => {
  test('two browser contexts: the account lists both, this one marked; ending the other sends it to login', async () => {
    const owner = await app.createOwner('pro')
    const mine = await app.loginAs(owner)
    const theirs = await app.loginAs(owner)
    const page = mine.page
    await page.goto(`${app.base}/user/account`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'account', ['Account', owner.email, 'Sessions', 'This browser'])
    expect(await page.getByRole('row').count()).toBe(3) // header + two sessions
    expect(await page.getByText('This browser').count()).toBe(1)
    expect(await page.getByRole('cell', { name: 'Headless Chrome on Linux', exact: true }).count()).toBe(2)

    await page.getByRole('button', { name: /^End session/ }).click()
    await page.waitForURL(`${app.base}/user/account`)
    expect(await page.getByRole('status').filter({ hasText: 'Session ended.' }).isVisible()).toBe(true)
    expect(await page.getByRole('row').count()).toBe(2)
    await theirs.page.goto(`${app.base}/user`)
    expect(new URL(theirs.page.url()).pathname).toBe('/user/login')

    // End all others: a third browser is logged out, this one stays.
    const third = await app.loginAs(owner)
    await page.goto(`${app.base}/user/account`)
    await page.getByRole('button', { name: /End all other sessions/ }).click()
    await page.waitForURL(`${app.base}/user/account`)
    expect(await page.getByText('One other session ended.').isVisible()).toBe(true)
    await third.page.goto(`${app.base}/user/pages`)
    expect(new URL(third.page.url()).pathname).toBe('/user/login')
    await page.goto(`${app.base}/user/pages`)
    expect(new URL(page.url()).pathname).toBe('/user/pages')
    for (const ctx of [mine, theirs, third]) await ctx.context.close()
  })
})

describe('plan and usage', () => {
  test('the plan, the features it lacks with the plan that has them, and the right counts', async () => {
    const owner = await app.createOwner('free')
    const ctx = app.server.ctx
    const first = await ctx.createPage(owner.key, { name: 'One', slug: `one-${crypto.randomUUID().slice(0, 6)}` })
    const second = await ctx.createPage(owner.key, { name: 'Two', slug: `two-${crypto.randomUUID().slice(0, 6)}` })
    for (const [pageId, name] of [[first.id, 'API'], [first.id, 'Web'], [first.id, 'DNS'], [second.id, 'Site']] as const) {
      await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key: owner.key, json: { name } })
    }
    const { context, page } = await app.loginAs(owner)
    await page.goto(`${app.base}/user/plan`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'plan', ['Your plan: Free', 'Usage', 'Custom domain and private pages'])
    const count = (label: string) => page.locator('.usage li', { hasText: label }).locator('.count').innerText()
    expect(await count('Status pages')).toBe('2')
    expect(await count('Components (all pages)')).toBe('4')
    expect(await count('Components on your fullest page')).toBe('3')
    expect(await count('Active API keys')).toBe('1')
    expect(await count('Components with automatic incidents')).toBe('0')
    expect(await page.locator('.usage li', { hasText: 'Components with automatic incidents' }).innerText()).toContain('not on your plan')
    expect(await count('Subscribers on your fullest page')).toBe('0 / 100')
    expect(await page.locator('li', { hasText: 'Custom CSS and favicon' }).innerText()).toContain('from Growth')
    expect(await page.locator('li', { hasText: 'Custom domain and private pages' }).innerText()).toContain('from Pro')
    // The same numbers from the API.
    const apiPlan = (await (await api('/plan', owner.key)).json()) as { data: { usage: Array<{ key: string; used: number; limit: number | null }> } }
    expect(apiPlan.data.usage.map((line) => [line.key, line.used])).toEqual([
      ['pages', 2],
      ['components', 4],
      ['components_per_page', 3],
      ['api_keys', 1],
      ['auto_incident_components', 0],
      ['subscribers_per_page', 0],
    ])

    // A capped line renders as an accessible "3 / 5" bar (as subscribers per page does above).
    const bar = usageLine({ key: 'pages', label: 'Status pages', used: 3, limit: 5 })
    await page.evaluate((markup) => {
      document.querySelector('.usage')!.innerHTML = markup
    }, bar)
    const meter = page.getByRole('meter', { name: 'Status pages' })
    expect(await meter.getAttribute('value')).toBe('3')
    expect(await meter.getAttribute('max')).toBe('5')
    expect(await page.locator('.usage .count').innerText()).toBe('3 / 5')
    await checkA11y(page)
    await context.close()
  })
})

describe('ownership and origin', () => {
  test("another owner's key and session ids are 404 on every screen and form, and nothing changes", async () => {
    const other = await app.createOwner()
    const otherKey = (await accounts().listApiKeys(other.user.id))[0]!
    const otherSession = await app.loginAs(other)
    const otherSessionId = (await accounts().listSessions(other.user.id))[0]!.id
    const page = app.page
    for (const path of [`/user/api-keys/${otherKey.id}/revoke`, '/user/api-keys/999999/revoke', '/user/api-keys/abc/revoke']) {
      const response = await page.goto(`${app.base}${path}`)
      expect({ path, status: response?.status() }).toEqual({ path, status: 404 })
      expect(await page.locator('h1').textContent()).toBe('Not found')
    }
    const cookie = await app.cookieOf(app.context)
    const revoke = await postForm(app, `/user/api-keys/${otherKey.id}/revoke`, {}, { cookie })
    const end = await postForm(app, `/user/account/sessions/${otherSessionId}/end`, {}, { cookie })
    expect([revoke.status, end.status]).toEqual([404, 404])
    expect((await accounts().getApiKey(other.user.id, otherKey.id)).state).toBe('active')
    expect((await api('/status-pages', other.key)).status).toBe(200)
    await otherSession.page.goto(`${app.base}/user/account`)
    expect(new URL(otherSession.page.url()).pathname).toBe('/user/account')
    await otherSession.context.close()
  })

  test("a POST without this site's Origin is refused with 403 and changes nothing", async () => {
    const owner = await app.createOwner()
    const mine = await app.loginAs(owner)
    const other = await app.loginAs(owner)
    const cookie = await app.cookieOf(mine.context)
    const keyId = (await accounts().listApiKeys(owner.user.id))[0]!.id
    const sessionId = (await accounts().listSessions(owner.user.id)).find((s) => !s.current)!.id
    for (const origin of [null, 'https://evil.example']) {
      const statuses = [
        (await postForm(app, '/user/api-keys', { name: 'forged' }, { cookie, origin })).status,
        (await postForm(app, `/user/api-keys/${keyId}/revoke`, {}, { cookie, origin })).status,
        (await postForm(app, `/user/account/sessions/${sessionId}/end`, {}, { cookie, origin })).status,
        (await postForm(app, '/user/account/sessions/end-others', {}, { cookie, origin })).status,
      ]
      expect({ origin, statuses }).toEqual({ origin, statuses: [403, 403, 403, 403] })
    }
    expect((await accounts().listApiKeys(owner.user.id)).map((k) => [k.name, k.state])).toEqual([['test', 'active']])
    expect(await accounts().listSessions(owner.user.id)).toHaveLength(2)
    await other.page.goto(`${app.base}/user/account`)
    expect(new URL(other.page.url()).pathname).toBe('/user/account')
    for (const ctx of [mine, other]) await ctx.context.close()
  })
})

test('first run in the browser: the setup link creates the first account and lands in the web app', async () => {
  const fresh = await listenTestContext({ now: NOW })
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    const token = (await fresh.ctx.app.services.accounts.issueSetupToken())!
    const page = await context.newPage()
    const link = `${fresh.base}/user/setup?token=${token}`
    await page.goto(link)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'setup', ['Set up Lantern', 'Create account'])
    await page.getByLabel('Email').fill('first@example.com')
    await page.getByLabel('Password').fill('short')
    await page.getByRole('button', { name: 'Create account' }).click()
    expect(await page.locator('#f-password-error').textContent()).toBe('Password must be 8 to 1024 characters')
    await page.getByLabel('Password').fill('correct horse battery')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL(`${fresh.base}/user`)
    expect(await page.getByRole('status').filter({ hasText: 'Welcome to Lantern' }).isVisible()).toBe(true)
    expect(await page.getByText('first@example.com').first().isVisible()).toBe(true)
    const again = await page.goto(link)
    expect(again?.status()).toBe(404)
  } finally {
    await context.close()
    await fresh.close()
  }
})
