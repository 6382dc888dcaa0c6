/** The owners' Markdown subset: what renders, what stays text, which links survive, and the plain-text form. */
import { describe, expect, test } from 'bun:test'
import { markdownToText, renderSafeMarkdown } from '../../src/lib/safe-markdown.ts'

describe('renderSafeMarkdown', () => {
  test('links, emphasis, lists and code render', () => {
    const out = renderSafeMarkdown('We **found** it, *mostly*. See [the post](https://example.com/a?b=1&c=2).\n\n- one\n- `two`\n\n1. first\n2. second\n\n```\nlet x = 1 < 2\n```')
    expect(out).toContain('<strong>found</strong>')
    expect(out).toContain('<em>mostly</em>')
    expect(out).toContain('<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener">the post</a>')
    expect(out).toContain('<ul>\n<li>one</li>\n<li><code>two</code></li>\n</ul>')
    expect(out).toContain('<ol>\n<li>first</li>\n<li>second</li>\n</ol>')
    expect(out).toContain('<pre><code>let x = 1 &lt; 2\n</code></pre>')
  })

  test('raw HTML comes out as text', () => {
    const out = renderSafeMarkdown('<script>alert(1)</script> <img src=x onerror=alert(2)>\n\n<div onclick="x()">block</div>')
    expect(out).not.toContain('<script')
    expect(out).not.toContain('<img')
    expect(out).not.toContain('<div')
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  test('only http, https and mailto links; bare addresses become links too', () => {
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', '/relative', 'ftp://example.com/f']) {
      expect(renderSafeMarkdown(`[x](${bad})`)).not.toContain('<a ')
    }
    expect(renderSafeMarkdown('[mail](mailto:ops@example.com)')).toContain('<a href="mailto:ops@example.com" rel="nofollow noopener">mail</a>')
    expect(renderSafeMarkdown('see https://example.com/x')).toContain('<a href="https://example.com/x" rel="nofollow noopener">https://example.com/x</a>')
  })

  test('images and headings are not Markdown here; a line break stays a line break', () => {
    const out = renderSafeMarkdown('![pixel](https://tracker.example/p.gif)\n# Big')
    expect(out).not.toContain('<img')
    expect(out).not.toContain('<h1')
    expect(renderSafeMarkdown('line one\nline two')).toBe('<p>line one<br>\nline two</p>\n')
    expect(renderSafeMarkdown('  ')).toBe('')
  })

  test('attribute breaking in a link title or address stays inside the attribute', () => {
    const out = renderSafeMarkdown('[x](https://e.com/"onmouseover="alert(1) "t\\"itle")')
    expect(out).not.toMatch(/<a [^>]*\sonmouseover=/)
  })
})

describe('markdownToText', () => {
  test('emphasis marks go, links keep their address, lists keep their marks', () => {
    const text = markdownToText('We **found** it. See [the post](https://example.com/x) or [mail](mailto:ops@example.com) or https://example.com/y.\n\n- one *two*\n- `code`\n  1. nested\n\n3. c\n4. d\n\n```\nlet x = 1\n```\n\n> quoted')
    expect(text).toBe(
      'We found it. See the post (https://example.com/x) or mail (ops@example.com) or https://example.com/y.\n\n' +
        '- one two\n- code\n  1. nested\n\n3. c\n4. d\n\nlet x = 1\n\n> quoted',
    )
  })

  test('raw HTML is kept as the text it was written as', () => {
    expect(markdownToText('<b>bold</b> & more')).toBe('<b>bold</b> & more')
  })
})
