import { expect, test } from 'bun:test'
import { memoizeByText } from '../../src/lib/memo.ts'

test('a memoized reader answers as the reader does, reads each text once, and stays bounded', () => {
  const seen: string[] = []
  const read = memoizeByText((text: string) => {
    seen.push(text)
    return { upper: text.toUpperCase() }
  }, 2)
  expect(read('a')).toEqual({ upper: 'A' })
  expect(read('a')).toBe(read('a'))
  expect(seen).toEqual(['a'])
  read('b')
  read('c') // full: starts over
  read('a')
  expect(seen).toEqual(['a', 'b', 'c', 'a'])
  expect(read('c')).toEqual({ upper: 'C' })
})
