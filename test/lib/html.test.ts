/** src/lib/html.ts: JSON for a `<script type="application/json">` element (jsonScriptText). */
import { describe, expect, test } from 'bun:test'
import { jsonScriptText } from '../../src/lib/html.ts'

describe('jsonScriptText', () => {
  const tricky = { name: 'a</script><script>alert(1)</script>', comment: '<!-- x --> & <b>', lines: 'one\u2028two\u2029three', plain: 'Acme API', n: 1.5, none: null }

  test('nothing in the data can end the element or open a comment', () => {
    const text = jsonScriptText(tricky)
    expect(text).not.toMatch(/[<>&\u2028\u2029]/)
    expect(text).not.toContain('</script')
    expect(text).not.toContain('<!--')
    expect(text).toContain('a\\u003c/script\\u003e')
  })

  test('JSON.parse gives the value back unchanged', () => {
    expect(JSON.parse(jsonScriptText(tricky))).toEqual(tricky)
    expect(JSON.parse(jsonScriptText([1, 'x', true]))).toEqual([1, 'x', true])
  })

  test('a real HTML parser reads the element as one text holding the same value', async () => {
    // Bun's HTMLRewriter is a spec HTML tokenizer: the script element must end where we end it.
    const page = `<!doctype html><script type="application/json" id="d">${jsonScriptText(tricky)}</script><p id="after">after</p>`
    let data = ''
    let scripts = 0
    let after = false
    await new HTMLRewriter()
      .on('script', { element: () => void scripts++, text: (chunk) => void (data += chunk.text) })
      .on('p#after', { element: () => void (after = true) })
      .transform(new Response(page))
      .text()
    expect(scripts).toBe(1)
    expect(after).toBe(true)
    expect(JSON.parse(data)).toEqual(tricky)
  })
})
