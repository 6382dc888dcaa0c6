/**
 * The components screens in real Chromium, through the browser only (services are read solely to
 * check outcomes): add three components in two groups, reorder them by keyboard (Move up / Move
 * down with Enter), without JavaScript (plain form posts) and by drag, and the public page follows;
 * set a status; rename a group; edit; delete with confirmation; the page list's pictures with their
 * text; axe light+dark and 320/1280 layouts; markup stays text; another owner's ids; the Origin rule.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'

let app: WebApp
const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 6)}`

beforeAll(async () => {
  app = await startWebApp({ now: NOW })
})
afterAll(() => app.close())

const services = () => app.server.ctx.app.services
const listOf = (pageId: number) => services().components.list(app.owner.user, pageId)
const namesOf = async (pageId: number) => (await listOf(pageId)).map((c) => c.name)

async function createPage(name: string): Promise<{ id: number; slug: string }> {
  const page = app.page
  const slug = unique('comp')
  await page.goto(`${app.base}/user`)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Slug', { exact: true }).fill(slug)
  await page.getByRole('button', { name: 'Create page' }).click()
  await page.waitForURL(/\/user\/pages\/\d+$/)
  return { id: Number(/\/user\/pages\/(\d+)$/.exec(page.url())![1]), slug }
}

async function addComponent(page: Page, pageId: number, fields: { name: string; group?: string; type?: string; status?: string }) {
  await page.goto(`${app.base}/user/pages/${pageId}/components`)
  const form = page.getByRole('region', { name: 'Add component' })
  await form.getByLabel('Name', { exact: true }).fill(fields.name)
  if (fields.type) await form.getByLabel('Type', { exact: true }).selectOption(fields.type)
  if (fields.group) await form.getByLabel('Group', { exact: true }).fill(fields.group)
  if (fields.status) await form.getByLabel('Status', { exact: true }).selectOption(fields.status)
  await form.getByRole('button', { name: 'Add component' }).click()
  await page.waitForURL(new RegExp(`/user/pages/${pageId}/components#c-\\d+$`))
  expect(await page.getByRole('status').filter({ hasText: `Component "${fields.name}" added.` }).isVisible()).toBe(true)
}

/** Component names in the order the public status page shows them. */
async function publicOrder(slug: string, names: string[]): Promise<string[]> {
  const body = await (await fetch(app.server.statusHost(slug))).text()
  return names.map((name) => ({ name, at: body.indexOf(`>${name}<`) })).sort((a, b) => a.at - b.at).map((x) => x.name)
}

