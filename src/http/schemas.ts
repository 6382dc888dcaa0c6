/**
 * Schemas shared by every JSON API (the error body, numeric ids in paths) and the two helpers that
 * make a schema a named model of the OpenAPI document: `namedModels` for a plugin's `.model(...)`,
 * `modelRef` to use one in a route with its static type.
 */
import { t, type Static, type TSchema } from 'elysia'

/**
 * Marks schemas as named models. A plugin registers them with `.model(namedModels({...}))`; the
 * OpenAPI document then lists them under `components.schemas` and routes `$ref` them. The `$id` is
 * set here, not enumerable: Elysia would add an enumerable one, which @elysiajs/swagger copies into
 * the document, where an `$id` would change the base against which every `$ref` inside resolves.
 */
export function namedModels<const Models extends Record<string, TSchema>>(models: Models): Models {
  for (const [name, schema] of Object.entries(models)) {
    Object.defineProperty(schema, '$id', { value: `#/components/schemas/${name}`, enumerable: false, writable: true, configurable: true })
  }
  return models
}

/** A `$ref` to a model registered with `namedModels`, typed as the model's schema. */
export function modelRef<Models extends Record<string, TSchema>, Name extends keyof Models & string>(_models: Models, name: Name) {
  return t.Unsafe<Static<Models[Name]>>(t.Ref(name))
}

/** A text field whose error text states the schema's own limit, so the two cannot drift apart. */
export const boundedText = (field: string, maxLength: number) =>
  t.String({ maxLength, error: `${field} must be a string of at most ${maxLength} characters` })

/** The same for a text field that may be null. */
export const nullableBoundedText = (field: string, maxLength: number) =>
  t.Nullable(t.String({ maxLength }), { error: `${field} must be a string of at most ${maxLength} characters or null` })

/**
 * An answer that is not JSON: a string whose media type the OpenAPI document states
 * (`contentMediaType`, the JSON Schema keyword for it; see src/http/openapi.ts).
 */
export const textAnswer = (mediaType: string, description: string) => t.String({ description, contentMediaType: mediaType })

/** An HTML page (the site's pages, the user area, previews). */
export const HtmlPage = textAnswer('text/html', 'An HTML page')

/**
 * The request body of an upload read by the route itself (`parse: 'none'`), for `detail.requestBody`:
 * a multipart form with the file in `field`, or the file's bytes as the body with its own media type.
 */
export function uploadBody(description: string, mediaTypes: readonly string[], field = 'file') {
  const file = { type: 'string' as const, contentMediaType: 'application/octet-stream', description: 'The file' }
  return {
    required: true,
    description,
    content: {
      'multipart/form-data': { schema: { type: 'object' as const, required: [field], properties: { [field]: file } } },
      ...Object.fromEntries(mediaTypes.map((type) => [type, { schema: { type: 'string' as const, contentMediaType: type } }])),
    },
  }
}

export const ErrorBody = t.Object({ error: t.String() }, { description: 'What went wrong, for people' })

/** Models every JSON API plugin registers next to its own: the error body. */
export const sharedModels = namedModels({ Error: ErrorBody })

/**
 * A row id in a body. Bounded like the path's id: PostgreSQL's bigint refuses 1e308 where SQLite
 * compared it as a real, so an unbounded id became a 500 there instead of a 400.
 */
export const entityId = (error: string) => t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error })

export const IdParams = t.Object({
  id: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: 'id must be a positive integer' }),
})

/**
 * Error answers of a management route, by reference to the `Error` model (register `sharedModels`).
 * The OpenAPI document keeps those that can happen (src/http/openapi-operations.ts: no 403 on a
 * read, no 404 where nothing names a resource). A route that can conflict adds `conflictResponse`.
 */
export const errorResponses = {
  400: 'Error',
  401: 'Error',
  403: 'Error',
  404: 'Error',
} as const

/** The answer of a route that can conflict with the current state (a slug taken, a transfer already decided). */
export const conflictResponse = { 409: 'Error' } as const
