import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { contrastRatio } from '../../../src/modules/branding/palette.ts'
import { DEFAULT_FAVICON_SVG } from '../../../src/modules/status-site/look.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let growth: { key: string }
let pro: { key: string }
let page: { id: number }
let proPage: { id: number }

// A real 1×1 PNG.
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
)
const ICO = Uint8Array.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0x68, 4, 0, 0, 22, 0, 0, 0, ...new Array(40).fill(0)])
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9])
const EVIL_SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" onload="alert(1)"><script>alert(document.cookie)</script><circle cx="8" cy="8" r="8" fill="red"/></svg>`

function upload(id: number, kind: 'favicon' | 'logo', bytes: Uint8Array | string, options: { key?: string; name?: string; type?: string; raw?: boolean } = {}) {
  const data = (typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes) as Uint8Array<ArrayBuffer>
  if (options.raw) {
    return ctx.request(`/user/api/v1/status-pages/${id}/${kind}`, {
      method: 'PUT',
      key: options.key ?? growth.key,
      body: data,
      headers: { 'content-type': options.type ?? 'application/octet-stream' },
    })
  }
  const form = new FormData()
  form.set('file', new File([data], options.name ?? 'icon.bin', { type: options.type ?? 'application/octet-stream' }))
  return ctx.request(`/user/api/v1/status-pages/${id}/${kind}`, { method: 'PUT', key: options.key ?? growth.key, body: form })
}

async function faviconResponse(host = 'https://brand.status.test') {
  const html = await (await ctx.request(`${host}/`)).text()
  const href = /<link rel="icon" href="([^"]+)">/.exec(html)?.[1]?.replaceAll('&#61;', '=')
  return href ? ctx.request(`${host}${href}`) : undefined
}

beforeAll(async () => {
  ctx = await createTestContext()
  growth = await ctx.createOwner('growth')
  pro = await ctx.createOwner('pro')
  page = await ctx.createPage(growth.key, { slug: 'brand', name: 'Brand' })
  proPage = await ctx.createPage(pro.key, { slug: 'probrand', name: 'Pro Brand' })
})
afterAll(() => ctx.close())

