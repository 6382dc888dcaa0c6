/**
 * The web app kit without a browser: form conversion and validation with the API's own schemas,
 * service errors placed on fields, escaping of re-rendered values, the flash cookie, the screen guard.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { t } from 'elysia'
import { badRequest, conflict, forbidden, notFound } from '../../src/lib/errors.ts'
import { CreateStatusPageBody, UpdateStatusPageBody } from '../../src/modules/status-pages/model.ts'
import { clearFlashCookie, flashCookie, readFlash } from '../../src/web/kit/flash.ts'
import { checkboxField, emptyForm, errorSummary, fieldErrorText, readForm, selectField, serviceErrorState, textArea, textField, toDatetimeLocal } from '../../src/web/kit/forms.ts'
import { checkDomainDns } from '../../src/modules/status-pages/dns-check.ts'
import { createTestContext, type TestContext } from '../helpers/context.ts'
import { loginCookie, ORIGIN } from '../modules/analytics/helpers.ts'

describe('readForm', () => {
  test('a nullable whole number (t.Nullable(t.Integer)) is read as a number, "" as null', () => {
    const schema = t.Object({ timeout_ms: t.Optional(t.Nullable(t.Integer({ minimum: 100 }))) })
    const form = readForm(schema, { timeout_ms: '10000' })
    expect(form.ok && form.value).toEqual({ timeout_ms: 10000 })
    const empty = readForm(schema, { timeout_ms: '' })
    expect(empty.ok && empty.value).toEqual({ timeout_ms: null })
  })

  test('empty text: omitted when optional, null when nullable; the API schema validates', () => {
    const form = readForm(UpdateStatusPageBody, { name: 'Acme', slug: '', custom_domain: '', visibility: 'public' })
    expect(form.ok).toBe(true)
    if (form.ok) expect(form.value).toEqual({ name: 'Acme', custom_domain: null, visibility: 'public' })
  })

  test("schema errors carry the schema's own texts, per field", () => {
    const form = readForm(CreateStatusPageBody, { name: 'x'.repeat(101), slug: 'ok', visibility: 'secret' })
    expect(form.ok).toBe(false)
    expect(form.state.errors).toEqual({ name: 'name must be a string of at most 100 characters', visibility: 'visibility must be "public" or "private"' })
    // A required field that is missing says so.
    expect(readForm(CreateStatusPageBody, { name: 'A' }).state.errors).toEqual({ slug: 'slug is required' })
  })

  test('numbers, checkboxes and datetime-local are converted; `only` leaves other fields alone', () => {
    const schema = t.Object({
      position: t.Integer({ minimum: 0 }),
      notify: t.Boolean(),
      at: t.String({ format: 'date-time' }),
      note: t.Optional(t.String()),
    })
    const form = readForm(schema, { position: '3', notify: 'on', at: '2026-11-23T10:30' })
    expect(form.ok).toBe(true)
    if (form.ok) expect(form.value).toEqual({ position: 3, notify: true, at: '2026-11-23T10:30:00Z' })
    const unchecked = readForm(schema, { position: '0', at: '2026-11-23T10:30:15' })
    if (unchecked.ok) expect(unchecked.value).toEqual({ position: 0, notify: false, at: '2026-11-23T10:30:15Z' })
    expect(readForm(schema, { position: 'three', at: 'x' }).state.errors.position).toBe('position must be a whole number')
    // The API's times are plain strings: the form names its datetime-local fields.
    const plain = readForm(t.Object({ starts_at: t.String() }), { starts_at: '2026-11-23T08:05' }, { datetimes: ['starts_at'] })
    if (plain.ok) expect(plain.value).toEqual({ starts_at: '2026-11-23T08:05:00Z' })
    expect(plain.ok).toBe(true)
    expect(toDatetimeLocal(Date.UTC(2026, 10, 23, 8, 5, 30))).toBe('2026-11-23T08:05')
    const only = readForm(UpdateStatusPageBody, { name: 'A', slug: 'b' }, { only: ['name'] })
    if (only.ok) expect(only.value).toEqual({ name: 'A' })
  })
})

describe('serviceErrorState', () => {
  const state = emptyForm({ name: 'A', slug: 'b', custom_domain: 'c' })
  test('a message that names a field goes next to it; others are form-level', () => {
    expect(serviceErrorState(conflict('slug is already taken'), state).errors).toEqual({ slug: 'slug is already taken' })
    expect(serviceErrorState(badRequest('custom_domain must be a bare host name'), state).errors).toEqual({ custom_domain: 'custom_domain must be a bare host name' })
    expect(serviceErrorState(forbidden('Private pages require Pro plan or higher'), state).errors).toEqual({ _form: 'Private pages require Pro plan or higher' })
  })
  test('404 and unexpected errors are not form errors', () => {
    expect(() => serviceErrorState(notFound(), state)).toThrow('not found')
    expect(() => serviceErrorState(new Error('bug'), state)).toThrow('bug')
  })
  test('field names from the form are text, never a pattern', () => {
    const odd = { values: { '(': 'x', 'slug': 'b' }, errors: {} }
    expect(serviceErrorState(conflict('slug is already taken'), odd).errors).toEqual({ slug: 'slug is already taken' })
  })
})

describe('fieldErrorText: the API\'s sentence as shown beside its field', () => {
  const state = { values: { target: 'x', text: '#fff', background: '#fff', interval_seconds: '5' }, errors: {} as Record<string, string> }
  const shown = (name: string, message: string, label?: string) => fieldErrorText({ ...state, errors: { [name]: message } }, name, label)
  test('a leading "field:" goes, a leading field name becomes the label, other fields\' paths read as words', () => {
    expect(shown('target', 'target: 127.0.0.1 is a loopback address', 'Target')).toBe('127.0.0.1 is a loopback address')
    expect(shown('target', 'target must be a DNS name such as example.com', 'Target')).toBe('Target must be a DNS name such as example.com')
    expect(shown('text', 'palette.text on palette.background has a contrast of 1.01:1', 'Text')).toBe('Text on background has a contrast of 1.01:1')
    expect(shown('interval_seconds', 'interval_seconds must be a whole number from 30 to 86400')).toBe('Interval seconds must be a whole number from 30 to 86400')
    expect(shown('target', 'name must be unique on example.com', 'Target')).toBe('Name must be unique on example.com')
    expect(shown('page_ids', 'page_ids must name at least one page unless all_pages is true', 'Pages')).toBe('Pages must name at least one page unless all pages is true')
    expect(shown('selectors', 'selectors hold "my_key", which is not a DKIM selector', 'DKIM selectors')).toBe('DKIM selectors hold "my_key", which is not a DKIM selector')
    // A checkbox's long label is no subject: the explanation stands alone.
    expect(shown('consent', 'consent must be true: confirm that this person agreed', 'This person agreed to get status updates of this page')).toBe('Confirm that this person agreed')
  })
  test('a sentence that starts with the value as typed keeps its case (a host name is not capitalised)', () => {
    const typed = (message: string) => fieldErrorText({ values: { target: 'http://localhost:8080/' }, errors: { target: message } }, 'target', 'Target')
    expect(typed('target: localhost resolves to 127.0.0.1, a loopback address')).toBe('localhost resolves to 127.0.0.1, a loopback address')
    expect(typed('target: must be a URL')).toBe('Must be a URL')
  })
  test('the summary labels a sentence only when it does not name its field already', () => {
    const summary = errorSummary({ ...state, errors: { target: 'target: 127.0.0.1 is a loopback address', text: 'palette.text on palette.background has a contrast of 1.01:1' } }, { target: 'Target', text: 'Text' })
    expect(summary).toContain('<a href="#f-target">Target: 127.0.0.1 is a loopback address</a>')
    expect(summary).toContain('<a href="#f-text">Text on background has a contrast of 1.01:1</a>')
  })
})

test('field helpers escape values, labels and errors, and link the error to the control', () => {
  const markup = '"><script>alert(1)</script>'
  const state = { values: { name: markup, body: markup, kind: markup, on: 'on' }, errors: { name: `bad ${markup}` } }
  const html = [
    textField({ name: 'name', label: markup, state, hint: markup }),
    textArea({ name: 'body', label: 'Body', state }),
    selectField({ name: 'kind', label: 'Kind', state, options: [{ value: markup, label: markup }] }),
    checkboxField({ name: 'on', label: 'On', state }),
  ].join('')
  expect(html).not.toContain('<script>')
  expect(html).toContain('value="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"')
  expect(html).toContain('aria-invalid="true" aria-describedby="f-name-hint f-name-error"')
  expect(html).toContain('<p class="field-error" id="f-name-error">Bad &#34;&#62;&#60;script&#62;')
  expect(html).toContain(' selected>')
  expect(html).toContain(' checked')
})

test('flash: a cookie for /user that round-trips escaped-safe text and is cleared', () => {
  const cookie = flashCookie({ scheme: 'https' }, { kind: 'notice', text: 'Page "<b>" created; ok' })
  expect(cookie).toContain('Path=/user; HttpOnly; SameSite=Lax; Max-Age=60; Secure')
  const value = cookie.split(';')[0]!
  expect(readFlash(new Request('http://x/', { headers: { cookie: value } }))).toEqual({ kind: 'notice', text: 'Page "<b>" created; ok' })
  expect(readFlash(new Request('http://x/', { headers: { cookie: 'lantern_flash=%E0%A4%A' } }))).toBeUndefined()
  expect(clearFlashCookie({ scheme: 'http' })).toBe('lantern_flash=; Path=/user; HttpOnly; SameSite=Lax; Max-Age=0')
})

test('DNS check: CNAME to the page host, shared addresses, elsewhere, missing, resolver failures', async () => {
  const hosts = { pageHost: 'acme.status.test', serviceHost: 'lantern.test', statusDomain: 'status.test' }
  const table: Record<string, { cname?: string[]; addresses?: string[] }> = {
    'a.example.com': { cname: ['acme.status.test.'] },
    'b.example.com': { addresses: ['192.0.2.1'] },
    'c.example.com': { addresses: ['198.51.100.7'] },
    'lantern.test': { addresses: ['192.0.2.1'] },
  }
  const resolver = {
    cname: async (host: string) => table[host]?.cname ?? [],
    addresses: async (host: string) => {
      if (host === 'e.example.com') throw new Error('SERVFAIL')
      return table[host]?.addresses ?? []
    },
  }
  expect(await checkDomainDns(resolver, 'a.example.com', hosts)).toEqual({ state: 'here', via: 'CNAME acme.status.test' })
  expect(await checkDomainDns(resolver, 'b.example.com', hosts)).toEqual({ state: 'here', via: 'address 192.0.2.1' })
  expect(await checkDomainDns(resolver, 'c.example.com', hosts)).toEqual({ state: 'elsewhere', found: ['198.51.100.7'] })
  expect(await checkDomainDns(resolver, 'd.example.com', hosts)).toEqual({ state: 'missing' })
  // A lookup that failed says nothing about the domain: unknown, not missing (the state is kept).
  expect(await checkDomainDns(resolver, 'e.example.com', hosts)).toEqual({ state: 'unknown', error: 'SERVFAIL' })
})

describe('screen guard over HTTP', () => {
  let ctx: TestContext
  let cookie: string
  beforeAll(async () => {
    ctx = await createTestContext()
    const owner = await ctx.createOwner()
    cookie = await loginCookie(ctx, owner.user.email)
  })
  afterAll(() => ctx.close())

  test('no session: screens redirect to the login page with next=, posts too (nothing done)', async () => {
    const get = await ctx.request('/user/pages/1/settings')
    expect(get.status).toBe(303)
    expect(get.headers.get('location')).toBe('/user/login?next=%2Fuser%2Fpages%2F1%2Fsettings')
    const post = await ctx.request('/user/pages', { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=A&slug=a-b' })
    expect(post.status).toBe(303)
    expect(await ctx.app.services.pages.list({ id: 1 } as never)).toEqual([])
  })

  test('the list shows a blocked page clearly; a private page on a downgraded plan can still be renamed', async () => {
    const owner = await ctx.createOwner('growth')
    const ownerCookie = await loginCookie(ctx, owner.user.email)
    const page = await ctx.createPage(owner.key, { name: 'Kept private', slug: 'kept-private', visibility: 'private' })
    await ctx.app.services.pages.setBlocked('kept-private', true)
    const list = await (await ctx.request('/user', { headers: { cookie: ownerCookie } })).text()
    expect(list).toContain('Blocked by the administrator: hidden from visitors')
    await ctx.app.services.accounts.setPlan(owner.user.email, 'free')
    const saved = await ctx.request(`/user/pages/${page.id}/settings`, {
      method: 'POST',
      headers: { origin: ORIGIN, cookie: ownerCookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'Renamed', slug: 'kept-private', visibility: 'private', custom_domain: '' }).toString(),
    })
    expect(saved.status).toBe(303)
    const after = await ctx.app.services.pages.get(owner.user, page.id)
    expect({ name: after.name, visibility: after.visibility }).toEqual({ name: 'Renamed', visibility: 'private' })
  })

  test('the flash is shown once and its cookie cleared', async () => {
    const created = await ctx.request('/user/pages', {
      method: 'POST',
      headers: { origin: ORIGIN, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Flashy&slug=flashy-page',
    })
    expect(created.status).toBe(303)
    const flash = created.headers.get('set-cookie')!.split(';')[0]!
    const shown = await ctx.request(created.headers.get('location')!, { headers: { cookie: `${cookie}; ${flash}` } })
    expect(await shown.text()).toContain('<div class="flash-region" role="status"><p class="flash notice">Page &#34;Flashy&#34; created.</p></div>')
    expect(shown.headers.get('set-cookie')).toStartWith('lantern_flash=; Path=/user')
    expect(shown.headers.get('cache-control')).toBe('no-store')
  })
})
