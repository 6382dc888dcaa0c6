import { expect, test } from 'bun:test'
import { carriesToken, memoizeByText } from '../../src/lib/memo.ts'

test('a memoized reader answers as the reader does, reads each text once, and stays bounded', () => {
  const seen: string[] = []
  const read = memoizeByText((text: string) => {
    seen.push(text)
    return { upper: text.toUpperCase() }
  }, { max: 2 })
  expect(read('a')).toEqual({ upper: 'A' })
  expect(read('a')).toBe(read('a'))
  expect(seen).toEqual(['a'])
  read('b')
  read('c') // full: starts over
  read('a')
  expect(seen).toEqual(['a', 'b', 'c', 'a'])
  expect(read('c')).toEqual({ upper: 'C' })
})

test('texts that carry a token are read every time and never kept', () => {
  let reads = 0
  const read = memoizeByText((text: string) => (reads++, text.length), { keepOut: carriesToken })
  read('/badge/a.svg?auth_token=lpt_secret')
  read('/badge/a.svg?auth_token=lpt_secret')
  expect(reads).toBe(2)
  read('/badge/a.svg')
  read('/badge/a.svg')
  expect(reads).toBe(3)
})
