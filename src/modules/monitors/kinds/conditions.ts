/**
 * The condition language of JSON monitors (pure; no eval, no JSONPath engine).
 *
 *   condition := operand op operand | has(ref)
 *   op        := == | != | < | <= | > | >= | contains
 *   operand   := ref | len(ref) | number | "string" | true | false | null
 *   ref       := [STATUS] | [RESPONSE_TIME] | [BODY] path
 *   path      := ( .key | [index] | ["any key"] )*
 *
 * Rules (documented in src/content/docs/monitors.md):
 * - `==`/`!=` compare JSON values strictly: 200 is not "200"; objects and arrays equal nothing.
 * - `< <= > >=` need numbers on both sides; anything else fails the condition.
 * - `contains`: substring for a string on the left, strict membership for an array on the left.
 * - `len()` counts the characters (code points) of a string, the items of an array, the keys of an object.
 * - `[BODY]` alone is the parsed JSON when the body is JSON, else its text; with a path it needs JSON.
 * - A missing path fails every comparison (even `!=`); `has()` is the way to test presence.
 * - Keys are looked up as own properties only, so `__proto__` or `constructor` never reach a prototype.
 * Results never carry values read from the body, only which condition failed and why.
 */

export const MAX_CONDITIONS = 20
export const MAX_CONDITION_LENGTH = 512
export const MAX_PATH_SEGMENTS = 32

export type Operator = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'contains'
export type Placeholder = 'STATUS' | 'RESPONSE_TIME' | 'BODY'
export type PathSegment = string | number
export type Ref = { kind: 'ref'; source: Placeholder; path: PathSegment[] }
export type Operand = Ref | { kind: 'len'; ref: Ref } | { kind: 'literal'; value: null | boolean | number | string }
export type Condition =
  | { text: string; kind: 'compare'; left: Operand; op: Operator; right: Operand }
  | { text: string; kind: 'has'; ref: Ref }

export interface ConditionError {
  /** Index of the condition in the list. */
  index: number
  /** 0-based character offset inside the condition. */
  position: number
  message: string
}

export type ParseResult = { ok: true; conditions: Condition[] } | { ok: false; errors: ConditionError[] }

class SyntaxFailure extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message)
  }
}

/** Parses a list of conditions; every error comes back with its condition index and position. */
export function parseConditions(texts: readonly string[]): ParseResult {
  if (texts.length > MAX_CONDITIONS) {
    return { ok: false, errors: [{ index: MAX_CONDITIONS, position: 0, message: `at most ${MAX_CONDITIONS} conditions` }] }
  }
  const conditions: Condition[] = []
  const errors: ConditionError[] = []
  texts.forEach((text, index) => {
    try {
      conditions.push(parseCondition(text))
    } catch (error) {
      if (!(error instanceof SyntaxFailure)) throw error
      errors.push({ index, position: error.position, message: error.message })
    }
  })
  return errors.length > 0 ? { ok: false, errors } : { ok: true, conditions }
}

const OPERATORS: Operator[] = ['==', '!=', '<=', '>=', '<', '>']
const KEY = /[\p{L}\p{N}_$-]+/uy
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y
const PLACEHOLDER = /\[([A-Za-z_]+)\]/y
const INDEX = /\[(\d{1,9})\]/y

