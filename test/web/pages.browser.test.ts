/**
 * The status-pages screens in real Chromium, through the browser only (the API is used solely to
 * compare answers and to check that nothing changed): create, edit, delete; field errors with the
 * API's own texts; markup stays text; another owner's ids; the Origin rule; flash; keyboard only;
 * axe in light and dark; 320 and 1280 px layouts; the custom-domain DNS check with an injected resolver.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { DnsResolver } from '../../src/modules/status-pages/dns-check.ts'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp, focusedId } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'

// Loopback answers for the DNS check: one domain CNAMEs to the page's host, one points elsewhere.
const dns: DnsResolver = {
  async cname(host) {
    return host === 'status.good-example.com' ? [`${slugOf.current}.localhost`] : []
  },
  async addresses(host) {
    if (host === 'status.other-example.com') return ['203.0.113.9']
    if (host === 'localhost' || host.endsWith('.localhost')) return ['127.0.0.1']
    return []
  },
}
const slugOf = { current: '' }

let app: WebApp
const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 6)}`

beforeAll(async () => {
  app = await startWebApp({ now: NOW, dns })
})
afterAll(() => app.close())

const pagesOf = (userId: number) => app.server.ctx.app.services.pages.list({ id: userId } as never)

async function createThroughForm(name: string, slug: string): Promise<number> {
  const page = app.page
  await page.goto(`${app.base}/user`)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Slug', { exact: true }).fill(slug)
  await page.getByRole('button', { name: 'Create page' }).click()
  await page.waitForURL(/\/user\/pages\/\d+$/)
  return Number(/\/user\/pages\/(\d+)$/.exec(page.url())![1])
}

describe('status pages in the browser', () => {
  test('create, edit and delete a page; flash after each redirect; a11y and layouts on every screen', async () => {
    const page = app.page
    await page.goto(`${app.base}/user`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'pages-list', ['Your status pages', 'New page'])

    const slug = unique('acme')
    const id = await createThroughForm('Acme Cloud', slug)
    // The flash survives the 303 and shows once.
    expect(await page.getByRole('status').filter({ hasText: 'Page "Acme Cloud" created.' }).isVisible()).toBe(true)
    expect(await page.locator('h1').textContent()).toBe('Acme Cloud')
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'page-overview', ['Acme Cloud', `${slug}.localhost`])
    await page.reload()
    expect(await page.getByText('Page "Acme Cloud" created.').count()).toBe(0)

    await page.getByRole('link', { name: 'Settings' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/settings`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'page-settings', ['Settings: Acme Cloud', 'Delete this page'])
    await page.getByLabel('Name', { exact: true }).fill('Acme Status')
    const newSlug = unique('acme2')
    await page.getByLabel('Slug', { exact: true }).fill(newSlug)
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/settings`)
    expect(await page.getByText('Settings saved.').isVisible()).toBe(true)
    const stored = await app.server.ctx.app.services.pages.get(app.owner.user, id)
    expect({ name: stored.name, slug: stored.slug }).toEqual({ name: 'Acme Status', slug: newSlug })

    await page.getByRole('link', { name: 'Delete page…' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/delete`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'page-delete', ['Delete Acme Status?'])
    // A wrong slug deletes nothing and says why, next to the field.
    await page.getByLabel(/Type the slug/).fill('nope')
    await page.getByRole('button', { name: 'Delete page' }).click()
    expect(await page.locator('#f-confirm_slug-error').textContent()).toBe(`Type the slug "${newSlug}" exactly to delete the page.`)
    expect(await page.locator('#f-confirm_slug').getAttribute('aria-invalid')).toBe('true')
    expect((await pagesOf(app.owner.user.id)).some((p) => p.id === id)).toBe(true)
    await page.getByLabel(/Type the slug/).fill(newSlug)
    await page.getByRole('button', { name: 'Delete page' }).click()
    await page.waitForURL(`${app.base}/user`)
    expect(await page.getByText('Page "Acme Status" deleted.').isVisible()).toBe(true)
    expect((await pagesOf(app.owner.user.id)).some((p) => p.id === id)).toBe(false)
  })

  test("a field error shows next to its field with the API's own text (service rule and schema rule)", async () => {
    const page = app.page
    await page.goto(`${app.base}/user`)
    await page.getByLabel('Name', { exact: true }).fill('Bad slug page')
    await page.getByLabel('Slug', { exact: true }).fill('Not a slug!')
    await page.getByRole('button', { name: 'Create page' }).click()
    const api = await app.server.ctx.request('/user/api/v1/status-pages', { method: 'POST', key: app.owner.key, json: { name: 'Bad slug page', slug: 'Not a slug!' } })
    const apiText = ((await api.json()) as { error: string }).error
    expect(api.status).toBe(400)
    expect(apiText).toBe('slug may contain only letters, digits and inner hyphens (a DNS label)')
    expect(await page.locator('#f-slug-error').textContent()).toBe('Slug may contain only letters, digits and inner hyphens (a DNS label)')
    expect(await page.locator('#f-slug').getAttribute('aria-describedby')).toContain('f-slug-error')
    // What was typed comes back; the focus lands on the field to fix (app.js).
    expect(await page.locator('#f-name').inputValue()).toBe('Bad slug page')
    expect(await focusedId(page, 'f-slug')).toBe('f-slug')

    // A schema rule (the name's length): the browser's maxlength stops typing, so post it directly.
    const cookie = await app.cookieOf(app.context)
    const long = 'x'.repeat(101)
    const response = await postForm(app, '/user/pages', { name: long, slug: unique('long') }, { cookie })
    expect(response.status).toBe(400)
    const schemaApi = await app.server.ctx.request('/user/api/v1/status-pages', { method: 'POST', key: app.owner.key, json: { name: long, slug: unique('long') } })
    const html = await response.text()
    const shown = /<p class="field-error" id="f-name-error">([^<]*)<\/p>/.exec(html)?.[1]
    expect(((await schemaApi.json()) as { error: string }).error).toBe('name must be a string of at most 100 characters')
    expect(shown).toBe('Name must be a string of at most 100 characters')
  })

  test("a plan that lacks private pages shows the API's 403 message on the form", async () => {
    const free = await app.createOwner('free')
    const { context, page } = await app.loginAs(free)
    await page.goto(`${app.base}/user`)
    await page.getByLabel('Name', { exact: true }).fill('Secret')
    await page.getByLabel('Slug', { exact: true }).fill(unique('secret'))
    await page.getByLabel('Visibility').selectOption('private')
    await page.getByRole('button', { name: 'Create page' }).click()
    const api = await app.server.ctx.request('/user/api/v1/status-pages', { method: 'POST', key: free.key, json: { name: 'Secret', slug: unique('s'), visibility: 'private' } })
    expect(api.status).toBe(403)
    expect(await page.locator('.form-error').textContent()).toBe(((await api.json()) as { error: string }).error)
    expect(await pagesOf(free.user.id)).toEqual([])
    await context.close()
  })

  test('markup typed in every field comes back as text, in the app and on the public status page', async () => {
    const page = app.page
    const slug = unique('mark')
    const id = await createThroughForm(MARKUP, slug)
    for (const path of ['/user', `/user/pages/${id}`, `/user/pages/${id}/settings`, `/user/pages/${id}/delete`]) {
      await page.goto(`${app.base}${path}`)
      expect(await page.locator('main').innerText()).toContain(path.endsWith('settings') ? 'Settings: <b>bold</b>' : '<b>bold</b>')
      expect(await page.locator('main b, main img').count()).toBe(0)
    }
    // Settings: every text field re-rendered after an error keeps the markup as its value.
    await page.goto(`${app.base}/user/pages/${id}/settings`)
    await page.getByLabel('Slug', { exact: true }).fill(MARKUP)
    await page.getByRole('textbox', { name: 'Custom domain' }).fill(MARKUP)
    await page.getByRole('button', { name: 'Save settings' }).click()
    expect(await page.locator('#f-slug').inputValue()).toBe(MARKUP)
    expect(await page.locator('#f-custom_domain').inputValue()).toBe(MARKUP)
    expect(await page.locator('#f-name').inputValue()).toBe(MARKUP)
    expect(await page.locator('main b, main img').count()).toBe(0)
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()

    await page.goto(app.server.statusHost(slug))
    expect(await page.locator('body').innerText()).toContain('<b>bold</b>')
    expect(await page.locator('body b, body img[src="x"]').count()).toBe(0)
  })

  test("another owner's page id is 404 on every screen and form, and nothing changes", async () => {
    const other = await app.createOwner()
    const theirs = await app.server.ctx.createPage(other.key, { name: 'Theirs', slug: unique('theirs') })
    const page = app.page
    for (const path of [`/user/pages/${theirs.id}`, `/user/pages/${theirs.id}/settings`, `/user/pages/${theirs.id}/delete`, '/user/pages/999999', '/user/pages/abc']) {
      const response = await page.goto(`${app.base}${path}`)
      expect({ path, status: response?.status() }).toEqual({ path, status: 404 })
      expect(await page.locator('h1').textContent()).toBe('Not found')
    }
    const cookie = await app.cookieOf(app.context)
    const edit = await postForm(app, `/user/pages/${theirs.id}/settings`, { name: 'Hijacked', slug: theirs.slug, visibility: 'public', custom_domain: '' }, { cookie })
    const del = await postForm(app, `/user/pages/${theirs.id}/delete`, { confirm_slug: theirs.slug }, { cookie })
    expect([edit.status, del.status]).toEqual([404, 404])
    expect(edit.headers.get('content-type')).toContain('text/html')
    const after = await app.server.ctx.app.services.pages.get(other.user, theirs.id)
    expect(after.name).toBe('Theirs')
  })

  test("a POST without this site's Origin is refused with 403 and changes nothing", async () => {
    const slug = unique('origin')
    const id = await createThroughForm('Origin test', slug)
    const cookie = await app.cookieOf(app.context)
    const before = (await pagesOf(app.owner.user.id)).length
    for (const origin of [null, 'https://evil.example']) {
      const created = await postForm(app, '/user/pages', { name: 'Forged', slug: unique('forged') }, { cookie, origin })
      const edited = await postForm(app, `/user/pages/${id}/settings`, { name: 'Forged', slug, visibility: 'public', custom_domain: '' }, { cookie, origin })
      const deleted = await postForm(app, `/user/pages/${id}/delete`, { confirm_slug: slug }, { cookie, origin })
      expect({ origin, statuses: [created.status, edited.status, deleted.status] }).toEqual({ origin, statuses: [403, 403, 403] })
      expect(await created.text()).toContain('This form must be sent from this site.')
    }
    expect((await pagesOf(app.owner.user.id)).length).toBe(before)
    expect((await app.server.ctx.app.services.pages.get(app.owner.user, id)).name).toBe('Origin test')
    // The same post with this site's Origin goes through (the refusal is about the Origin only).
    const ok = await postForm(app, `/user/pages/${id}/settings`, { name: 'Renamed', slug, visibility: 'public', custom_domain: '' }, { cookie })
    expect(ok.status).toBe(303)
  })

  test('the account screens on the kit pass axe and fit 320 px too (login, password)', async () => {
    const anonymous = await app.browser.newContext()
    const login = await anonymous.newPage()
    await login.goto(`${app.base}/user/login`)
    await checkA11y(login)
    await checkLayouts(login, app.shots, 'login', ['Log in'])
    await anonymous.close()
    await app.page.goto(`${app.base}/user/password`)
    await checkA11y(app.page)
    await checkLayouts(app.page, app.shots, 'password', ['Change password', 'Current password'])
  })

  test('keyboard only: Tab to the form, type, Enter submits', async () => {
    const page = app.page
    await page.goto(`${app.base}/user`)
    // The skip link comes first and jumps to the content.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    await page.keyboard.press('Enter')
    let focused = ''
    for (let i = 0; i < 60 && focused !== 'f-name'; i++) {
      await page.keyboard.press('Tab')
      focused = await page.evaluate(() => document.activeElement?.id ?? '')
    }
    expect(focused).toBe('f-name')
    await page.keyboard.type('Keyboard page')
    await page.keyboard.press('Tab')
    const slug = unique('keys')
    await page.keyboard.type(slug)
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/user\/pages\/\d+$/)
    expect(await page.locator('h1').textContent()).toBe('Keyboard page')
  })

  test('a private page: the create form asks for its password, and a visitor opens the page with it', async () => {
    const page = app.page
    const slug = unique('team')
    await page.goto(`${app.base}/user`)
    await page.getByLabel('Name', { exact: true }).fill('Team page')
    await page.getByLabel('Slug', { exact: true }).fill(slug)
    await page.getByLabel('Visibility').selectOption('private')
    await page.getByRole('button', { name: 'Create page' }).click()
    // No password: the form says so next to the field, and nothing is created.
    const password = page.getByLabel('Password (private pages only)')
    expect(await password.getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('#f-password-error').textContent()).toContain('A private page needs a password: without one no visitor can open it.')
    expect((await pagesOf(app.owner.user.id)).some((p) => p.slug === slug)).toBe(false)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'pages-create-private-error', ['A private page needs a password'])

    await password.fill('a team password')
    await page.getByRole('button', { name: 'Create page' }).click()
    await page.waitForURL(/\/user\/pages\/\d+$/)
    expect(await page.getByText('Nobody can open this page').count()).toBe(0)

    const visitorContext = await app.browser.newContext()
    const visitor = await visitorContext.newPage()
    try {
      await visitor.goto(`${app.server.statusHost(slug)}/`)
      await visitor.getByLabel('Password').fill('a team password')
      await visitor.getByRole('button', { name: 'View status' }).click()
      await visitor.getByRole('heading', { name: 'Team page', level: 1 }).waitFor()
      expect(await visitor.locator('.banner').isVisible()).toBe(true)
    } finally {
      await visitorContext.close()
    }
  })

  test('a page made private in its settings without a password: the screen warns at once and links to set one', async () => {
    const page = app.page
    const slug = unique('shut')
    const id = await createThroughForm('Shut page', slug)
    await page.goto(`${app.base}/user/pages/${id}/settings`)
    await page.getByLabel('Visibility').selectOption('private')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/settings`)
    const notice = page.getByRole('note').filter({ hasText: 'Nobody can open this page.' })
    expect(await notice.isVisible()).toBe(true)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'page-settings-locked', ['Nobody can open this page.', 'Set a password'])
    await notice.getByRole('link', { name: 'Set a password' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/access#password-heading`)
    await page.getByLabel('Password', { exact: true }).fill('finally a password')
    await page.getByRole('button', { name: 'Set password' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/access`)
    await page.goto(`${app.base}/user/pages/${id}`)
    expect(await page.getByText('Nobody can open this page').count()).toBe(0)
  })

  test('custom domain: the DNS record to create and a check through the injected resolver', async () => {
    const page = app.page
    const slug = unique('dom')
    slugOf.current = slug
    const id = await createThroughForm('Domain page', slug)
    await page.goto(`${app.base}/user/pages/${id}/settings`)
    await page.getByRole('textbox', { name: 'Custom domain' }).fill('status.good-example.com')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/settings`)
    const section = page.locator('section:has(#dns-heading)')
    expect(await section.locator('h2').textContent()).toBe('DNS for status.good-example.com')
    expect(await section.locator('tbody tr td').allTextContents()).toEqual(['status.good-example.com', 'CNAME', `${slug}.localhost`])
    // Saved, not verified: public links stay on the page's own address meanwhile.
    const fact = (term: string) => section.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]')
    expect(await fact('State').textContent()).toContain('pending')
    expect(await fact('Public links go to').textContent()).toBe(`${app.server.statusHost(slug)}`)
    expect(await fact('Last checked').textContent()).toContain('Not yet')
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'page-domain-pending', ['DNS for status.good-example.com', 'pending'])

    await page.getByRole('button', { name: 'Check DNS' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/settings#dns-heading`)
    expect(await page.getByRole('status').filter({ hasText: `status.good-example.com reaches this instance (CNAME ${slug}.localhost).` }).isVisible()).toBe(true)
    expect(await fact('State').textContent()).toContain('verified')
    expect(await fact('Public links go to').textContent()).toBe('http://status.good-example.com')
    expect(await fact('Last checked').textContent()).toBe('23 Nov 2026, 12:00 UTC')
    // The API says the same.
    const answer = await app.server.ctx.request(`/user/api/v1/status-pages/${id}`, { key: app.owner.key })
    expect(((await answer.json()) as { data: { url: string; custom_domain_status: { state: string } } }).data).toMatchObject({ url: 'http://status.good-example.com', custom_domain_status: { state: 'verified' } })
    await checkA11y(page)

    await page.getByRole('textbox', { name: 'Custom domain' }).fill('status.other-example.com')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/settings`)
    expect(await fact('State').textContent()).toContain('pending')
    await page.getByRole('button', { name: 'Check DNS' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/settings#dns-heading`)
    expect(await page.getByRole('status').filter({ hasText: 'status.other-example.com points elsewhere: 203.0.113.9.' }).isVisible()).toBe(true)
    expect(await fact('Found').textContent()).toBe('status.other-example.com points elsewhere: 203.0.113.9.')
    expect(await fact('Public links go to').textContent()).toBe(`${app.server.statusHost(slug)}`)

    // Emptying the field removes the domain (null, as the API's custom_domain: null).
    await page.getByRole('textbox', { name: 'Custom domain' }).fill('')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/settings`)
    expect((await app.server.ctx.app.services.pages.get(app.owner.user, id)).customDomain).toBeNull()
  })
})
