import { expect, test } from 'bun:test'
import { queryParams, queryValues } from '../../src/lib/query.ts'

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

test('queryParams reads every parameter in one pass, as URLSearchParams does', () => {
  const cases = ['https://x.test/p', 'https://x.test/p?slug=a&inc=1&slug=b', 'https://x.test/p?sl%75g=A+b&rtm=%ZZ', 'https://x.test/p?x=a=b&y']
  for (const url of cases) {
    const params = queryParams(url)
    for (const name of new URL(url).searchParams.keys()) expect(params.get(name)).toEqual(new URL(url).searchParams.getAll(name))
  }
})
