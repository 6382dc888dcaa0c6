/**
 * The incident and template screens in real Chromium, through the browser only (the API and the
 * services are used to seed components and to check what was stored): the outage path counted
 * (page loads and keystrokes from the page overview), two updates and Resolve seen on the public
 * page, templates CRUD and "use", markup stays text, another owner's ids, the Origin rule, axe and layouts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SubscriberFanoutExpander } from '../../src/modules/subscribers/expansion.ts'
import type { Page } from 'playwright-core'
import { json } from '../helpers/context.ts'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp, focusedId } from '../helpers/webapp.ts'
import { RESOLVE_MESSAGE } from '../../src/web/views/incidents.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'

let app: WebApp
let pageId: number
let slug: string
let apiComponent: number
let webComponent: number
const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 6)}`

const services = () => app.server.ctx.app.services
const user = () => app.owner.user

async function addComponent(key: string, page: number, name: string): Promise<number> {
  const response = await app.server.ctx.request(`/user/api/v1/status-pages/${page}/components`, { method: 'POST', key, json: { name } })
  return (await json(response)).data.id as number
}

/** The public status page's text (a fresh context: nothing of the owner's session). */
async function publicText(): Promise<string> {
  const context = await app.browser.newContext()
  const page = await context.newPage()
  await page.goto(app.server.statusHost(slug))
  const text = await page.locator('body').innerText()
  await context.close()
  return text
}

async function createTemplate(page: Page, name: string, title: string, message: string) {
  await page.goto(`${app.base}/user/templates`)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Incident title').fill(title)
  await page.getByLabel('First message').fill(message)
  await page.getByRole('button', { name: 'Create template' }).click()
  await page.waitForURL(`${app.base}/user/templates`)
}

beforeAll(async () => {
  app = await startWebApp({ now: NOW })
  slug = unique('inc')
  pageId = (await app.server.ctx.createPage(app.owner.key, { name: 'Acme Cloud', slug })).id
  apiComponent = await addComponent(app.owner.key, pageId, 'API')
  webComponent = await addComponent(app.owner.key, pageId, 'Website')
  // The template the outage tests pick (the templates test makes its own through the screens).
  await services().incidents.createTemplate(user(), { name: 'Outage', title: '{{component}} outage', message: 'We are investigating problems with {{component}}.' })
})
afterAll(() => app.close())

describe('templates in the browser', () => {
  test('create, edit, use and delete a template; a11y and layouts', async () => {
    const page = app.page
    await page.goto(`${app.base}/user`)
    await page.getByRole('link', { name: 'Templates' }).click()
    await page.waitForURL(`${app.base}/user/templates`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'templates-list', ['Incident templates', 'New template'])

    await createTemplate(page, 'Slow API', '{{component}} is slow', 'We are looking into {{component}} on {{page}}.')
    expect(await page.getByRole('status').filter({ hasText: 'Template "Slow API" created.' }).isVisible()).toBe(true)
    const [stored] = (await services().incidents.listTemplates(user())).filter((t) => t.name === 'Slow API')
    expect(stored!.title).toBe('{{component}} is slow')

    await page.getByRole('link', { name: 'Slow API' }).click()
    await page.waitForURL(`${app.base}/user/templates/${stored!.id}`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'template-edit', ['Template: Slow API', 'Use on Acme Cloud'])
    await page.getByLabel('Incident title').fill('{{component}} is slow again')
    await page.getByRole('button', { name: 'Save template' }).click()
    await page.waitForURL(`${app.base}/user/templates`)
    expect((await services().incidents.getTemplate(user(), stored!.id)).title).toBe('{{component}} is slow again')

    // An emptied title is refused with the API's text, next to the field.
    await page.goto(`${app.base}/user/templates/${stored!.id}`)
    await page.getByLabel('Incident title').fill('')
    await page.getByRole('button', { name: 'Save template' }).click()
    const api = await app.server.ctx.request(`/user/api/v1/incident-templates/${stored!.id}`, { method: 'PATCH', key: app.owner.key, json: { title: '' } })
    expect(api.status).toBe(400)
    expect(((await api.json()) as { error: string }).error).toBe('title must not be empty')
    expect(await page.locator('#f-title-error').textContent()).toBe('Incident title must not be empty')

    // "Use" opens the page's incident form filled from the template.
    await page.getByRole('link', { name: 'Use on Acme Cloud' }).click()
    await page.waitForURL(new RegExp(`/user/pages/${pageId}/incidents\\?template=${stored!.id}`))
    expect(await page.locator('#report #f-title').inputValue()).toBe('{{component}} is slow again')
    expect(await page.locator('#report #f-template_id').inputValue()).toBe(String(stored!.id))

    await page.goto(`${app.base}/user/templates/${stored!.id}`)
    await page.getByRole('link', { name: 'Delete template…' }).click()
    await checkA11y(page)
    await page.getByRole('button', { name: 'Delete template' }).click()
    await page.waitForURL(`${app.base}/user/templates`)
    expect(await page.getByText('Template "Slow API" deleted.').isVisible()).toBe(true)
    expect((await services().incidents.listTemplates(user())).some((t) => t.id === stored!.id)).toBe(false)
  })
})

