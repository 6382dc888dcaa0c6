import { describe, expect, test } from 'bun:test'
import { evaluateConditions, MAX_CONDITIONS, parseConditions, type ConditionInput } from '../../../src/modules/monitors/kinds/conditions.ts'

const body = (json: unknown): ConditionInput['body'] => ({ text: JSON.stringify(json), truncated: false })

function check(condition: string, input: ConditionInput) {
  const parsed = parseConditions([condition])
  if (!parsed.ok) throw new Error(`did not parse: ${condition}: ${parsed.errors[0]!.message}`)
  return evaluateConditions(parsed.conditions, input)
}

describe('parse errors come with a position', () => {
  // [condition, 0-based position, message]
  const TABLE: Array<[string, number, string]> = [
    ['[STATUS] = 200', 9, '"=" is not an operator; use "==" at column 10'],
    ['[BODY].status == UP', 17, 'expected a value: [PLACEHOLDER], len(...), a number, "a string" (strings need double quotes), true, false or null at column 18'],
    ['[FOO] == 1', 0, 'unknown placeholder [FOO]; use [STATUS], [RESPONSE_TIME] or [BODY] (upper case) at column 1'],
    ['[status] == 1', 0, 'unknown placeholder [status]; use [STATUS], [RESPONSE_TIME] or [BODY] (upper case) at column 1'],
    ['[STATUS].code == 1', 8, '[STATUS] has no fields; only [BODY] takes a path at column 9'],
    ['len([BODY].items > 0', 17, 'expected ")" to close len( at column 18'],
    ['1 == 2', 0, 'a condition must refer to [STATUS], [RESPONSE_TIME] or [BODY] at column 1'],
    ['[BODY]. == 1', 7, 'expected a field name after "." at column 8'],
    ['[BODY][abc] == 1', 6, 'expected [number] or ["key"] in the path at column 7'],
    ['[STATUS] == 1e400', 12, 'number out of range at column 13'],
    ['[STATUS] == 200 200', 16, 'unexpected text after the condition at column 17'],
    ['', 0, 'expected a value at column 1'],
    ['[STATUS]', 8, 'expected an operator (== != < <= > >= contains) at column 9'],
    ['[BODY].a == "unterminated', 12, 'unterminated or invalid string at column 13'],
    ['[STATUS] ~= 1', 9, 'expected an operator (== != < <= > >= contains) at column 10'],
    ['has([BODY].a', 12, 'expected ")" to close has( at column 13'],
    ['[BODY].a containsx "b"', 9, 'expected an operator (== != < <= > >= contains) at column 10'],
  ]
  for (const [condition, position, message] of TABLE) {
    test(JSON.stringify(condition), () => {
      expect(parseConditions([condition])).toEqual({ ok: false, errors: [{ index: 0, position, message }] })
    })
  }

  test('every bad condition of a list is reported with its index', () => {
    const parsed = parseConditions(['[STATUS] == 200', '[STATUS] = 1', 'nope'])
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.errors.map((e) => e.index)).toEqual([1, 2])
  })

  test('limits: count, length, path depth', () => {
    expect(parseConditions(Array(MAX_CONDITIONS + 1).fill('[STATUS] == 200')).ok).toBe(false)
    expect(parseConditions([`[BODY].a == "${'x'.repeat(600)}"`])).toMatchObject({ ok: false, errors: [{ message: 'a condition is at most 512 characters' }] })
    expect(parseConditions([`[BODY]${'.a'.repeat(33)} == 1`])).toMatchObject({ ok: false, errors: [{ message: expect.stringContaining('a path has at most 32 steps') }] })
  })
})