describe('favicon upload', () => {
  test('a PNG is accepted, linked from the page and served as image/png', async () => {
    const response = await upload(page.id, 'favicon', PNG, { name: 'favicon.png', type: 'image/png' })
    expect(response.status).toBe(200)
    expect((await json(response)).data).toEqual({ type: 'png', bytes: PNG.length })
    const icon = (await faviconResponse())!
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await icon.arrayBuffer())).toEqual(PNG)
    expect((await ctx.request('https://brand.status.test/favicon.ico')).headers.get('content-type')).toBe('image/png')
  })

  test('a PNG renamed .svg (and declared as SVG) is still a PNG', async () => {
    const response = await upload(page.id, 'favicon', PNG, { name: 'icon.svg', type: 'image/svg+xml' })
    expect((await json(response)).data.type).toBe('png')
    expect((await faviconResponse())!.headers.get('content-type')).toBe('image/png')
  })

  test('JPEG and ICO are recognised by their bytes, also as a raw body', async () => {
    expect((await json(await upload(page.id, 'favicon', JPEG, { name: 'a.png' }))).data.type).toBe('jpeg')
    expect((await json(await upload(page.id, 'favicon', ICO, { raw: true }))).data.type).toBe('ico')
    expect((await faviconResponse())!.headers.get('content-type')).toBe('image/x-icon')
  })

  test('an SVG with a script is served so that the script can never run', async () => {
    const response = await upload(page.id, 'favicon', EVIL_SVG, { name: 'icon.png', type: 'image/png' })
    expect((await json(response)).data.type).toBe('svg')
    const icon = (await faviconResponse())!
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    const csp = icon.headers.get('content-security-policy')!
    expect(csp).toContain("script-src 'none'")
    expect(csp).toContain('sandbox')
    expect(csp).toContain("default-src 'none'")
    expect(icon.headers.get('x-content-type-options')).toBe('nosniff')
  })

  test('100 KB is accepted; 100 KB + 1 byte is refused and changes nothing', async () => {
    const exact = new Uint8Array(100 * 1024)
    exact.set(PNG)
    expect((await upload(page.id, 'favicon', exact)).status).toBe(200)
    const tooBig = new Uint8Array(100 * 1024 + 1)
    tooBig.set(PNG)
    const response = await upload(page.id, 'favicon', tooBig)
    expect(response.status).toBe(400)
    expect((await json(response)).error).toBe('favicon must be at most 100 KB (got 102401 bytes)')
    expect((await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/branding`, { key: growth.key }))).data.favicon).toEqual({
      type: 'png',
      bytes: 100 * 1024,
    })
  })

  test('text, HTML, GIF and empty files are refused', async () => {
    for (const bytes of ['hello', '<html><script>alert(1)</script></html>', 'GIF89a\x01\x00\x01\x00', '<svg', '']) {
      const response = await upload(page.id, 'favicon', bytes, { name: 'x.svg', type: 'image/svg+xml' })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(/favicon (must be a PNG, JPEG, SVG or ICO image|file is empty)/)
    }
    const noField = await ctx.request(`/user/api/v1/status-pages/${page.id}/favicon`, { method: 'PUT', key: growth.key, body: new FormData() })
    expect(noField.status).toBe(400)
  })

  test('only plans with custom CSS may upload a favicon; others\' pages are 404', async () => {
    const response = await upload(proPage.id, 'favicon', PNG, { key: pro.key })
    expect(response.status).toBe(403)
    expect((await json(response)).error).toBe('A custom favicon requires Growth plan or higher')
    expect((await upload(page.id, 'favicon', PNG, { key: pro.key })).status).toBe(404)
    // The logo is for every plan.
    expect((await upload(proPage.id, 'logo', PNG, { key: pro.key })).status).toBe(200)
    const html = await (await ctx.request('https://probrand.status.test/')).text()
    expect(html).toMatch(/<img src="\/_lantern\/logo\?v&#61;[0-9a-f]+" alt=""/)
  })

  test('deleting the favicon brings back Lantern\'s; a page on a plan without custom favicons keeps Lantern\'s', async () => {
    expect((await ctx.request(`/user/api/v1/status-pages/${page.id}/favicon`, { method: 'DELETE', key: growth.key })).status).toBe(200)
    const icon = (await faviconResponse())!
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    expect(await icon.text()).toBe(DEFAULT_FAVICON_SVG)
    expect(await (await ctx.request('https://brand.status.test/favicon.ico')).text()).toBe(DEFAULT_FAVICON_SVG)
    expect(await (await faviconResponse('https://probrand.status.test'))!.text()).toBe(DEFAULT_FAVICON_SVG)
  })
})

describe('palette and custom CSS', () => {
  const patch = (id: number, body: unknown, key = growth.key) => ctx.request(`/user/api/v1/status-pages/${id}/branding`, { method: 'PATCH', key, json: body })

  test('the palette is stored, dark colours are derived and readable', async () => {
    const response = await patch(page.id, { palette: { primary: '#FFCC00', accent: '#ffee88', background: '#fffdf5', text: '#333' } })
    expect(response.status).toBe(200)
    const data = (await json(response)).data
    expect(data.palette).toEqual({ primary: '#ffcc00', secondary: '#59636e', accent: '#ffee88', background: '#fffdf5', text: '#333333' })
    expect(data.light.onPrimary).toBe('#000000')
    expect(contrastRatio(data.light.accent, data.light.surface)).toBeGreaterThanOrEqual(4.5)
    expect(contrastRatio(data.dark.text, data.dark.background)).toBeGreaterThanOrEqual(7)
    expect(contrastRatio(data.dark.accent, data.dark.surface)).toBeGreaterThanOrEqual(4.5)
    expect(data.contrast.text_on_background).toBeGreaterThan(10)
    const html = await (await ctx.request('https://brand.status.test/')).text()
    const href = /href="(\/_lantern\/theme\.css[^"]*)"/.exec(html)![1]!.replaceAll('&#61;', '=')
    const css = await (await ctx.request(`https://brand.status.test${href}`)).text()
    expect(css).toContain('--primary:#ffcc00')
    expect(css).toContain(`--bg:#fffdf5`)
    expect(css).toMatch(/@media \(prefers-color-scheme:dark\)\{:root\{--bg:#[0-9a-f]{6}/)
  })

  test('unreadable or malformed palettes are refused with the field named', async () => {
    const low = await patch(page.id, { palette: { text: '#dddddd', background: '#ffffff' } })
    expect(low.status).toBe(400)
    expect((await json(low)).error).toMatch(/^palette\.text on palette\.background has a contrast of 1\.\d\d:1/)
    expect((await json(await patch(page.id, { palette: { primary: 'red;}body{display:none' } }))).error).toBe('palette.primary must be a hex colour like #1f6feb')
    expect((await patch(page.id, { palette: 'blue' })).status).toBe(400)
  })

  test('custom CSS is served in its own stylesheet and cannot break out of it', async () => {
    const css = '.banner { border-radius: 0; }\n.component__name::after { content: "\\2713"; }'
    const ok = await patch(page.id, { custom_css: css })
    expect(ok.status).toBe(200)
    const html = await (await ctx.request('https://brand.status.test/')).text()
    expect(html).not.toContain('border-radius: 0')
    const href = /href="(\/_lantern\/theme\.css[^"]*)"/.exec(html)![1]!.replaceAll('&#61;', '=')
    const served = await ctx.request(`https://brand.status.test${href}`)
    expect(served.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await served.text()).toContain(css)

    for (const [bad, message] of [
      ['</style><script>alert(1)</script>', 'custom_css must not contain "<" (no HTML inside a stylesheet)'],
      ['@import url(https://evil.example/x.css);', 'custom_css must not use @import'],
      ['@\\69mport "x.css";', 'custom_css must not use @import'],
      ['@IMPORT "x.css";', 'custom_css must not use @import'],
      ['a{}\u0000', 'custom_css must not contain control characters'],
      ['a{}'.repeat(20_000), 'custom_css must be at most 50 KB'],
    ]) {
      const response = await patch(page.id, { custom_css: bad })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toBe(message!)
    }
    expect((await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/branding`, { key: growth.key }))).data.custom_css).toBe(css)
  })

  test('custom CSS needs a plan with the feature', async () => {
    const response = await patch(proPage.id, { custom_css: 'a{color:red}' }, pro.key)
    expect(response.status).toBe(403)
    expect((await json(response)).error).toBe('Custom CSS requires Growth plan or higher')
    expect((await patch(proPage.id, { palette: { accent: '#005500' } }, pro.key)).status).toBe(200)
  })
})
