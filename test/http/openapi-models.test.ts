/**
 * The OpenAPI document names the resources once (`components.schemas`) and the operations `$ref`
 * them; every custom validation text states the limit its schema enforces.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'

let ctx: TestContext
let doc: any

beforeAll(async () => {
  ctx = await createTestContext()
  doc = await json(await ctx.request('/swagger/json'))
})
afterAll(() => ctx.close())

const MODELS = ['StatusPage', 'Component', 'StatusChange', 'Incident', 'IncidentTemplate', 'Maintenance', 'ApiKey', 'ShareToken', 'AnalyticsReport', 'Branding', 'PageAccess', 'Image', 'Error']
const ref = (name: string) => `#/components/schemas/${name}`
const jsonSchema = (operation: any, status: string) => operation.responses[status].content['application/json'].schema

/** Every node of a JSON value, with its path. */
function* walk(value: unknown, path = ''): Generator<[any, string]> {
  if (value === null || typeof value !== 'object') return
  yield [value, path]
  for (const [key, child] of Object.entries(value)) yield* walk(child, `${path}/${key}`)
}

describe('named models', () => {
  test('the main resources and the error body are components of the document', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(MODELS))
    expect(doc.components.schemas.StatusPage.properties).toHaveProperty('custom_domain')
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] })
    expect(doc.components.securitySchemes).toHaveProperty('bearerAuth')
  })

  test('operations reference them instead of repeating them', () => {
    const pages = doc.paths['/user/api/v1/status-pages/{id}']
    expect(jsonSchema(pages.get, '200').properties.data).toEqual({ $ref: ref('StatusPage') })
    expect(jsonSchema(pages.patch, '404')).toEqual({ $ref: ref('Error') })
    expect(pages.patch.responses['404'].description).toMatch(/^Not found/)
    expect(jsonSchema(doc.paths['/user/api/v1/status-pages'].get, '200').properties.data.items).toEqual({ $ref: ref('StatusPage') })
    expect(jsonSchema(doc.paths['/user/api/v1/status-pages/{id}/components'].get, '200').properties.data.items).toEqual({ $ref: ref('Component') })
    expect(jsonSchema(doc.paths['/user/api/v1/components/{id}/history'].get, '200').properties.data.items).toEqual({ $ref: ref('StatusChange') })
    expect(jsonSchema(doc.paths['/user/api/v1/incidents/{id}'].get, '200').properties.data).toEqual({ $ref: ref('Incident') })
    expect(jsonSchema(doc.paths['/user/api/v1/incident-templates/{id}'].get, '200').properties.data).toEqual({ $ref: ref('IncidentTemplate') })
    expect(jsonSchema(doc.paths['/user/api/v1/maintenances/{id}'].get, '200').properties.data).toEqual({ $ref: ref('Maintenance') })
    expect(jsonSchema(doc.paths['/user/api/v1/api-keys'].get, '200').properties.data.items).toEqual({ $ref: ref('ApiKey') })
    expect(jsonSchema(doc.paths['/user/analytics/{id}/tokens'].get, '200').properties.data.items).toEqual({ $ref: ref('ShareToken') })
    expect(jsonSchema(doc.paths['/api/analytics/status-pages/{id}'].get, '200').properties.data).toEqual({ $ref: ref('AnalyticsReport') })
    expect(jsonSchema(doc.paths['/user/api/v1/status-pages/{id}/branding'].patch, '200').properties.data).toEqual({ $ref: ref('Branding') })
    expect(jsonSchema(doc.paths['/user/api/v1/status-pages/{id}/access'].put, '200').properties.data).toEqual({ $ref: ref('PageAccess') })
    expect(jsonSchema(doc.paths['/user/api/v1/status-pages/{id}/logo'].put, '200').properties.data).toEqual({ $ref: ref('Image') })
  })

  test('every model is used, every $ref resolves, and no $id leaks into the document (it would rebase the $refs inside)', () => {
    const refs = new Set<string>()
    for (const [node, path] of walk(doc)) {
      expect(Object.hasOwn(node, '$id') ? path : undefined).toBeUndefined()
      if (typeof node.$ref === 'string') refs.add(node.$ref)
    }
    for (const target of refs) expect(target.startsWith('#/components/schemas/') && target.slice(21) in doc.components.schemas ? target : `unresolved ${target}`).toBe(target)
    for (const name of MODELS) expect(refs.has(ref(name)) ? name : `unused ${name}`).toBe(name)
  })

  test('the answers still carry exactly the model fields', async () => {
    const { key } = await ctx.createOwner()
    const page = await ctx.createPage(key, { slug: 'models', name: 'Models' })
    const answer = await json(await ctx.request(`/user/api/v1/status-pages/${page.id}`, { key }))
    expect(Object.keys(answer.data).sort()).toEqual(Object.keys(doc.components.schemas.StatusPage.properties).sort())
  })
})

/** The limits a schema node enforces, looking through nullable and coerced (anyOf) wrappers. */
function limitsOf(node: any): { max: number[]; min: number[] } {
  const nodes = [node, ...(node.anyOf ?? []), ...(node.oneOf ?? [])]
  const max = nodes.flatMap((n) => [n.maxLength, n.maxItems, n.maximum].filter((v) => typeof v === 'number'))
  const min = nodes.flatMap((n) => [n.minLength, n.minItems, n.minimum].filter((v) => typeof v === 'number'))
  return { max, min }
}

test('every validation text that states a limit states the limit of its schema', () => {
  // The texts are the server's (the document leaves them out): read the routes' own schemas.
  const checked: string[] = []
  const disagreeing: string[] = []
  for (const route of [...ctx.app.routes.service, ...ctx.app.routes.statusHost]) {
    for (const part of ['body', 'query', 'params'] as const) {
      for (const [node, path] of walk(route.hooks[part], `${route.method} ${route.path} ${part}`)) {
        if (typeof node.error !== 'string') continue
        const { max, min } = limitsOf(node)
        const atMost = /at most (\d+)/.exec(node.error)
        const fromTo = /from (\d+(?:\.\d+)?) to (\d+(?:\.\d+)?)/.exec(node.error)
        if (atMost) {
          checked.push(node.error)
          if (!max.includes(Number(atMost[1]))) disagreeing.push(`${path}: "${node.error}" but the schema allows ${max.join('/') || 'any length'}`)
        }
        if (fromTo) {
          checked.push(node.error)
          if (!min.includes(Number(fromTo[1])) || !max.includes(Number(fromTo[2]))) disagreeing.push(`${path}: "${node.error}" but the schema allows ${min}..${max}`)
        }
      }
    }
  }
  expect(disagreeing).toEqual([])
  // The walk found the texts it is meant to check (names, titles, messages, labels, lists, limits).
  for (const text of [
    'name must be a string of at most 100 characters',
    'title must be a string of at most 200 characters',
    'message must be a string of at most 10000 characters',
    'label must be a string of at most 100 characters',
    'component_ids must be an array of at most 100 component ids',
    'limit must be an integer from 1 to 200',
  ]) expect(checked).toContain(text)
})
