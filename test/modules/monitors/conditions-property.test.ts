/**
 * Property tests of the condition parser and evaluator with nasty inputs, from a seeded generator
 * (the same cases every run): it never throws anything but its own verdicts, never recurses
 * deeply, and never reaches a prototype.
 */
import { describe, expect, test } from 'bun:test'
import { evaluateConditions, parseConditions, type ParseResult } from '../../../src/modules/monitors/kinds/conditions.ts'

/** mulberry32: a small deterministic generator. */
function generator(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (max: number) => Math.floor(next() * max)
  const pick = <T,>(items: readonly T[]): T => items[int(items.length)]!
  return { next, int, pick }
}

const PIECES = [
  '[STATUS]', '[RESPONSE_TIME]', '[BODY]', '[body]', '[', ']', '.', '..', '[0]', '[-1]', '[99999999999]', '["k"]', '["', '"', '\\', '\\u', '\\ud800',
  '(', ')', 'len(', 'has(', 'len(len(', '==', '=', '!=', '!', '<', '<=', '>', '>=', '=>', 'contains', 'containsx', ' ', '\t', '\n', '\u0000', '\u200b',
  '0', '-0', '1e308', '1e309', '-1e400', '0x10', '007', '1.', '.5', 'NaN', 'Infinity', '123456789012345678901234567890', 'true', 'false', 'null', 'undefined',
  '__proto__', 'constructor', 'prototype', 'toString', 'ñ', 'Ω', '🚀', '\ud83d', '"ok"', '"\\"q\\""', "'single'", ',', ';', '$', '-', '_',
]

function expectVerdict(result: ParseResult, text: string) {
  if (result.ok) {
    expect(result.conditions).toHaveLength(1)
  } else {
    expect(result.errors).toHaveLength(1)
    const [error] = result.errors
    expect(error!.position).toBeGreaterThanOrEqual(0)
    expect(error!.position).toBeLessThanOrEqual(Math.max(text.length, 512))
    expect(error!.message.length).toBeGreaterThan(0)
  }
}

describe('condition parser properties', () => {
  test('random sequences of nasty pieces: a condition or a positioned error, never a throw', () => {
    const random = generator(13)
    for (let i = 0; i < 5_000; i++) {
      const text = Array.from({ length: 1 + random.int(12) }, () => random.pick(PIECES)).join(random.pick(['', ' ', '']))
      expectVerdict(parseConditions([text]), text)
    }
  })

  test('random characters, including lone surrogates and control characters', () => {
    const random = generator(7)
    for (let i = 0; i < 3_000; i++) {
      const text = Array.from({ length: random.int(80) }, () => String.fromCharCode(random.int(0x10000))).join('')
      expectVerdict(parseConditions([text]), text)
    }
  })

  test('deep nesting is refused without deep recursion', () => {
    for (const text of ['len('.repeat(100_000) + '[BODY]' + ')'.repeat(100_000), '('.repeat(100_000), `[BODY]${'[0]'.repeat(100_000)} == 1`, `[BODY]${'.a'.repeat(200)} == 1`, `has(${'has('.repeat(1000)}[BODY].a))`]) {
      const result = parseConditions([text])
      expect(result.ok).toBe(false)
    }
  })

  test('huge numbers parse as finite doubles or are refused, never Infinity', () => {
    const random = generator(99)
    for (let i = 0; i < 2_000; i++) {
      const digits = Array.from({ length: 1 + random.int(400) }, () => String(random.int(10))).join('').replace(/^0+(?=\d)/, '')
      const exponent = random.next() < 0.5 ? '' : `e${random.pick(['', '-', '+'])}${random.int(1000)}`
      const text = `[BODY].n < ${random.next() < 0.5 ? '-' : ''}${digits}${exponent}`
      const result = parseConditions([text])
      if (result.ok) {
        const [condition] = result.conditions
        if (condition!.kind !== 'compare' || condition!.right.kind !== 'literal') throw new Error('unexpected shape')
        expect(Number.isFinite(condition!.right.value as number)).toBe(true)
      } else {
        expect(result.errors[0]!.message).toStartWith('number out of range')
      }
    }
  })

  test('generated valid conditions parse, and a path that exists with the value compares equal', () => {
    const random = generator(2026)
    const keys = ['a', 'b_c', 'd-e', 'état', '名前', '$x', 'odd key', 'with"quote', '__proto__', 'constructor', '0']
    for (let i = 0; i < 1_000; i++) {
      const path: Array<string | number> = Array.from({ length: 1 + random.int(6) }, () => (random.next() < 0.3 ? random.int(3) : random.pick(keys)))
      const value = random.pick<unknown>(['ok', '', 'ünï 🚀', 0, -12.5, 1e21, true, false, null])
      // Build a body in which the path leads to the value.
      let built: unknown = value
      for (let j = path.length - 1; j >= 0; j--) {
        const step = path[j]!
        if (typeof step === 'number') {
          const list: unknown[] = Array(step + 1).fill(0)
          list[step] = built
          built = list
        } else {
          built = JSON.parse(`{${JSON.stringify(step)}: ${JSON.stringify(built)}}`)
        }
      }
      const pathText = path.map((step) => (typeof step === 'number' ? `[${step}]` : /^[\p{L}\p{N}_$-]+$/u.test(step) ? `.${step}` : `[${JSON.stringify(step)}]`)).join('')
      const text = `[BODY]${pathText} == ${JSON.stringify(value)}`
      const parsed = parseConditions([text])
      if (!parsed.ok) throw new Error(`${text}: ${parsed.errors[0]!.message}`)
      const verdict = evaluateConditions(parsed.conditions, { body: { text: JSON.stringify(built), truncated: false } })
      expect({ text, ok: verdict.ok }).toEqual({ text, ok: true })
    }
  })

  test('prototype keys never resolve through a prototype, whatever the body', () => {
    const random = generator(5)
    const protoKeys = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'length', 'call', 'apply', 'bind', 'name']
    const bodies = ['{}', '[]', '"text"', '1', 'true', 'null', '{"a": {}}', '{"a": []}', '{"a": "str"}']
    for (let i = 0; i < 2_000; i++) {
      const path = Array.from({ length: 1 + random.int(4) }, () => `.${random.pick(protoKeys)}`).join('')
      const parsed = parseConditions([`has([BODY]${random.pick(['', '.a'])}${path})`])
      if (!parsed.ok) throw new Error(parsed.errors[0]!.message)
      const verdict = evaluateConditions(parsed.conditions, { body: { text: random.pick(bodies), truncated: false } })
      expect(verdict.ok).toBe(false)
    }
    expect(Object.prototype).toEqual({})
  })
})
