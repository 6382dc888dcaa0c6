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
  // What a reader renders as HTML: the message's Markdown as HTML, raw markup in it escaped as text.
  expect(description).not.toContain('<img')
  expect(description).not.toContain('<script')
  expect(description).toContain('<p>line one &lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; more<br>\nline two</p>')
})

test('Atom content is type="html": the Markdown as HTML, markup in it escaped as text', () => {
  const doc = new DOMParser().parseFromString(renderAtom(input), 'text/xml')
  const content = doc.getElementsByTagName('content')[0]!
  expect(content.getAttribute('type')).toBe('html')
  expect(content.textContent).not.toContain('<img')
  expect(content.textContent).toContain('line one &lt;img src=x onerror=alert(1)&gt;')
})
