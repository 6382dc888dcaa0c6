/**
 * A schema validation error (TypeBox's, which Elysia reports too) as one sentence about the field:
 * the schema's own `error` text when it has one, else a sentence built from the schema's rule
 * ("name must be at most 100 characters"), never TypeBox's "Expected string length less or equal
 * to 100". The API's 400s (src/http/errors.ts) and the web app's forms (kit/forms.ts) both use it.
 */
import { ValueErrorType } from '@sinclair/typebox/errors'

/** The parts of a TypeBox ValueError this reads. */
export interface SchemaError {
  type?: number
  schema?: { error?: unknown; [keyword: string]: unknown }
  value?: unknown
  message?: string
}

type Schema = Record<string, unknown>

const FORMATS: Record<string, string> = {
  'date-time': 'a date and time such as 2026-11-27T14:05:00Z',
  date: 'a date such as 2026-11-27',
  email: 'an email address',
  uri: 'an absolute URL',
  url: 'an absolute URL',
}

const quoted = (value: unknown) => (typeof value === 'string' ? `"${value}"` : String(value))

/** Literal values a schema allows, when it is a literal or a union of literals (an enum). */
function literals(schema: Schema): unknown[] | undefined {
  if ('const' in schema) return [schema.const]
  if (Array.isArray(schema.enum)) return schema.enum
  const members = Array.isArray(schema.anyOf) ? (schema.anyOf as Schema[]) : undefined
  if (!members) return undefined
  const all = members.filter((member) => member.type !== 'null').map(literals)
  return all.every((values) => values !== undefined) ? all.flat() : undefined
}

const oneOf = (values: unknown[]) => (values.length === 1 ? quoted(values[0]) : values.length === 2 ? `${quoted(values[0])} or ${quoted(values[1])}` : `one of ${values.map((v) => String(v)).join(', ')}`)

function range(min: unknown, max: unknown, unit = ''): string {
  const suffix = unit ? ` ${unit}` : ''
  if (typeof min === 'number' && typeof max === 'number') return `from ${min} to ${max}${suffix}`
  if (typeof min === 'number') return `at least ${min}${suffix}`
  return `at most ${String(max)}${suffix}`
}

/** What a value of `schema` is, as a noun phrase ("a whole number", "a list", "text"). */
function kind(schema: Schema): string {
  const values = literals(schema)
  if (values) return oneOf(values)
  if (Array.isArray(schema.anyOf)) {
    const members = schema.anyOf as Schema[]
    // Elysia's numeric and boolean forms are unions with a string spelling of the same thing.
    const nonNull = members.filter((member) => member.type !== 'null')
    const inner = nonNull.find((member) => member.type !== 'string') ?? nonNull[0]
    const base = inner ? kind(inner) : 'a value'
    return nonNull.length < members.length ? `${base} or null` : base
  }
  switch (schema.type) {
    case 'integer':
      return 'a whole number'
    case 'number':
      return 'a number'
    case 'boolean':
      return 'true or false'
    case 'array':
      return 'a list'
    case 'object':
      return 'an object'
    case 'null':
      return 'null'
    case 'string':
      return typeof schema.format === 'string' && FORMATS[schema.format] ? FORMATS[schema.format]! : 'text'
    default:
      return 'a valid value'
  }
}

/** One sentence about `field` for a schema error (`field` already reads as the API names it). */
export function schemaErrorSentence(field: string, error: SchemaError): string {
  const schema = (error.schema ?? {}) as Schema
  if (error.value === undefined) return `${field} is required`
  if (typeof schema.error === 'string') return schema.error
  switch (error.type) {
    case ValueErrorType.StringMaxLength:
      return `${field} must be at most ${String(schema.maxLength)} characters`
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? `${field} must not be empty` : `${field} must be at least ${String(schema.minLength)} characters`
    case ValueErrorType.StringPattern:
      return `${field} is not in the expected form`
    case ValueErrorType.StringFormat:
    case ValueErrorType.StringFormatUnknown:
      return `${field} must be ${kind(schema)}`
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.IntegerMinimum:
      return `${field} must be ${kind(schema)} ${range(schema.minimum, schema.maximum)}`
    case ValueErrorType.NumberExclusiveMaximum:
    case ValueErrorType.IntegerExclusiveMaximum:
      return `${field} must be below ${String(schema.exclusiveMaximum)}`
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMinimum:
      return `${field} must be above ${String(schema.exclusiveMinimum)}`
    case ValueErrorType.NumberMultipleOf:
    case ValueErrorType.IntegerMultipleOf:
      return `${field} must be a multiple of ${String(schema.multipleOf)}`
    case ValueErrorType.ArrayMaxItems:
    case ValueErrorType.ArrayMinItems:
      return `${field} must list ${range(schema.minItems, schema.maxItems, 'items')}`
    case ValueErrorType.ArrayUniqueItems:
      return `${field} must not list the same item twice`
    case ValueErrorType.ObjectAdditionalProperties:
      return `${field} is not a field of this request`
    case ValueErrorType.ObjectMaxProperties:
    case ValueErrorType.ObjectMinProperties:
      return `${field} must have ${range(schema.minProperties, schema.maxProperties, 'entries')}`
    case ValueErrorType.Never:
      return `${field} is not a field of this request`
    default:
      return `${field} must be ${kind(schema)}`
  }
}
