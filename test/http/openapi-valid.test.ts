/**
 * `/swagger/json` is a valid OpenAPI document of the version it declares (checked by a real
 * validator, offline), and it lists every route a client can call: those of the service host and
 * those of the status hosts (`<slug>.<STATUS_DOMAIN>` and custom domains).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020'
import { statusSiteApp } from '../../src/modules/status-site/index.ts'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'

let ctx: TestContext
let doc: any

beforeAll(async () => {
  ctx = await createTestContext()
  doc = await json(await ctx.request('/swagger/json'))
})
afterAll(() => ctx.close())

test('the document validates as the OpenAPI version it declares', async () => {
  expect(doc.openapi).toMatch(/^3\.1\.\d+$/)
  const result = await new Validator({ allErrors: true }).validate(structuredClone(doc))
  // The first few errors are enough to see what is wrong.
  expect(Array.isArray(result.errors) ? result.errors.slice(0, 5) : result.errors).toBeUndefined()
  expect(result.valid).toBe(true)
})

/** Every Schema Object of the document, with where it is. */
function* schemaObjects(value: unknown, path: string): Generator<[object, string]> {
  if (value === null || typeof value !== 'object') return
  for (const [key, child] of Object.entries(value)) {
    if (key === 'schema' && child !== null && typeof child === 'object') yield [child, `${path}/${key}`]
    else yield* schemaObjects(child, `${path}/${key}`)
  }
}

test('every schema is valid JSON Schema 2020-12 (the dialect of OpenAPI 3.1)', () => {
  // The OpenAPI validator checks only that a Schema Object is an object; the meta-schema checks the rest.
  const ajv = new Ajv2020({ strict: false, validateFormats: false })
  const schemas = [...schemaObjects(doc.paths, '/paths'), ...Object.entries<object>(doc.components.schemas).map(([name, schema]) => [schema, name] as [object, string])]
  expect(schemas.length).toBeGreaterThan(100)
  const invalid = schemas.filter(([schema]) => !ajv.validateSchema(schema)).map(([, path]) => path)
  expect(invalid).toEqual([])
})

test('every response says what it is (OpenAPI requires a description)', () => {
  const missing: string[] = []
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      if (typeof operation !== 'object' || !operation.responses) continue
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        if (typeof response.description !== 'string' || response.description === '') missing.push(`${method} ${path} ${status}`)
      }
    }
  }
  expect(missing).toEqual([])
})

test('each answer has the media type it is sent with, not the plugin default of three', async () => {
  const typesOf = (path: string, method: string, status: string) => Object.keys(doc.paths[path][method].responses[status].content ?? {})
  expect(typesOf('/user/api/v1/status-pages/{id}', 'get', '200')).toEqual(['application/json'])
  expect(typesOf('/user/api/v1/status-pages/{id}', 'get', '404')).toEqual(['application/json'])
  expect(typesOf('/changelog.atom', 'get', '200')).toEqual(['application/atom+xml'])
  expect(typesOf('/badge/{slug}', 'get', '200')).toEqual(['image/svg+xml'])
  expect(typesOf('/static/embed/v1/status.js', 'get', '200')).toEqual(['text/javascript'])
  expect(typesOf('/user/api/v1/status-pages/{id}/sla.csv', 'get', '200')).toEqual(['text/csv'])
  expect(Object.keys(doc.paths['/user/api/v1/status-pages'].post.requestBody.content)).toEqual(['application/json'])
  // What the document says is what the wire says.
  const feed = await ctx.request('/changelog.atom')
  expect(feed.headers.get('content-type')).toStartWith('application/atom+xml')
})

test('pages and forms for people are not in the API reference: no operation answers HTML (but for a not-found page)', () => {
  const html: string[] = []
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
        if (status !== '404' && Object.keys(response.content ?? {}).some((type) => type === 'text/html')) html.push(`${method.toUpperCase()} ${path} ${status}`)
      }
    }
  }
  expect(html).toEqual([])
  for (const path of ['/', '/user', '/user/login', '/user/pages/{id}', '/docs/{slug}', '/swagger', '/embed/preview', '/analytics/{id}', '/history', '/subscribe']) {
    expect(doc.paths[path] === undefined ? path : `${path} is listed`).toBe(path)
  }
})

/** The status site's own list of routes, built as the app builds it. */
function statusSiteRoutes(): Array<{ method: string; path: string; hidden: boolean }> {
  const app = statusSiteApp({ service: {} as never, access: {} as never, config: { scheme: 'https' }, logError: () => {} })
  return app.routes.map((route) => ({
    method: route.method.toLowerCase(),
    path: route.path.replace(/:(\w+)/g, '{$1}'),
    hidden: (route.hooks.detail as { hide?: boolean } | undefined)?.hide === true,
  }))
}

test('every machine-read route of the status hosts is in the document, marked as answered there', () => {
  const routes = statusSiteRoutes()
  const listed = routes.filter((route) => !route.hidden).map((route) => route.path)
  // The Statuspage-shaped JSON and the feeds are among them; the pages are not.
  for (const path of ['/api/v2/summary.json', '/api/v2/status.json', '/history.rss', '/history.atom']) expect(listed).toContain(path)
  for (const path of ['/', '/history', '/incidents/{id}']) expect(listed).not.toContain(path)
  const absent: string[] = []
  for (const { method, path } of routes.filter((route) => !route.hidden)) {
    const operation = doc.paths[path]?.[method]
    const onStatusHost = operation?.servers?.some((server: any) => server.url.includes('status.test')) || /status host/i.test(operation?.description ?? '')
    if (!operation || !onStatusHost) absent.push(`${method.toUpperCase()} ${path}`)
  }
  expect(absent).toEqual([])
  expect(doc.servers?.[0]?.url).toBe('https://lantern.test')
})