describe('evaluation', () => {
  const json = {
    status: 'ok',
    count: 3,
    ratio: 0.5,
    flag: true,
    none: null,
    data: { items: [{ state: 'ok' }, { state: 'busy' }], empty: [] },
    tags: ['a', 'b', 3],
    'odd key': 'x',
    name: 'Ünïcödé 🚀',
  }
  const input: ConditionInput = { status: 200, responseTimeMs: 120, body: body(json) }
  // [condition, passes]
  const TABLE: Array<[string, boolean]> = [
    ['[STATUS] == 200', true],
    ['[STATUS] != 200', false],
    ['[STATUS] >= 200', true],
    ['[STATUS] < 300', true],
    ['200 == [STATUS]', true],
    ['[STATUS] == "200"', false],
    ['[RESPONSE_TIME] < 500', true],
    ['[RESPONSE_TIME] <= 119', false],
    ['[BODY].status == "ok"', true],
    ['[BODY].status != "down"', true],
    ['[BODY].count > 2', true],
    ['[BODY].count == 3.0', true],
    ['[BODY].ratio < 1', true],
    ['[BODY].flag == true', true],
    ['[BODY].none == null', true],
    ['[BODY].data.items[0].state == "ok"', true],
    ['[BODY].data.items[1].state == "ok"', false],
    ['[BODY].data.items[2].state == "ok"', false],
    ['len([BODY].data.items) == 2', true],
    ['len([BODY].data.empty) > 0', false],
    ['len([BODY].data) == 2', true],
    ['len([BODY].name) == 9', true],
    ['[BODY].tags contains "b"', true],
    ['[BODY].tags contains 3', true],
    ['[BODY].tags contains "3"', false],
    ['[BODY].status contains "o"', true],
    ['[BODY]["odd key"] == "x"', true],
    ['[BODY].name == "Ünïcödé 🚀"', true],
    ['[BODY].name == "\\u00dcn\\u00efc\\u00f6d\\u00e9 \\ud83d\\ude80"', true],
    ['[BODY].data == [BODY].data', false],
    ['[BODY].status < 5', false],
    ['[BODY].count contains 3', false],
    ['[BODY].missing != 1', false],
    ['[BODY].missing == null', false],
    ['has([BODY].data.items[1])', true],
    ['has([BODY].data.items[2])', false],
    ['has([BODY].none)', true],
    ['[BODY].count == [BODY].count', true],
  ]
  for (const [condition, passes] of TABLE) {
    test(`${condition} → ${passes}`, () => expect(check(condition, input).ok).toBe(passes))
  }

  test('failure reasons name the condition and never show body values', () => {
    expect(check('[BODY].status == "down"', input)).toEqual({ ok: false, reason: 'condition 1 failed: [BODY].status == "down" ([BODY].status is a string that does not match)' })
    expect(check('[STATUS] == 201', input)).toEqual({ ok: false, reason: 'condition 1 failed: [STATUS] == 201 ([STATUS] was 200)' })
    expect(check('[BODY].missing.deeper == 1', input)).toEqual({ ok: false, reason: 'condition 1 failed: [BODY].missing.deeper == 1 ([BODY].missing.deeper is missing)' })
    expect(check('[BODY].status > 1', input)).toEqual({ ok: false, reason: 'condition 1 failed: [BODY].status > 1 (> needs numbers on both sides)' })
    expect(check('len([BODY].count) > 1', input)).toEqual({ ok: false, reason: 'condition 1 failed: len([BODY].count) > 1 (len() needs a string, an array or an object)' })
  })

  test('[BODY] alone is the text when the body is not JSON; a path then fails as not JSON, or as too big', () => {
    const text: ConditionInput = { status: 200, body: { text: 'plain OK text', truncated: false } }
    expect(check('[BODY] contains "OK"', text).ok).toBe(true)
    expect(check('[BODY].a == 1', text)).toEqual({ ok: false, reason: 'condition 1 failed: [BODY].a == 1 (the body is not valid JSON)' })
    expect(check('[BODY].a == 1', { body: { text: '{"a":', truncated: true } })).toEqual({ ok: false, reason: 'condition 1 failed: [BODY].a == 1 (the body is over the size limit, so not parsed as JSON)' })
  })

  test('prototype keys are looked up as own properties only', () => {
    const tricky: ConditionInput = { body: { text: '{"__proto__": {"polluted": 1}, "plain": {}, "list": [1]}', truncated: false } }
    // JSON.parse makes "__proto__" an own key: it is data, not the prototype.
    expect(check('[BODY].__proto__.polluted == 1', tricky).ok).toBe(true)
    for (const path of ['[BODY].plain.constructor', '[BODY].plain.__proto__', '[BODY].plain.toString', '[BODY].plain.hasOwnProperty', '[BODY].list.length', '[BODY].constructor.name', '[BODY].list.constructor']) {
      expect({ path, has: check(`has(${path})`, tricky).ok }).toEqual({ path, has: false })
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
