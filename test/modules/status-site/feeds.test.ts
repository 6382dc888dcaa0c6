/** The feed renderers on their own: what a feed reader gets out of hostile texts. */
import { expect, test } from 'bun:test'
import { DOMParser } from '@xmldom/xmldom'
import { renderAtom, renderRss } from '../../../src/modules/status-site/feeds.ts'

const XSS = '<img src=x onerror=alert(1)><script>alert(2)</script> & more'
const input = {
  name: 'Shop',
  url: 'https://shop.status.test',
  now: Date.UTC(2026, 10, 1),
  maintenances: [],
  incidents: [
    {
      id: 1,
      title: 'Down',
      state: 'investigating',
      startedAt: Date.UTC(2026, 10, 1),
      updatedAt: Date.UTC(2026, 10, 1),
      updates: [{ id: 1, state: 'investigating', message: `line one ${XSS}\nline two`, at: Date.UTC(2026, 10, 1) }],
    },
  ],
} as unknown as Parameters<typeof renderRss>[0]

test('RSS descriptions (HTML for feed readers) carry markup in messages as text', () => {
  const doc = new DOMParser().parseFromString(renderRss(input), 'text/xml')
  const description = doc.getElementsByTagName('description')[1]!.textContent!
  // What a reader renders as HTML: escaped markup, line breaks as <br>.
  expect(description).not.toContain('<img')
  expect(description).not.toContain('<script')
  expect(description).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; more<br>line two')
})

test('Atom content is type="text": the text itself, once escaped', () => {
  const doc = new DOMParser().parseFromString(renderAtom(input), 'text/xml')
  const content = doc.getElementsByTagName('content')[0]!
  expect(content.getAttribute('type')).toBe('text')
  expect(content.textContent).toContain(`line one ${XSS}\nline two`)
})