/** Parses one condition or throws a SyntaxFailure with the offset of the fault. */
export function parseCondition(text: string): Condition {
  if (typeof text !== 'string') throw new SyntaxFailure('a condition must be a string', 0)
  if (text.length > MAX_CONDITION_LENGTH) throw new SyntaxFailure(`a condition is at most ${MAX_CONDITION_LENGTH} characters`, MAX_CONDITION_LENGTH)
  let pos = 0
  const at = (message: string, where = pos): never => {
    throw new SyntaxFailure(`${message} at column ${where + 1}`, where)
  }
  const skipSpace = () => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++
  }
  const match = (pattern: RegExp): RegExpExecArray | null => {
    pattern.lastIndex = pos
    const found = pattern.exec(text)
    if (found) pos = pattern.lastIndex
    return found
  }

  const parseRef = (): Ref => {
    const start = pos
    const placeholder = match(PLACEHOLDER)
    if (!placeholder) return at('expected [STATUS], [RESPONSE_TIME] or [BODY]')
    const name = placeholder[1]!
    if (name !== 'STATUS' && name !== 'RESPONSE_TIME' && name !== 'BODY') {
      return at(`unknown placeholder [${name}]; use [STATUS], [RESPONSE_TIME] or [BODY] (upper case)`, start)
    }
    const path: PathSegment[] = []
    while (pos < text.length && (text[pos] === '.' || text[pos] === '[')) {
      if (name !== 'BODY') at(`[${name}] has no fields; only [BODY] takes a path`)
      if (path.length >= MAX_PATH_SEGMENTS) at(`a path has at most ${MAX_PATH_SEGMENTS} steps`)
      if (text[pos] === '.') {
        pos++
        const key = match(KEY)
        if (!key) at('expected a field name after "."')
        path.push(key![0])
        continue
      }
      const index = match(INDEX)
      if (index) {
        path.push(Number(index[1]))
        continue
      }
      const open = pos
      pos++
      const quoted = match(STRING)
      if (!quoted || text[pos] !== ']') at('expected [number] or ["key"] in the path', open)
      pos++
      path.push(JSON.parse(quoted![0]) as string)
    }
    return { kind: 'ref', source: name, path }
  }

  const parseOperand = (): Operand => {
    skipSpace()
    const start = pos
    if (text[pos] === '[') return parseRef()
    if (text.startsWith('len(', pos)) {
      pos += 4
      skipSpace()
      const ref = parseRef()
      skipSpace()
      if (text[pos] !== ')') at('expected ")" to close len(')
      pos++
      return { kind: 'len', ref }
    }
    const number = match(NUMBER)
    if (number) {
      const value = Number(number[0])
      if (!Number.isFinite(value)) at('number out of range', start)
      return { kind: 'literal', value }
    }
    const quoted = match(STRING)
    if (quoted) return { kind: 'literal', value: JSON.parse(quoted[0]) as string }
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, pos) && !/[\p{L}\p{N}_]/u.test(text[pos + word.length] ?? '')) {
        pos += word.length
        return { kind: 'literal', value }
      }
    }
    if (pos >= text.length) return at('expected a value')
    if (text[pos] === '"') return at('unterminated or invalid string')
    return at('expected a value: [PLACEHOLDER], len(...), a number, "a string" (strings need double quotes), true, false or null')
  }

  const parseOperator = (): Operator => {
    skipSpace()
    for (const op of OPERATORS) {
      if (text.startsWith(op, pos)) {
        pos += op.length
        return op
      }
    }
    if (text.startsWith('contains', pos) && !/[\p{L}\p{N}_]/u.test(text[pos + 8] ?? '')) {
      pos += 8
      return 'contains'
    }
    if (pos >= text.length) return at('expected an operator (== != < <= > >= contains)')
    if (text[pos] === '=') return at('"=" is not an operator; use "=="')
    return at('expected an operator (== != < <= > >= contains)')
  }

  skipSpace()
  let condition: Condition
  if (text.startsWith('has(', pos)) {
    pos += 4
    skipSpace()
    const ref = parseRef()
    skipSpace()
    if (text[pos] !== ')') at('expected ")" to close has(')
    pos++
    condition = { text, kind: 'has', ref }
  } else {
    const left = parseOperand()
    const op = parseOperator()
    const right = parseOperand()
    if (left.kind === 'literal' && right.kind === 'literal') at('a condition must refer to [STATUS], [RESPONSE_TIME] or [BODY]', 0)
    condition = { text, kind: 'compare', left, op, right }
  }
  skipSpace()
  if (pos < text.length) at('unexpected text after the condition')
  return condition
}

/** What a condition is evaluated against. */
export interface ConditionInput {
  status?: number | undefined
  responseTimeMs?: number | null | undefined
  /** The body text (already cut to the size limit) and whether it was cut. */
  body?: { text: string; truncated: boolean } | undefined
}

export type ConditionVerdict = { ok: true } | { ok: false; reason: string }

const MISSING: unique symbol = Symbol('missing')
type Value = unknown | typeof MISSING

/** Evaluates conditions in order; the first failure wins. Parses the body at most once. */
export function evaluateConditions(conditions: readonly Condition[], input: ConditionInput): ConditionVerdict {
  let parsed: { json: unknown; valid: boolean } | undefined
  const bodyJson = () => {
    if (!parsed) {
      try {
        parsed = { json: JSON.parse(input.body?.text ?? ''), valid: true }
      } catch {
        parsed = { json: undefined, valid: false }
      }
    }
    return parsed
  }
  for (const [index, condition] of conditions.entries()) {
    const verdict = evaluateOne(condition, input, bodyJson)
    if (!verdict.ok) return { ok: false, reason: `condition ${index + 1} failed: ${condition.text} (${verdict.reason})` }
  }
  return { ok: true }
}

