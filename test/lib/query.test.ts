import { expect, test } from 'bun:test'
import { queryValues } from '../../src/lib/query.ts'

test('reads every value of a parameter the way URLSearchParams does', () => {
  const cases = [
    'https://x.test/p',
    'https://x.test/p?',
    'https://x.test/p?slug',
    'https://x.test/p?slug=',
    'https://x.test/p?slug=a',
    'https://x.test/p?slug=a&slug=b',
    'https://x.test/p?other=1&slug=a%20b+c',
    'https://x.test/p?sl%75g=encoded-key',
    'https://x.test/p?slug=%ZZ%41',
    'https://x.test/p?slug=%E2%82%AC&slug=%E2%82',
    'https://x.test/p?slugs=no&xslug=no&slug=yes',
    'https://x.test/p?&&slug=a&&',
    'https://x.test/p?slug=a=b',
  ]
  for (const url of cases) {
    expect(queryValues(url, 'slug')).toEqual(new URL(url).searchParams.getAll('slug'))
  }
})
