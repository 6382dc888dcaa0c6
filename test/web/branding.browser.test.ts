/**
 * The Branding, Access and Embed sections of a page in real Chromium, through the browser only (the
 * API and services are read solely to check outcomes): colours with a live preview and a logo seen
 * on the public page; custom CSS refused on the free plan with the plan's message; a private page
 * whose gate a fresh browser context passes; the embed token created, rotated and revoked; the
 * snippets with copy buttons; another owner's ids; the Origin rule; axe light and dark; 320/1280 px.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { brokenImages } from '../helpers/browser.ts'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'
// A 1×1 PNG (red pixel).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64')

let app: WebApp
const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 6)}`

beforeAll(async () => {
  app = await startWebApp({ now: NOW })
})
afterAll(() => app.close())

async function createPage(name: string, slug: string, page = app.page): Promise<number> {
  await page.goto(`${app.base}/user`)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Slug', { exact: true }).fill(slug)
  await page.getByRole('button', { name: 'Create page' }).click()
  await page.waitForURL(/\/user\/pages\/\d+$/)
  return Number(/\/user\/pages\/(\d+)$/.exec(page.url())![1])
}

const services = () => app.server.ctx.app.services
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`

describe('branding in the browser', () => {
  test('colours with a live preview, a logo, seen on the public page; a11y and layouts', async () => {
    const page = app.page
    const slug = unique('brand')
    const id = await createPage('Brand Co', slug)
    await page.getByRole('link', { name: 'Branding' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/branding`)
    // The page may frame this page's status host only; images come from its own origin.
    const csp = (await page.request.get(page.url())).headers()['content-security-policy']!
    expect(csp).toContain(`frame-src ${app.server.statusHost(slug)}`)
    expect(csp).not.toContain("unsafe-eval")
    expect(csp).toContain("img-src 'self' data:;")
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'branding', ['Branding: Brand Co', 'Save branding', 'Upload a logo'])

    // The sample follows the colours as they are typed (before saving).
    const head = page.locator('.bp-light .bp-head')
    await page.getByLabel('Primary', { exact: true }).fill('#8a1c7c')
    await page.waitForFunction(
      (expected) => getComputedStyle(document.querySelector('.bp-light .bp-head')!).backgroundColor === expected,
      rgb('#8a1c7c'),
    )
    // Colours the API would refuse are named as such while typing.
    await page.getByLabel('Text', { exact: true }).fill('#fefefe')
    await page.waitForFunction(() => document.getElementById('preview-status')!.textContent!.includes('contrast'))
    // Saving them anyway: the service's message next to the field, nothing saved.
    await page.getByRole('button', { name: 'Save branding' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('#f-text-error').textContent()).toContain('Text on background has a contrast')
    expect((await services().branding.branding(app.owner.user, id)).palette.primary).toBe('#1f4fd1')
    await checkA11y(page)

    await page.getByLabel('Text', { exact: true }).fill('#1f2328')
    await page.getByRole('button', { name: 'Save branding' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/branding`)
    expect(await page.getByRole('status').filter({ hasText: 'Branding saved.' }).isVisible()).toBe(true)
    expect(await head.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb('#8a1c7c'))

    await page.getByLabel('Upload a logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG })
    await page.getByRole('button', { name: 'Upload logo' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/branding`)
    expect(await page.getByRole('status').filter({ hasText: 'Logo uploaded.' }).isVisible()).toBe(true)
    expect(await page.getByText('Current: PNG').isVisible()).toBe(true)
    // The owner sees the logo where it was uploaded: the thumbnail and the light and dark samples
    // (served by the service host, not blocked as the status host's images are on another origin).
    await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete))
    const shown = await page.locator('img.logo-thumb, .bp-head img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth))
    expect(shown).toEqual([1, 1, 1])
    expect(await brokenImages(page)).toEqual([])
    const own = await fetch(`${app.base}/user/pages/${id}/branding/logo`, { headers: { cookie: await app.cookieOf(app.context) } })
    expect([own.status, own.headers.get('content-type'), own.headers.get('content-security-policy')]).toEqual([200, 'image/png', "default-src 'none'; style-src 'unsafe-inline'; script-src 'none'; sandbox"])
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(new Uint8Array(PNG))
    // The real public page, framed from the status host (sandboxed), is there after the save.
    const frame = page.locator('iframe.page-frame')
    expect(await frame.getAttribute('src')).toStartWith(`${app.server.statusHost(slug)}/`)
    expect(await frame.getAttribute('sandbox')).toBe('')
    // It waits in a closed <details>: the screen does not load a whole status page until asked.
    const framed = () => page.frames().some((f) => f.url().startsWith(app.server.statusHost(slug)))
    expect(framed()).toBe(false)
    const opened = page.waitForEvent('framenavigated', { predicate: (f) => f.url().startsWith(app.server.statusHost(slug)) })
    await page.getByText('Show the public page here').click()
    await opened
    expect(framed()).toBe(true)
    // The framed page shows the logo too: the sandbox gives it an opaque origin, which a
    // same-origin resource policy on the status host's images would refuse.
    const framedLogo = page.frameLocator('iframe.page-frame').locator('header.site img')
    await framedLogo.waitFor()
    await framedLogo.evaluate((img) => (img as HTMLImageElement).decode().catch(() => undefined))
    expect(await framedLogo.evaluate((img) => [(img as HTMLImageElement).complete, (img as HTMLImageElement).naturalWidth])).toEqual([true, 1])

    // A visitor (fresh context, no session) sees the colour and the logo on the public page.
    const visitor = await app.browser.newContext()
    const publicPage = await visitor.newPage()
    await publicPage.goto(`${app.server.statusHost(slug)}/`)
    expect(await publicPage.locator('header.site').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb('#8a1c7c'))
    const logo = publicPage.locator('header.site img')
    await logo.waitFor()
    expect(await logo.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBe(1)
    await visitor.close()

    // A file that is not an image: the API's own check, next to the field.
    await page.getByLabel('Upload a logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not an image') })
    await page.getByRole('button', { name: 'Upload logo' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('#f-logo-error').textContent()).toBe('Logo must be a PNG, JPEG, SVG or ICO image (recognised by its content)')

    // Over the API's limit (256 KB): refused by the same service, nothing changed.
    const big = new Uint8Array(300 * 1024)
    big.set(PNG)
    await page.getByLabel('Upload a logo').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.from(big) })
    await page.getByRole('button', { name: 'Upload logo' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('#f-logo-error').textContent()).toBe(`Logo must be at most 256 KB (got ${big.length} bytes)`)
    expect((await services().branding.branding(app.owner.user, id)).logo).toEqual({ type: 'png', bytes: PNG.length })

    await page.getByRole('button', { name: 'Remove logo' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/branding`)
    expect((await services().branding.branding(app.owner.user, id)).logo).toBeNull()
  }, 120_000)

  test('custom CSS: markup stays text and is refused; the free plan sees it disabled with the plan message', async () => {
    const page = app.page
    const id = await createPage('Css Co', unique('css'))
    await page.goto(`${app.base}/user/pages/${id}/branding`)
    await page.getByLabel('Custom CSS').fill(MARKUP)
    await page.getByLabel('Primary', { exact: true }).fill(MARKUP)
    await page.getByRole('button', { name: 'Save branding' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('#f-primary-error').textContent()).toBe('Primary must be a hex colour like #1f6feb')
    expect(await page.getByLabel('Primary', { exact: true }).inputValue()).toBe(MARKUP)
    await page.getByLabel('Primary', { exact: true }).fill('#1f4fd1')
    await page.getByRole('button', { name: 'Save branding' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('#f-custom_css-error').textContent()).toBe('Custom CSS must not contain "<" (no HTML inside a stylesheet)')
    expect(await page.getByLabel('Custom CSS').inputValue()).toBe(MARKUP)
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
    expect(await page.locator('main b').count()).toBe(0)
    await page.getByLabel('Custom CSS').fill('header.site { border-bottom: 4px solid #000 }')
    await page.getByRole('button', { name: 'Save branding' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/branding`)
    expect((await services().branding.branding(app.owner.user, id)).customCss).toBe('header.site { border-bottom: 4px solid #000 }')

    const free = await app.createOwner('free')
    const { context, page: freePage } = await app.loginAs(free)
    const freeId = await createPage('Free Co', unique('free'), freePage)
    await freePage.goto(`${app.base}/user/pages/${freeId}/branding`)
    expect(await freePage.getByLabel('Custom CSS').isDisabled()).toBe(true)
    expect(await freePage.getByText('Custom CSS and a custom favicon require Growth plan or higher.').first().isVisible()).toBe(true)
    expect(await freePage.getByRole('button', { name: 'Upload favicon' }).isDisabled()).toBe(true)
    await checkA11y(freePage)
    // Sent anyway (without the browser's disabled field): the service's plan message, next to the field.
    const cookie = await app.cookieOf(context)
    const refused = await postForm(app, `/user/pages/${freeId}/branding`, { primary: '#1f4fd1', custom_css: 'body{color:red}' }, { cookie })
    expect(refused.status).toBe(403)
    expect(await refused.text()).toContain('Custom CSS requires Growth plan or higher')
    expect((await services().branding.branding(free.user, freeId)).customCss).toBeNull()
    // A favicon is refused by the service too (the API's plan check), and so is a private page.
    const upload = new FormData()
    upload.set('file', new Blob([PNG], { type: 'image/png' }), 'icon.png')
    const favicon = await fetch(`${app.base}/user/pages/${freeId}/branding/favicon`, { method: 'POST', body: upload, headers: { cookie, origin: app.base } })
    expect(favicon.status).toBe(403)
    expect(await favicon.text()).toContain('A custom favicon requires Growth plan or higher')
    expect((await services().branding.branding(free.user, freeId)).favicon).toBeNull()
    await freePage.goto(`${app.base}/user/pages/${freeId}/access`)
    await freePage.getByLabel('Who can read the page').selectOption('private')
    await freePage.getByRole('button', { name: 'Save visibility' }).click()
    await freePage.waitForLoadState('load')
    expect(await freePage.locator('#f-visibility-error').textContent()).toBe('Private pages require Pro plan or higher')
    expect((await services().pages.get(free.user, freeId)).visibility).toBe('public')
    // Colours alone are fine on every plan.
    await freePage.goto(`${app.base}/user/pages/${freeId}/branding`)
    await freePage.getByLabel('Accent', { exact: true }).fill('#0a66d8')
    await freePage.getByRole('button', { name: 'Save branding' }).click()
    await freePage.waitForURL(`${app.base}/user/pages/${freeId}/branding`)
    expect(await freePage.getByRole('status').filter({ hasText: 'Branding saved.' }).isVisible()).toBe(true)
    await context.close()
  }, 120_000)
})

describe('access in the browser', () => {
  test('private page with a gate password passed in a fresh context; embed token created, rotated, revoked; blocked state', async () => {
    const page = app.page
    const slug = unique('gate')
    const id = await createPage('Gate Co', slug)
    await page.getByRole('link', { name: 'Access' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/access`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'access', ['Access: Gate Co', 'Gate password', 'Embed token'])

    await page.getByLabel('Who can read the page').selectOption('private')
    await page.getByRole('button', { name: 'Save visibility' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/access`)
    expect(await page.getByRole('status').filter({ hasText: 'The page is now private.' }).isVisible()).toBe(true)

    // Too short: the service's rule next to the field; the password never comes back.
    await page.getByLabel('Password', { exact: true }).fill('short')
    await page.getByRole('button', { name: 'Set password' }).click()
    await page.waitForLoadState('load')
    expect(await page.locator('#f-password-error').textContent()).toBe('Password must be at least 8 characters')
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('')
    await page.getByLabel('Password', { exact: true }).fill('open sesame 42')
    await page.getByRole('button', { name: 'Set password' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/access`)
    expect(await page.content()).not.toContain('open sesame 42')
    expect(await page.getByRole('button', { name: 'Change password' }).isVisible()).toBe(true)

    // A visitor in a fresh context meets the gate and passes it.
    const visitor = await app.browser.newContext()
    const gate = await visitor.newPage()
    await gate.goto(`${app.server.statusHost(slug)}/`)
    await gate.getByLabel('Password').fill('open sesame 42')
    await gate.getByRole('button', { name: 'View status' }).click()
    await gate.waitForSelector('header.site h1')
    expect(await gate.locator('header.site h1').textContent()).toContain('Gate Co')
    await visitor.close()

    // Embed token: shown once, works; rotated: the old one stops; revoked: none works.
    const statusWith = (token: string) => fetch(`${app.base}/api/embed/status?slug=${slug}&auth_token=${encodeURIComponent(token)}`)
    await page.getByRole('button', { name: 'Create token' }).click()
    await page.waitForLoadState('load')
    const first = (await page.locator('#new-token').textContent())!
    expect(first).toMatch(/^lpt_/)
    expect(await page.getByRole('button', { name: 'Copy the embed token' }).isVisible()).toBe(true)
    expect((await statusWith(first)).status).toBe(200)
    await page.goto(`${app.base}/user/pages/${id}/access`)
    expect(await page.locator('#new-token').count()).toBe(0)
    expect(await page.content()).not.toContain(first)
    await page.getByRole('button', { name: 'Rotate token' }).click()
    await page.waitForLoadState('load')
    const second = (await page.locator('#new-token').textContent())!
    expect(second).not.toBe(first)
    expect((await statusWith(first)).status).toBe(404)
    expect((await statusWith(second)).status).toBe(200)
    await page.goto(`${app.base}/user/pages/${id}/access`)
    await page.getByRole('button', { name: 'Revoke token' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/access`)
    expect(await page.getByRole('status').filter({ hasText: 'Embed token revoked.' }).isVisible()).toBe(true)
    expect((await statusWith(second)).status).toBe(404)

    await page.getByRole('button', { name: 'Remove password' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/access`)
    expect((await services().pageAccessSettings.accessSettings(app.owner.user, id)).passwordSet).toBe(false)

    // Blocked by the administrator: said plainly, with what it means and who can lift it.
    await services().pages.setBlocked(slug, true)
    await page.goto(`${app.base}/user/pages/${id}/access`)
    expect(await page.getByText('Blocked by the administrator.').isVisible()).toBe(true)
    expect(await page.getByText('Only an administrator of this Lantern instance can unblock it').isVisible()).toBe(true)
    await checkA11y(page)
  }, 120_000)
})

describe('embed in the browser', () => {
  test('snippets as selectable text with copy buttons, the badge live, the share links in the sub-navigation', async () => {
    const page = app.page
    const slug = unique('emb')
    const id = await createPage('Embed Co', slug)
    await page.getByRole('link', { name: 'Embed' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/embed`)
    const snippets = services().preview.forPage({ slug, customDomain: null, customDomainState: null, plan: 'enterprise' })
    if (!snippets.ok) throw new Error('expected snippets')
    expect(await page.locator('#badge_markdown').textContent()).toBe(snippets.snippets.badge_markdown)
    expect(await page.locator('#widget_script').textContent()).toBe(snippets.snippets.widget_script)
    const badge = page.locator('.live img[alt=Status]')
    await badge.waitFor()
    expect(await badge.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0)).toBe(true)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.base })
    await page.getByRole('button', { name: 'Copy Badge (Markdown)' }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippets.snippets.badge_markdown)
    expect(await page.getByText('Copied.').first().isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'Open the full preview' }).getAttribute('href')).toBe(`/embed/preview?slug=${slug}`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'embed', ['Embed: Embed Co', 'Badge (Markdown)'])

    const sections = page.getByRole('navigation', { name: 'Sections of Embed Co' })
    expect(await sections.getByRole('link', { name: 'Analytics' }).getAttribute('href')).toBe(`/user/analytics/${id}`)
    await sections.getByRole('link', { name: 'Share links' }).click()
    await page.waitForURL(`${app.base}/user/analytics/${id}#tokens`)
    expect(await page.getByRole('heading', { name: 'Share links' }).isVisible()).toBe(true)

    // The free plan: the preview's plan message instead of snippets.
    const free = await app.createOwner('free')
    const { context, page: freePage } = await app.loginAs(free)
    const freeId = await createPage('Free Embed', unique('femb'), freePage)
    await freePage.goto(`${app.base}/user/pages/${freeId}/embed`)
    expect(await freePage.getByText('Embeds require Pro plan or higher').isVisible()).toBe(true)
    await context.close()
  }, 120_000)
})

describe('ownership and origin', () => {
  test("another owner's page is 404 on every screen and action, nothing changed; a cross-site POST is 403, nothing changed", async () => {
    const slug = unique('own')
    const id = await createPage('Own Co', slug)
    const other = await app.createOwner('enterprise')
    const { context } = await app.loginAs(other)
    const cookie = await app.cookieOf(context)
    await services().branding.setImage(app.owner.user, id, 'logo', PNG)
    for (const path of ['branding', 'access', 'embed', 'branding/preview.css', 'branding/logo']) {
      const response = await fetch(`${app.base}/user/pages/${id}/${path}`, { headers: { cookie } })
      expect({ path, status: response.status }).toEqual({ path, status: 404 })
    }
    const posts: Array<[string, Record<string, string>]> = [
      ['branding', { primary: '#000000' }],
      ['branding/reset', {}],
      ['branding/logo/delete', {}],
      ['access/visibility', { visibility: 'private' }],
      ['access/password', { password: 'not yours at all' }],
      ['access/password/delete', {}],
      ['access/token', {}],
      ['access/token/delete', {}],
    ]
    for (const [path, fields] of posts) {
      const response = await postForm(app, `/user/pages/${id}/${path}`, fields, { cookie })
      expect({ path, status: response.status }).toEqual({ path, status: 404 })
    }
    const ownerCookie = await app.cookieOf(app.context)
    for (const [path, fields] of posts) {
      for (const origin of [null, 'https://evil.example']) {
        const response = await postForm(app, `/user/pages/${id}/${path}`, fields, { cookie: ownerCookie, origin })
        expect({ path, origin, status: response.status }).toEqual({ path, origin, status: 403 })
      }
    }
    const owner = app.owner.user
    expect((await services().branding.branding(owner, id)).palette.primary).toBe('#1f4fd1')
    expect(await services().pageAccessSettings.accessSettings(owner, id)).toEqual({ visibility: 'public', passwordSet: false, embedTokenSet: false })
    // Names that are no image kind are no page.
    expect((await postForm(app, `/user/pages/${id}/branding/banner/delete`, {}, { cookie: ownerCookie })).status).toBe(404)
    await context.close()
  }, 120_000)
})
