/**
 * Examples of the document: each JSON request body and JSON success answer gets one, built from
 * its schema. A schema's own `examples` (or `const`, `enum`, `default`) win; then a few field
 * names that mean the same everywhere (`id`, `slug`, `email`, `*_at`…); then a plain value of the
 * type within its limits. A string with a `pattern` and no example gives none (it cannot be guessed):
 * the route gives one with `examples`.
 */

type Schema = Record<string, unknown>
type Components = Record<string, unknown>

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The example of a schema, or undefined when none can be made. */
export function exampleOf(schema: unknown, components: Components, name = '', depth = 0): unknown {
  if (!isObject(schema) || depth > 12) return undefined
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if ('example' in schema) return schema.example
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  if ('default' in schema && schema.default !== null) return schema.default
  if (typeof schema.$ref === 'string') {
    const target = components[schema.$ref.replace('#/components/schemas/', '')]
    return exampleOf(target, components, name, depth + 1)
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key]
    if (!Array.isArray(branches)) continue
    // The first branch that is not null: an example shows a value.
    for (const branch of branches) {
      if (isObject(branch) && branch.type === 'null') continue
      const value = exampleOf(branch, components, name, depth + 1)
      if (value !== undefined) return value
    }
    return branches.some((branch) => isObject(branch) && branch.type === 'null') ? null : undefined
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => exampleOf(part, components, name, depth + 1))
    return parts.every(isObject) ? Object.assign({}, ...parts) : undefined
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type) {
    case 'object':
      return objectExample(schema, components, depth)
    case 'array': {
      if (schema.maxItems === 0) return []
      const item = exampleOf(schema.items, components, singular(name), depth + 1)
      return item === undefined ? undefined : [item]
    }
    case 'string':
      return stringExample(schema, name)
    case 'integer':
    case 'number':
      return numberExample(schema, type)
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return undefined
  }
}

function objectExample(schema: Schema, components: Components, depth: number): Schema | undefined {
  const properties = isObject(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? schema.required : [])
  const out: Schema = {}
  for (const [key, property] of Object.entries(properties)) {
    // Optional fields only when they say what they hold: an example shows what matters.
    if (!required.has(key) && !(isObject(property) && Array.isArray(property.examples))) continue
    const value = exampleOf(property, components, key, depth + 1)
    if (value === undefined) {
      if (required.has(key)) return undefined
      continue
    }
    out[key] = value
  }
  return out
}

const singular = (name: string): string => (name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('s') ? name.slice(0, -1) : name)

/** Strings whose meaning the field name gives, whatever the route. */
function namedString(name: string): string | undefined {
  if (/(_at|_since|_from|_to)$/.test(name) || ['at', 'since', 'until', 'from', 'to', 'started', 'updated'].includes(name)) return '2026-11-27T12:00:00.000Z'
  if (name === 'date' || name.endsWith('_date')) return '2026-11-27'
  if (name === 'email' || name.endsWith('_email')) return 'ops@example.com'
  if (name === 'url' || name.endsWith('_url')) return 'https://example.com/'
  if (name === 'custom_domain' || name === 'domain' || name === 'host') return 'status.example.com'
  if (name === 'slug' || name.endsWith('_slug') || name === 'page') return 'acme'
  if (name === 'name' || name.endsWith('_name')) return 'Acme API'
  if (name === 'label' || name === 'group') return 'Backend'
  if (name === 'title') return 'API errors'
  if (name === 'message' || name === 'body' || name === 'summary' || name.endsWith('_message')) return 'We are looking into it.'
  if (name === 'region') return 'eu'
  if (['primary', 'secondary', 'accent', 'background', 'surface', 'text', 'muted', 'border', 'onPrimary'].includes(name)) return '#1f6feb'
  if (name === 'error') return 'name must be a string of at most 100 characters'
  return undefined
}

function stringExample(schema: Schema, name: string): string | undefined {
  if (typeof schema.pattern === 'string') return undefined
  const format = schema.format
  let value =
    format === 'date-time' ? '2026-11-27T12:00:00.000Z'
    : format === 'date' ? '2026-11-27'
    : format === 'email' ? 'ops@example.com'
    : format === 'uri' || format === 'url' ? 'https://example.com/'
    : namedString(name) ?? 'text'
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity
  if (value.length > max) value = 'x'.repeat(Math.max(min, Math.min(max, 1)))
  if (value.length < min) value = value.padEnd(min, 'x')
  return value
}

function numberExample(schema: Schema, type: 'integer' | 'number'): number {
  const low = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined
  const high = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : undefined
  // Ids and counts are small positive numbers; a limit decides the rest.
  let value = 1
  if (low !== undefined && value < low) value = low
  if (high !== undefined && value > high) value = high
  return type === 'integer' ? Math.ceil(value) : value
}