describe('incidents in the browser', () => {
  test('the outage path: from the overview, a template and Enter open the incident (one submit, a few keys)', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/pages/${pageId}`)
    let loads = 0
    let keys = 0
    const counter = (frame: { parentFrame(): unknown }) => {
      if (frame.parentFrame() === null) loads++
    }
    page.on('framenavigated', counter)
    const press = async (key: string) => {
      keys++
      await page.keyboard.press(key)
    }
    // The focus starts on the template picker (the first field of "Report an incident").
    expect(await focusedId(page, 'f-template_id')).toBe('f-template_id')
    await press('ArrowDown') // the template
    expect(await page.locator('#f-title').inputValue()).toBe('{{component}} outage')
    await press('Tab') // the title
    await press('Enter') // submit
    await page.waitForURL(/\/user\/incidents\/\d+$/)
    page.off('framenavigated', counter)
    expect({ loads, keys }).toEqual({ loads: 1, keys: 3 })
    expect(await page.locator('h1').textContent()).toBe('all systems outage')
    expect(await page.getByRole('status').filter({ hasText: 'Incident "all systems outage" opened.' }).isVisible()).toBe(true)
    const incidentId = Number(/\/user\/incidents\/(\d+)$/.exec(page.url())![1])
    const stored = await services().incidents.get(user(), incidentId)
    expect({ state: stored.state, message: stored.updates[0]!.message }).toEqual({
      state: 'investigating',
      message: 'We are investigating problems with all systems.',
    })
    await services().incidents.delete(user(), incidentId)
  })

  test('open from a template with components, post two updates, resolve; the public page shows each step', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/pages/${pageId}`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'page-overview-incidents', ['Report an incident', 'Maintenance'])
    await page.getByLabel('Template').selectOption({ label: 'Outage' })
    await page.getByRole('checkbox', { name: 'API' }).check()
    await page.getByLabel('Status of API').selectOption('down')
    await page.getByRole('button', { name: 'Open incident' }).click()
    await page.waitForURL(/\/user\/incidents\/\d+$/)
    const incidentId = Number(/\/user\/incidents\/(\d+)$/.exec(page.url())![1])
    expect(await page.locator('h1').textContent()).toBe('API outage')
    expect((await services().components.get(user(), apiComponent)).status).toBe('down')
    expect((await services().components.get(user(), webComponent)).status).toBe('up')
    let shown = await publicText()
    expect(shown).toContain('API outage')
    expect(shown).toContain('We are investigating problems with API.')
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'incident', ['API outage', 'Post an update', 'Timeline'])

    // The update form comes first: its first field is the message.
    const firstField = await page.locator('main form textarea, main form input, main form select').first().getAttribute('name')
    expect(firstField).toBe('message')
    await page.getByLabel('Message', { exact: true }).fill('The cause is a bad deploy.')
    await page.getByLabel('State').selectOption('identified')
    await page.getByRole('button', { name: 'Post update' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}`)
    expect(await page.getByText('Update posted.').isVisible()).toBe(true)
    shown = await publicText()
    expect(shown).toContain('The cause is a bad deploy.')
    expect(shown).toContain('Identified')

    await page.getByLabel('Message', { exact: true }).fill('A fix is out; watching.')
    await page.getByLabel('State').selectOption('monitoring')
    await page.getByLabel('Status of API').selectOption('degraded')
    await page.getByRole('button', { name: 'Post update' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}`)
    expect((await services().components.get(user(), apiComponent)).status).toBe('degraded')
    shown = await publicText()
    expect(shown).toContain('A fix is out; watching.')
    expect(shown).toContain('Monitoring')

    // A status alone changes the component and adds no timeline entry; nothing at all is the API's 400.
    await page.getByRole('button', { name: 'Post update' }).click()
    expect(await page.locator('#f-message-error').textContent()).toBe('Message or incident state id is required')
    await page.getByLabel('Status of API').selectOption('down')
    await page.getByRole('button', { name: 'Post update' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}`)
    expect(await page.getByText('Component statuses saved.').isVisible()).toBe(true)
    expect((await services().components.get(user(), apiComponent)).status).toBe('down')
    expect((await services().incidents.get(user(), incidentId)).updates).toHaveLength(3)

    await page.getByRole('button', { name: 'Resolve' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}`)
    expect(await page.getByText('Incident "API outage" resolved.').isVisible()).toBe(true)
    const stored = await services().incidents.get(user(), incidentId)
    expect(stored.updates.map((u) => u.state)).toEqual(['investigating', 'identified', 'monitoring', 'resolved'])
    expect((await services().components.get(user(), apiComponent)).status).toBe('up')
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0)
    shown = await publicText()
    expect(shown).toContain('Resolved ·')
    expect(shown).not.toContain('Active incidents')

    // Edit: title and affected components (the API's PATCH fields).
    await page.getByRole('textbox', { name: 'Title' }).fill('API outage (deploy)')
    await page.locator('#edit-heading ~ form').getByRole('checkbox', { name: 'Website' }).check()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}`)
    const edited = await services().incidents.get(user(), incidentId)
    expect({ title: edited.title, components: edited.components.map((c) => c.name) }).toEqual({ title: 'API outage (deploy)', components: ['API', 'Website'] })

    // The incidents section lists it as recently resolved; delete asks first.
    await page.goto(`${app.base}/user/pages/${pageId}/incidents`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'incidents', ['Incidents: Acme Cloud', 'Recently resolved', 'API outage (deploy)'])
    await page.goto(`${app.base}/user/incidents/${incidentId}/delete`)
    await checkA11y(page)
    await page.getByRole('button', { name: 'Delete incident' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/incidents`)
    expect(await page.getByText('Incident "API outage (deploy)" deleted.').isVisible()).toBe(true)
    expect(await publicText()).not.toContain('API outage')
  })

  test('a status set beside an unticked component makes it affected: the incident and the public page name it', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/pages/${pageId}/incidents`)
    const form = page.locator('form.report-form')
    await form.getByLabel('Title', { exact: true }).fill('Website slow')
    await form.getByLabel('Status of Website').selectOption('degraded')
    expect(await form.getByRole('checkbox', { name: 'Website' }).isChecked()).toBe(false)
    await form.getByRole('button', { name: 'Open incident' }).click()
    await page.waitForURL(/\/user\/incidents\/\d+$/)
    const incidentId = Number(/\/user\/incidents\/(\d+)$/.exec(page.url())![1])
    const incident = await services().incidents.get(user(), incidentId)
    expect(incident.components.map((c) => c.id)).toEqual([webComponent])
    expect((await services().components.get(user(), webComponent)).status).toBe('degraded')
    expect(await page.locator('main').innerText()).toContain('on Acme Cloud · Website')
    const shown = await publicText()
    expect(shown).toContain('Affects: Website.')
    expect(shown).not.toContain('Affects: All components')
    // Resolved again: the later tests start from operational components.
    await page.getByRole('button', { name: 'Resolve' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}`)
    expect((await services().components.get(user(), webComponent)).status).toBe('up')
  })

  test('"Notify subscribers" ticked tells the page\'s subscribers (an outbox row each); left unticked, none', async () => {
    const notifyPage = (await app.server.ctx.createPage(app.owner.key, { name: 'Notify Co', slug: unique('notify') })).id
    const subscriber = await services().subscribers.add(user(), notifyPage, { kind: 'webhook', url: 'https://hooks.example.com/status', consent: true })
    // What the outbox worker does first: a pending fan-out becomes one row per subscriber.
    const expander = new SubscriberFanoutExpander(app.server.ctx.database.db, services().subscribers, services().outbox)
    const rows = async () => {
      await expander.expand()
      return (await app.server.ctx.database.db.selectFrom('outbox').select('id').where('target', '=', `subscriber:${subscriber.id}`).execute()).length
    }
    const page = app.page
    const open = async (title: string, notify: boolean) => {
      await page.goto(`${app.base}/user/pages/${notifyPage}/incidents`)
      const form = page.locator('#report')
      await form.getByLabel('Title').fill(title)
      const box = form.getByRole('checkbox', { name: 'Notify subscribers' })
      expect(await box.isChecked()).toBe(false)
      if (notify) await box.check()
      await form.getByRole('button', { name: 'Open incident' }).click()
      await page.waitForURL(/\/user\/incidents\/\d+$/)
    }
    await open('Quiet trouble', false)
    expect(await rows()).toBe(0)
    // The update form's box: unticked sends nothing either.
    await page.getByLabel('Message', { exact: true }).fill('Still quiet.')
    await page.getByRole('button', { name: 'Post update' }).click()
    await page.waitForURL(/\/user\/incidents\/\d+$/)
    expect(await rows()).toBe(0)

    await open('Loud trouble', true)
    expect(await rows()).toBe(1)
    await page.getByLabel('Message', { exact: true }).fill('Fix under way.')
    await page.getByRole('checkbox', { name: 'Notify subscribers' }).first().check()
    await page.getByRole('button', { name: 'Post update' }).click()
    await page.waitForURL(/\/user\/incidents\/\d+$/)
    expect(await rows()).toBe(2)
    // Resolve has its own box.
    await page.locator('form.resolve').getByRole('checkbox', { name: 'Notify subscribers' }).check()
    await page.getByRole('button', { name: 'Resolve' }).click()
    await page.waitForURL(/\/user\/incidents\/\d+$/)
    expect(await rows()).toBe(3)
    await checkA11y(page)
  })

  test('Resolve posts a closing message: the default text as shown, the owner\'s own words, a refusal beside the field', async () => {
    const page = app.page
    const resolvePage = (await app.server.ctx.createPage(app.owner.key, { name: 'Resolve Co', slug: unique('resolve') })).id
    const subscriber = await services().subscribers.add(user(), resolvePage, { kind: 'webhook', url: 'https://hooks.example.com/resolve', consent: true })
    const open = async (title: string) => (await services().incidents.create(user(), { status_page_id: resolvePage, title, message: 'Looking.' })).id
    const resolveForm = page.locator('form.resolve')

    // Left as it is: the default text, shown in the box before the click.
    const first = await open('Slow pages')
    await page.goto(`${app.base}/user/incidents/${first}`)
    const box = resolveForm.getByLabel('Closing message')
    expect(await box.inputValue()).toBe(RESOLVE_MESSAGE)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'incident-resolve', ['Post an update', 'Closing message'])
    await resolveForm.getByRole('button', { name: 'Resolve' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${first}`)
    expect((await services().incidents.get(user(), first)).updates.at(-1)).toMatchObject({ state: 'resolved', message: RESOLVE_MESSAGE })

    // The owner's words, told to subscribers.
    const second = await open('Login errors')
    await page.goto(`${app.base}/user/incidents/${second}`)
    await box.fill('The <b>database</b> failover is complete.')
    await resolveForm.getByRole('checkbox', { name: 'Notify subscribers' }).check()
    await resolveForm.getByRole('button', { name: 'Resolve' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${second}`)
    expect((await services().incidents.get(user(), second)).updates.at(-1)).toMatchObject({ state: 'resolved', message: 'The <b>database</b> failover is complete.' })
    expect(await page.getByText('The <b>database</b> failover is complete.').isVisible()).toBe(true)
    await new SubscriberFanoutExpander(app.server.ctx.database.db, services().subscribers, services().outbox).expand()
    const sent = await app.server.ctx.database.db.selectFrom('outbox').select('payload_json').where('target', '=', `subscriber:${subscriber.id}`).execute()
    expect(sent).toHaveLength(1)
    const hook = JSON.parse(JSON.parse(sent[0]!.payload_json).request.body)
    expect(hook.incident.incident_updates[0]).toMatchObject({ status: 'resolved', body: 'The <b>database</b> failover is complete.' })

    // Too long: nothing changes, the error stands next to the box that keeps what was typed.
    const third = await open('Flaky DNS')
    await page.goto(`${app.base}/user/incidents/${third}`)
    const long = 'x'.repeat(10_001)
    await box.fill(long)
    await resolveForm.getByRole('button', { name: 'Resolve' }).click()
    await page.waitForSelector('#resolve-message-error')
    expect(await page.locator('#resolve-message-error').textContent()).toContain('message')
    expect(await box.inputValue()).toBe(long)
    expect((await services().incidents.get(user(), third)).state).toBe('investigating')
    await checkA11y(page)
  })

  test('without JavaScript the report form still works: a template with the title left empty gives its wording', async () => {
    const context = await app.browser.newContext({ javaScriptEnabled: false })
    await context.addCookies([{ name: 'lantern_session', value: (await app.cookieOf(app.context)).split('=')[1]!, url: app.base }])
    const page = await context.newPage()
    await page.goto(`${app.base}/user/pages/${pageId}`)
    await page.getByLabel('Template').selectOption({ label: 'Outage' })
    expect(await page.locator('#f-title').inputValue()).toBe('')
    await page.getByRole('checkbox', { name: 'Website' }).check()
    await page.getByRole('button', { name: 'Open incident' }).click()
    await page.waitForURL(/\/user\/incidents\/\d+$/)
    expect(await page.locator('h1').textContent()).toBe('Website outage')
    const incidentId = Number(/\/user\/incidents\/(\d+)$/.exec(page.url())![1])
    await page.getByRole('button', { name: 'Resolve' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}`)
    expect((await services().incidents.get(user(), incidentId)).state).toBe('resolved')
    await context.close()
    await services().incidents.delete(user(), incidentId)
  })

  test('a blank incident with every field: errors next to the field with the API texts; started_at in the chosen zone', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/pages/${pageId}/incidents`)
    const report = page.locator('#report')
    await report.getByRole('button', { name: 'Open incident' }).click()
    const api = await app.server.ctx.request('/user/api/v1/incidents', { method: 'POST', key: app.owner.key, json: { status_page_id: pageId, title: '' } })
    expect(api.status).toBe(400)
    expect(((await api.json()) as { error: string }).error).toBe('title must not be empty')
    expect(await page.locator('#f-title-error').textContent()).toBe('Title must not be empty')
    expect(await focusedId(page, 'f-title')).toBe('f-title')

    await report.getByLabel('Title').fill('Login errors')
    await report.getByLabel('State').selectOption('identified')
    await report.getByLabel('Message', { exact: true }).fill('Some logins fail.')
    await report.getByRole('checkbox', { name: 'Website' }).check()
    await report.getByLabel('Started at').fill('2026-11-23T12:30')
    await report.getByLabel('Time zone').selectOption('Europe/Berlin')
    await report.getByRole('button', { name: 'Open incident' }).click()
    await page.waitForURL(/\/user\/incidents\/\d+$/)
    const incidentId = Number(/\/user\/incidents\/(\d+)$/.exec(page.url())![1])
    const stored = await services().incidents.get(user(), incidentId)
    expect({
      title: stored.title,
      state: stored.state,
      startedAt: new Date(stored.startedAt).toISOString(),
      components: stored.components.map((c) => c.name),
      message: stored.updates[0]!.message,
    }).toEqual({ title: 'Login errors', state: 'identified', startedAt: '2026-11-23T11:30:00.000Z', components: ['Website'], message: 'Some logins fail.' })
    // The zone is remembered: times on the incident screen read in it.
    expect(await page.getByText('times in Europe/Berlin').isVisible()).toBe(true)
    await services().incidents.delete(user(), incidentId)
  })

  test('markup typed in every field stays text, in the app and on the public page', async () => {
    const page = app.page
    await createTemplate(page, MARKUP, `${MARKUP} {{component}}`, MARKUP)
    expect(await page.locator('main b, main img').count()).toBe(0)
    await page.goto(`${app.base}/user/pages/${pageId}/incidents`)
    const report = page.locator('#report')
    await report.getByLabel('Title').fill(MARKUP)
    await report.getByLabel('Message', { exact: true }).fill(MARKUP)
    await report.getByRole('button', { name: 'Open incident' }).click()
    await page.waitForURL(/\/user\/incidents\/\d+$/)
    const incidentId = Number(/\/user\/incidents\/(\d+)$/.exec(page.url())![1])
    await page.getByLabel('Message', { exact: true }).fill(MARKUP)
    await page.getByRole('button', { name: 'Post update' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}`)
    for (const path of [`/user/incidents/${incidentId}`, `/user/pages/${pageId}/incidents`, `/user/pages/${pageId}`, '/user/templates', `/user/incidents/${incidentId}/delete`]) {
      await page.goto(`${app.base}${path}`)
      expect({ path, text: (await page.locator('main').innerText()).includes('<b>bold</b>') }).toEqual({ path, text: true })
      expect({ path, tags: await page.locator('main b, main img').count() }).toEqual({ path, tags: 0 })
    }
    // A form coming back with an error keeps the markup as the field's value.
    await page.goto(`${app.base}/user/incidents/${incidentId}`)
    await page.getByRole('textbox', { name: 'Title' }).fill('')
    await page.getByRole('button', { name: 'Save changes' }).click()
    expect(await page.locator('#f-title-error').isVisible()).toBe(true)
    expect(await page.locator('#f-message').inputValue()).toBe('')
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()
    const shown = await publicText()
    expect(shown).toContain('<b>bold</b>')
    await services().incidents.delete(user(), incidentId)
  })

  test("another owner's ids are 404 on every screen and form, and nothing changes", async () => {
    const other = await app.createOwner()
    const theirPage = await app.server.ctx.createPage(other.key, { name: 'Theirs', slug: unique('theirs') })
    const theirComponent = await addComponent(other.key, theirPage.id, 'Their API')
    const theirIncident = (await json(await app.server.ctx.request('/user/api/v1/incidents', { method: 'POST', key: other.key, json: { status_page_id: theirPage.id, title: 'Theirs' } }))).data
    const theirTemplate = (await json(await app.server.ctx.request('/user/api/v1/incident-templates', { method: 'POST', key: other.key, json: { name: 'T', title: 'Their template' } }))).data
    const page = app.page
    for (const path of [
      `/user/pages/${theirPage.id}/incidents`,
      `/user/incidents/${theirIncident.id}`,
      `/user/incidents/${theirIncident.id}/delete`,
      `/user/templates/${theirTemplate.id}`,
      `/user/templates/${theirTemplate.id}/delete`,
      `/user/pages/${pageId}/incidents?template=${theirTemplate.id}`,
      '/user/incidents/abc',
    ]) {
      const response = await page.goto(`${app.base}${path}`)
      expect({ path, status: response?.status() }).toEqual({ path, status: 404 })
    }
    const cookie = await app.cookieOf(app.context)
    const before = (await services().incidents.list(user(), { pageId })).length
    const statuses = [
      (await postForm(app, `/user/pages/${theirPage.id}/incidents`, { title: 'Hijack' }, { cookie })).status,
      (await postForm(app, `/user/pages/${pageId}/incidents`, { title: 'x', template_id: String(theirTemplate.id) }, { cookie })).status,
      (await postForm(app, `/user/incidents/${theirIncident.id}/updates`, { message: 'Hijack' }, { cookie })).status,
      (await postForm(app, `/user/incidents/${theirIncident.id}/resolve`, {}, { cookie })).status,
      (await postForm(app, `/user/incidents/${theirIncident.id}/edit`, { title: 'Hijack' }, { cookie })).status,
      (await postForm(app, `/user/incidents/${theirIncident.id}/delete`, {}, { cookie })).status,
      (await postForm(app, `/user/templates/${theirTemplate.id}`, { name: 'Hijack', title: 'Hijack' }, { cookie })).status,
      (await postForm(app, `/user/templates/${theirTemplate.id}/delete`, {}, { cookie })).status,
    ]
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 404, 404])
    // Another owner's component among the affected ones: the API's answer (it is not on this page), as text on the form.
    const viaApi = await app.server.ctx.request('/user/api/v1/incidents', { method: 'POST', key: app.owner.key, json: { status_page_id: pageId, title: 'x', component_ids: [theirComponent] } })
    const viaForm = await postForm(app, `/user/pages/${pageId}/incidents`, { title: 'x', component_ids: String(theirComponent) }, { cookie })
    expect(viaForm.status).toBe(viaApi.status)
    expect(await viaForm.text()).toContain(((await viaApi.json()) as { error: string }).error)
    const after = await services().incidents.get(other.user, theirIncident.id)
    expect({ title: after.title, updates: after.updates.length, state: after.state }).toEqual({ title: 'Theirs', updates: 1, state: 'investigating' })
    expect((await services().incidents.getTemplate(other.user, theirTemplate.id)).name).toBe('T')
    expect((await services().incidents.list(user(), { pageId })).length).toBe(before)
  })

  test("a POST without this site's Origin is refused with 403 and changes nothing", async () => {
    const cookie = await app.cookieOf(app.context)
    const incident = await services().incidents.create(user(), { status_page_id: pageId, title: 'Origin check' })
    const template = await services().incidents.createTemplate(user(), { name: 'Origin', title: 'Origin' })
    const before = (await services().incidents.list(user(), { pageId })).length
    for (const origin of [null, 'https://evil.example']) {
      const statuses = [
        (await postForm(app, `/user/pages/${pageId}/incidents`, { title: 'Forged' }, { cookie, origin })).status,
        (await postForm(app, `/user/incidents/${incident.id}/updates`, { message: 'Forged' }, { cookie, origin })).status,
        (await postForm(app, `/user/incidents/${incident.id}/resolve`, {}, { cookie, origin })).status,
        (await postForm(app, `/user/incidents/${incident.id}/edit`, { title: 'Forged' }, { cookie, origin })).status,
        (await postForm(app, `/user/incidents/${incident.id}/delete`, {}, { cookie, origin })).status,
        (await postForm(app, '/user/templates', { name: 'Forged', title: 'Forged' }, { cookie, origin })).status,
        (await postForm(app, `/user/templates/${template.id}`, { name: 'Forged', title: 'Forged' }, { cookie, origin })).status,
        (await postForm(app, `/user/templates/${template.id}/delete`, {}, { cookie, origin })).status,
      ]
      expect({ origin, statuses }).toEqual({ origin, statuses: [403, 403, 403, 403, 403, 403, 403, 403] })
    }
    const after = await services().incidents.get(user(), incident.id)
    expect({ title: after.title, state: after.state, updates: after.updates.length }).toEqual({ title: 'Origin check', state: 'investigating', updates: 1 })
    expect((await services().incidents.list(user(), { pageId })).length).toBe(before)
    expect((await services().incidents.getTemplate(user(), template.id)).name).toBe('Origin')
    // The same post with this site's Origin goes through.
    expect((await postForm(app, `/user/incidents/${incident.id}/resolve`, {}, { cookie })).status).toBe(303)
    await services().incidents.delete(user(), incident.id)
  })
})