describe('components in the browser', () => {
  test('add three components in two groups, reorder by keyboard, without JS and by drag; the public page follows', async () => {
    const page = app.page
    const { id, slug } = await createPage('Acme Components')
    await page.getByRole('link', { name: 'Components' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/components`)
    expect(await page.getByText('No components yet.').isVisible()).toBe(true)
    await checkA11y(page)

    await addComponent(page, id, { name: 'Website', group: 'Frontend' })
    await addComponent(page, id, { name: 'API', group: 'Backend', type: 'api' })
    await addComponent(page, id, { name: 'Database', group: 'Backend', status: 'degraded' })
    const all = ['Website', 'API', 'Database']
    expect(await namesOf(id)).toEqual(all)
    expect((await listOf(id)).map((c) => [c.group, c.type, c.status])).toEqual([
      ['Frontend', 'site', 'up'],
      ['Backend', 'api', 'up'],
      ['Backend', 'site', 'degraded'],
    ])
    await page.goto(`${app.base}/user/pages/${id}/components`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'components', ['Components: Acme Components', 'Frontend', 'Backend', 'Database', 'Add component'])
    expect(await publicOrder(slug, all)).toEqual(['Website', 'API', 'Database'])

    // Keyboard: focus "Move up Database" and press Enter; then move the Backend group up.
    await page.getByRole('button', { name: 'Move up Database' }).focus()
    await page.keyboard.press('Enter')
    await page.waitForURL(new RegExp(`#c-\\d+$`))
    await page.getByText('"Database" moved up.').waitFor()
    expect(await namesOf(id)).toEqual(['Website', 'Database', 'API'])
    // Focus lands back on the moved component, so the keyboard user can go on from there.
    expect(await page.evaluate(() => document.activeElement?.querySelector('.comp-name')?.textContent)).toBe('Database')
    await page.getByRole('button', { name: 'Move group up Backend' }).focus()
    await page.keyboard.press('Enter')
    await page.getByText('Group moved up.').waitFor()
    expect(await namesOf(id)).toEqual(['Database', 'API', 'Website'])
    expect(await publicOrder(slug, all)).toEqual(['Database', 'API', 'Website'])
    // The screen lists them in the order the public page shows.
    expect(await page.locator('.comp-name').allTextContents()).toEqual(['Database', 'API', 'Website'])
    // Ends of a block cannot move further.
    expect(await page.getByRole('button', { name: 'Move up Database' }).isDisabled()).toBe(true)

    // Without JavaScript: the same buttons are plain form posts.
    const noJs = await app.browser.newContext({ javaScriptEnabled: false, storageState: await app.context.storageState() })
    const plain = await noJs.newPage()
    await plain.goto(`${app.base}/user/pages/${id}/components`)
    await plain.getByRole('button', { name: 'Move down Database' }).click()
    await plain.getByText('"Database" moved down.').waitFor()
    expect(await namesOf(id)).toEqual(['API', 'Database', 'Website'])
    expect(await plain.locator('.comp[draggable]').count()).toBe(0)
    await noJs.close()
    expect(await publicOrder(slug, all)).toEqual(['API', 'Database', 'Website'])

    // Drag (components.js): Database onto API within Backend.
    await page.goto(`${app.base}/user/pages/${id}/components`)
    await page.locator('.comp', { hasText: 'Database' }).dragTo(page.locator('.comp', { hasText: 'API' }))
    await page.getByText('Order saved.').waitFor()
    expect(await namesOf(id)).toEqual(['Database', 'API', 'Website'])
    expect(await publicOrder(slug, all)).toEqual(['Database', 'API', 'Website'])
  })

  test('set a status with one control, rename a group, edit every field, delete after confirming', async () => {
    const page = app.page
    const { id } = await createPage('Ops')
    await addComponent(page, id, { name: 'Mail', group: 'Edge' })
    await addComponent(page, id, { name: 'CDN', group: 'Edge' })
    const [mail, cdn] = await listOf(id)

    await page.getByLabel('Status of Mail').selectOption('down')
    await page.getByRole('button', { name: 'Set status of Mail' }).click()
    await page.getByText('"Mail" is now down.').waitFor()
    expect((await services().components.get(app.owner.user, mail!.id)).status).toBe('down')
    expect((await services().components.history(app.owner.user, mail!.id, 10)).map((h) => h.status)).toEqual(['down', 'up'])

    // Rename the group: every member moves; an error stays next to the field.
    const rename = page.getByRole('region', { name: 'Rename a group' })
    await rename.getByLabel('Group', { exact: true }).selectOption('Edge')
    await rename.getByLabel('New name').evaluate((el: HTMLInputElement) => el.removeAttribute('maxlength'))
    await rename.getByLabel('New name').fill('x'.repeat(101))
    await rename.getByRole('button', { name: 'Rename group' }).click()
    expect(await page.locator('#f-to-error').textContent()).toBe('New name must be a string of at most 100 characters or null')
    expect(await page.locator('#f-to').inputValue()).toBe('x'.repeat(101))
    expect((await listOf(id)).map((c) => c.group)).toEqual(['Edge', 'Edge'])
    await rename.getByLabel('New name').fill('Network')
    await rename.getByRole('button', { name: 'Rename group' }).click()
    await page.getByText('Group "Edge" is now "Network".').waitFor()
    expect((await listOf(id)).map((c) => c.group)).toEqual(['Network', 'Network'])

    // Edit: name, type, group (empty = none), status.
    await page.getByRole('link', { name: 'Edit CDN' }).click()
    await page.waitForURL(`${app.base}/user/pages/${id}/components/${cdn!.id}`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'component-edit', ['Edit CDN', 'Save component'])
    await page.getByLabel('Name', { exact: true }).fill('')
    await page.getByRole('button', { name: 'Save component' }).click()
    expect(await page.locator('#f-name-error').textContent()).toBe('Name must not be empty')
    await page.getByLabel('Name', { exact: true }).fill('Content delivery')
    await page.getByLabel('Type', { exact: true }).selectOption('dns')
    await page.getByLabel('Group', { exact: true }).fill('')
    await page.getByLabel('Status', { exact: true }).selectOption('degraded')
    await page.getByRole('button', { name: 'Save component' }).click()
    await page.getByText('Component "Content delivery" saved.').waitFor()
    expect(await services().components.get(app.owner.user, cdn!.id)).toMatchObject({ name: 'Content delivery', type: 'dns', group: null, status: 'degraded' })

    await page.getByRole('link', { name: 'Delete Content delivery' }).click()
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'component-delete', ['Delete Content delivery?'])
    await page.getByRole('link', { name: 'Cancel' }).click()
    expect(await namesOf(id)).toEqual(['Mail', 'Content delivery'])
    await page.getByRole('link', { name: 'Delete Content delivery' }).click()
    await page.getByRole('button', { name: 'Delete component' }).click()
    await page.getByText('Component "Content delivery" deleted.').waitFor()
    expect(await namesOf(id)).toEqual(['Mail'])
  })

  test('the page list shows each page\'s components with 90-day bars and their figure as text, and the open incident', async () => {
    const page = app.page
    const { id } = await createPage('Pictured')
    await addComponent(page, id, { name: 'Gateway' })
    const [gateway] = await listOf(id)
    // Ten minutes down after twenty up, today: the figure is exact and shown as text.
    app.server.ctx.clock.advance(20 * 60_000)
    await services().components.update(app.owner.user, gateway!.id, { status: 'down' })
    app.server.ctx.clock.advance(10 * 60_000)
    await services().incidents.create(app.owner.user, { title: 'Gateway outage', status_page_id: id, message: 'Looking into it.' })
    await page.goto(`${app.base}/user`)
    const card = page.locator('.glance-page', { hasText: 'Pictured' })
    expect(await card.getByText('Open incident: Gateway outage').isVisible()).toBe(true)
    expect(await card.getByText('66.66 % over 90 days').isVisible()).toBe(true)
    const bars = card.getByRole('img', { name: 'Daily uptime of Gateway, oldest first: 66.66 % over 90 days' })
    expect(await bars.count()).toBe(1)
    // One bar per day, today's red (10 of 30 minutes down), the days before without data.
    const barsOf = async (level: string) =>
      (await bars.locator(`path.${level}`).count()) === 0 ? 0 : (((await bars.locator(`path.${level}`).getAttribute('d')) ?? '').match(/h2v10h-2z/g)?.length ?? 0)
    expect([await barsOf('major'), await barsOf('none'), await barsOf('ok'), await barsOf('minor')]).toEqual([1, 89, 0, 0])
    expect(await bars.locator('path.major').evaluate((el: SVGPathElement) => el.getBBox().x)).toBe(89 * 3)
    expect(await card.getByText('Gateway: Down').isVisible()).toBe(true)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'pages-list-pictures', ['At a glance', 'Open incident: Gateway outage', '66.66 % over 90 days'])
  })

  test('markup typed in the fields stays text on every screen and on the public page', async () => {
    const page = app.page
    const { id, slug } = await createPage('Markup')
    await addComponent(page, id, { name: MARKUP, group: MARKUP })
    const [component] = await listOf(id)
    for (const path of ['/user', `/user/pages/${id}/components`, `/user/pages/${id}/components/${component!.id}`, `/user/pages/${id}/components/${component!.id}/delete`]) {
      await page.goto(`${app.base}${path}`)
      expect(await page.locator('main').innerText()).toContain('<b>bold</b>')
      expect(await page.locator('main b, main img').count()).toBe(0)
    }
    await page.goto(`${app.base}/user/pages/${id}/components/${component!.id}`)
    expect(await page.locator('#f-name').inputValue()).toBe(MARKUP)
    expect(await page.locator('#f-group').inputValue()).toBe(MARKUP)
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()
    await page.goto(app.server.statusHost(slug))
    expect(await page.locator('body').innerText()).toContain('<b>bold</b>')
    expect(await page.locator('body b, body img[src="x"]').count()).toBe(0)
  })

  test("another owner's page or component is 404 on every screen and form, and nothing changes", async () => {
    const other = await app.createOwner()
    const theirs = await app.server.ctx.createPage(other.key, { name: 'Theirs', slug: unique('theirs') })
    const theirComponent = await services().components.create(other.user, theirs.id, { name: 'Their API', group: 'G' })
    const mine = await createPage('Mine')
    await addComponent(app.page, mine.id, { name: 'My API', group: 'G' })
    const [myComponent] = await listOf(mine.id)
    const page = app.page
    const paths = [
      `/user/pages/${theirs.id}/components`,
      `/user/pages/${theirs.id}/components/${theirComponent.id}`,
      `/user/pages/${theirs.id}/components/${theirComponent.id}/delete`,
      // Their component under my page, and mine under theirs.
      `/user/pages/${mine.id}/components/${theirComponent.id}`,
      `/user/pages/${theirs.id}/components/${myComponent!.id}`,
      `/user/pages/${mine.id}/components/abc`,
    ]
    for (const path of paths) {
      const response = await page.goto(`${app.base}${path}`)
      expect({ path, status: response?.status() }).toEqual({ path, status: 404 })
    }
    const cookie = await app.cookieOf(app.context)
    const posts: Array<[string, Record<string, string>]> = [
      [`/user/pages/${theirs.id}/components`, { name: 'Injected' }],
      [`/user/pages/${mine.id}/components/${theirComponent.id}`, { name: 'Hijacked', type: 'site', group: '', status: 'up' }],
      [`/user/pages/${mine.id}/components/${theirComponent.id}/status`, { status: 'down' }],
      [`/user/pages/${mine.id}/components/${theirComponent.id}/move`, { direction: 'up' }],
      [`/user/pages/${mine.id}/components/${theirComponent.id}/delete`, {}],
      [`/user/pages/${theirs.id}/components/order`, { ids: String(theirComponent.id) }],
      [`/user/pages/${theirs.id}/components/groups/rename`, { from: 'G', to: 'Hijacked' }],
      [`/user/pages/${theirs.id}/components/groups/move`, { member: String(theirComponent.id), direction: 'down' }],
      [`/user/pages/${mine.id}/components/groups/move`, { member: String(theirComponent.id), direction: 'down' }],
    ]
    for (const [path, fields] of posts) {
      const response = await postForm(app, path, fields, { cookie })
      expect({ path, status: response.status }).toEqual({ path, status: 404 })
    }
    // My page's order with their component in it is refused too (400, as the API says).
    const mixed = await postForm(app, `/user/pages/${mine.id}/components/order`, { ids: `${myComponent!.id},${theirComponent.id}` }, { cookie })
    expect(mixed.status).toBe(400)
    expect(await services().components.list(other.user, theirs.id)).toEqual([theirComponent])
  })

  test("a POST without this site's Origin is refused with 403 and changes nothing", async () => {
    const { id } = await createPage('Origin')
    await addComponent(app.page, id, { name: 'One', group: 'G' })
    await addComponent(app.page, id, { name: 'Two', group: 'G' })
    const before = await listOf(id)
    const [one, two] = before
    const cookie = await app.cookieOf(app.context)
    for (const origin of [null, 'https://evil.example']) {
      const statuses = []
      for (const [path, fields] of [
        [`/user/pages/${id}/components`, { name: 'Forged' }],
        [`/user/pages/${id}/components/${one!.id}`, { name: 'Forged', type: 'site', group: '', status: 'up' }],
        [`/user/pages/${id}/components/${one!.id}/status`, { status: 'down' }],
        [`/user/pages/${id}/components/${two!.id}/move`, { direction: 'up' }],
        [`/user/pages/${id}/components/order`, { ids: `${two!.id},${one!.id}` }],
        [`/user/pages/${id}/components/groups/rename`, { from: 'G', to: 'Forged' }],
        [`/user/pages/${id}/components/${one!.id}/delete`, {}],
      ] as const) {
        statuses.push((await postForm(app, path, fields, { cookie, origin })).status)
      }
      expect({ origin, statuses }).toEqual({ origin, statuses: [403, 403, 403, 403, 403, 403, 403] })
    }
    expect(await listOf(id)).toEqual(before)
    const ok = await postForm(app, `/user/pages/${id}/components/${two!.id}/move`, { direction: 'up' }, { cookie })
    expect(ok.status).toBe(303)
    expect(await namesOf(id)).toEqual(['Two', 'One'])
  })

  test('bad form input is a clear 400 and changes nothing', async () => {
    const { id } = await createPage('Bad input')
    await addComponent(app.page, id, { name: 'One' })
    await addComponent(app.page, id, { name: 'Two' })
    const before = await listOf(id)
    const [one, two] = before
    const cookie = await app.cookieOf(app.context)
    const cases: Array<[string, Record<string, string>, string]> = [
      [`/user/pages/${id}/components/${one!.id}/move`, { direction: 'sideways' }, 'direction must be up or down'],
      [`/user/pages/${id}/components/${one!.id}/status`, { status: 'sideways' }, 'status must be one of up, degraded, partial, down'],
      [`/user/pages/${id}/components/${one!.id}/status`, {}, 'status is required'],
      [`/user/pages/${id}/components/order`, { ids: 'abc' }, 'ids must contain positive integer ids'],
      [`/user/pages/${id}/components/order`, { ids: `${one!.id},${one!.id},${two!.id}` }, `ids lists component ${one!.id} twice`],
      [`/user/pages/${id}/components/order`, { ids: String(one!.id) }, `ids must list every component of this page (component ${two!.id} is missing)`],
      [`/user/pages/${id}/components/groups/move`, { member: '-1', direction: 'up' }, 'member must be a component id'],
      [`/user/pages/${id}/components`, { name: 'x', type: 'ftp' }, 'Type must be one of site, api, dns'],
    ]
    for (const [path, fields, message] of cases) {
      const response = await postForm(app, path, fields, { cookie })
      const body = await response.text()
      expect({ path, fields, status: response.status, shown: body.includes(message.replaceAll('"', '&quot;')) }).toEqual({ path, fields, status: 400, shown: true })
    }
    expect(await listOf(id)).toEqual(before)
  })
})