function evaluateOne(condition: Condition, input: ConditionInput, bodyJson: () => { json: unknown; valid: boolean }): ConditionVerdict {
  const problems: string[] = []
  const resolve = (ref: Ref): Value => {
    if (ref.source === 'STATUS') return input.status ?? MISSING
    if (ref.source === 'RESPONSE_TIME') return input.responseTimeMs ?? MISSING
    const body = bodyJson()
    if (ref.path.length === 0) return body.valid ? body.json : (input.body?.text ?? MISSING)
    if (!body.valid) {
      problems.push(input.body?.truncated ? 'the body is over the size limit, so not parsed as JSON' : 'the body is not valid JSON')
      return MISSING
    }
    return walk(body.json, ref.path)
  }
  const operand = (value: Operand): Value => {
    if (value.kind === 'literal') return value.value
    if (value.kind === 'ref') return resolve(value)
    const inner = resolve(value.ref)
    if (typeof inner === 'string') return [...inner].length
    if (Array.isArray(inner)) return inner.length
    if (isPlainObject(inner)) return Object.keys(inner).length
    if (inner !== MISSING) problems.push('len() needs a string, an array or an object')
    return MISSING
  }
  if (condition.kind === 'has') {
    const found = resolve(condition.ref) !== MISSING
    return found ? { ok: true } : { ok: false, reason: problems[0] ?? 'not present' }
  }
  const left = operand(condition.left)
  const right = operand(condition.right)
  if (left === MISSING || right === MISSING) {
    const which = [condition.left, condition.right].find((side, i) => (i === 0 ? left : right) === MISSING)!
    return { ok: false, reason: problems[0] ?? `${describe(which)} is missing` }
  }
  const pass = compare(left, condition.op, right)
  if (pass === 'type') {
    return { ok: false, reason: condition.op === 'contains' ? 'contains needs a string or an array on the left' : `${condition.op} needs numbers on both sides` }
  }
  if (pass) return { ok: true }
  const side = condition.left.kind === 'literal' ? { operand: condition.right, value: right } : { operand: condition.left, value: left }
  return { ok: false, reason: mismatch(side.operand, side.value, condition.op) }
}

function compare(left: unknown, op: Operator, right: unknown): boolean | 'type' {
  switch (op) {
    case '==':
      return isScalar(left) && isScalar(right) && left === right
    case '!=':
      return !(isScalar(left) && isScalar(right) && left === right)
    case 'contains':
      if (typeof left === 'string') return typeof right === 'string' && left.includes(right)
      if (Array.isArray(left)) return isScalar(right) && left.some((item) => item === right)
      return 'type'
    default: {
      if (typeof left !== 'number' || typeof right !== 'number') return 'type'
      if (op === '<') return left < right
      if (op === '<=') return left <= right
      if (op === '>') return left > right
      return left >= right
    }
  }
}

/** Follows a path through parsed JSON using own properties only. */
function walk(root: unknown, path: readonly PathSegment[]): Value {
  let current: unknown = root
  for (const step of path) {
    if (typeof step === 'number') {
      if (!Array.isArray(current) || step >= current.length) return MISSING
      current = current[step]
    } else {
      if (!isPlainObject(current) || !Object.hasOwn(current, step)) return MISSING
      current = current[step]
    }
  }
  return current
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isScalar(value: unknown): value is null | boolean | number | string {
  return value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string'
}

function describe(operand: Operand): string {
  if (operand.kind === 'literal') return JSON.stringify(operand.value)
  const ref = operand.kind === 'len' ? operand.ref : operand
  const path = ref.path.map((step) => (typeof step === 'number' ? `[${step}]` : /^[\p{L}\p{N}_$-]+$/u.test(step) ? `.${step}` : `[${JSON.stringify(step)}]`)).join('')
  const text = `[${ref.source}]${path}`
  return operand.kind === 'len' ? `len(${text})` : text
}

/** Why a comparison failed: the value of [STATUS], [RESPONSE_TIME] and len(), only the type of anything from the body. */
function mismatch(operand: Operand, value: unknown, op: Operator): string {
  if (operand.kind === 'len' || (operand.kind === 'ref' && operand.source !== 'BODY')) return `${describe(operand)} was ${String(value)}`
  const type = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`
  return `${describe(operand)} is ${type} that ${op === 'contains' ? 'does not contain it' : 'does not match'}`
}
