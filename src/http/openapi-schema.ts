/**
 * Schemas as the OpenAPI document shows them. Routes declare Elysia `t` schemas, which carry what
 * the server needs to validate and coerce; a client needs the contract. So every schema of the
 * document is rewritten here, whichever route declared it:
 * - the validation text (`error`) is the server's own: it stays out (OpenAPI has no such keyword);
 * - `nullable` is OpenAPI 3.0: in 3.1 a value that may be null is a union with `type: 'null'`;
 * - a value Elysia also accepts as a string (`t.Numeric`, `t.Integer`, `t.BooleanString`,
 *   `t.ObjectString`, `t.ArrayString`) is a union with a string branch and a `default`: the
 *   document shows the value itself (an id is an integer, not `string | number`);
 * - a number that must be a whole number (`multipleOf: 1`) is an integer.
 */

type Schema = Record<string, unknown>

/** Keywords that are the server's business, not JSON Schema's. */
const SERVER_ONLY = ['error', 'nullable'] as const

/** The `format` Elysia gives the string branch of a coercing union. */
const COERCED_FROM_STRING = new Set(['numeric', 'integer', 'boolean', 'ObjectString', 'ArrayString'])

/** Keywords whose value is one schema. */
const ONE_SCHEMA = ['items', 'not', 'if', 'then', 'else', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema']
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems']
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas']

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value)

/** True for the string branch Elysia adds so that a path, query or form value can be coerced. */
const isCoercionBranch = (branch: unknown): boolean =>
  isObject(branch) && branch.type === 'string' && typeof branch.format === 'string' && COERCED_FROM_STRING.has(branch.format)

/** The schema as the document shows it (a new object; the route's schema is not touched). */
export function documentSchema(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(documentSchema)
  if (!isObject(input)) return input
  let schema: Schema = { ...input }
  const nullable = schema.nullable === true
  for (const key of SERVER_ONLY) delete schema[key]

  const union = schema.anyOf
  if (Array.isArray(union) && union.length === 2 && union.some(isCoercionBranch) && !union.every(isCoercionBranch)) {
    const { anyOf: _, ...outer } = schema
    const value = union.find((branch) => !isCoercionBranch(branch)) as Schema
    schema = { ...outer, ...value }
    for (const key of SERVER_ONLY) delete schema[key]
  }
  if (schema.type === 'number' && schema.multipleOf === 1) {
    schema.type = 'integer'
    delete schema.multipleOf
  }
  if (nullable && !allowsNull(schema)) schema = { anyOf: [schema, { type: 'null' }] }

  for (const key of ONE_SCHEMA) if (isObject(schema[key])) schema[key] = documentSchema(schema[key])
  for (const key of SCHEMA_LIST) if (Array.isArray(schema[key])) schema[key] = (schema[key] as unknown[]).map(documentSchema)
  for (const key of SCHEMA_MAP) {
    if (!isObject(schema[key])) continue
    schema[key] = Object.fromEntries(Object.entries(schema[key]).map(([name, child]) => [name, documentSchema(child)]))
  }
  return schema
}

function allowsNull(schema: Schema): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true
  const branches = [...((schema.anyOf as unknown[]) ?? []), ...((schema.oneOf as unknown[]) ?? [])]
  return branches.some((branch) => isObject(branch) && allowsNull(branch))
}
