import { describe, expect, test } from 'bun:test'
import { renderHtml, renderText } from '../../../src/modules/notify/template.ts'

describe('mail templates: {{name}} substitution only', () => {
  test('replaces known names, with or without spaces, numbers too', () => {
    expect(renderText('Hello {{name}}, {{ count }} incidents', { name: 'Ada', count: 3 })).toBe('Hello Ada, 3 incidents')
  })

  test('HTML templates escape every value; text templates keep it as it is', () => {
    const values = { title: '<script>alert(1)</script> & "quotes"' }
    expect(renderHtml('<h1>{{title}}</h1>', values)).toBe('<h1>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</h1>')
    expect(renderText('{{title}}', values)).toBe(values.title)
  })

  test('unknown names stay visible as written', () => {
    expect(renderText('Hi {{nmae}}!', { name: 'Ada' })).toBe('Hi {{nmae}}!')
    expect(renderHtml('<p>{{ missing }}</p>', {})).toBe('<p>{{ missing }}</p>')
  })

  test('nothing is executable and values are not expanded twice', () => {
    expect(renderText('{{constructor}} {{__proto__}} {{toString}}', {})).toBe('{{constructor}} {{__proto__}} {{toString}}')
    expect(renderText('{{a}}', { a: '{{b}}', b: 'no' })).toBe('{{b}}')
    expect(renderText('{{ a + b }} {{#each x}}', { a: 1, b: 2 })).toBe('{{ a + b }} {{#each x}}')
  })
})
