/**
 * The document says what the server does, for every operation it lists, whoever added the route:
 * each operation of the service host is called (its path parameters, query and body from the
 * document's own examples) without credentials, with an owner's key on ids nobody has, and with an
 * id that is not an id. Every answer's status is one the operation documents, an error answer is
 * the shared Error body, an operation with `security` answers 401 without credentials and a
 * public one (`security: []`) does not. A failure names the operation and what it answered.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, type TestContext } from '../helpers/context.ts'
import { createAddressGuard } from '../../src/lib/address-guard.ts'
import { ManualClock } from '../helpers/clock.ts'

let ctx: TestContext
let doc: any
let key: string

const METHODS = ['get', 'put', 'post', 'delete', 'patch']

beforeAll(async () => {
  // Lookups and checks answer at once without the network: no resolver, no address for any name.
  ctx = await createTestContext({ checkDeps: { guard: createAddressGuard({ resolve: async () => [], allowPrivate: false }), clock: new ManualClock(), dnsServers: [] } })
  doc = await (await ctx.request('/swagger/json')).json()
  ;({ key } = await ctx.createOwner())
})
afterAll(() => ctx.close())

interface Operation {
  method: string
  path: string
  operation: any
}

/** The operations of the service host (status-host operations carry their own server). */
function serviceOperations(): Operation[] {
  const out: Operation[] = []
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of METHODS) if (item[method] && !item[method].servers) out.push({ method, path, operation: item[method] })
  }
  return out
}

/** The URL and request of an operation with every path parameter set to `id` (or the example). */
function requestFor({ method, path, operation }: Operation, id: string, credentials: string | undefined): [string, RequestInit & { key?: string }] {
  let url = path
  const query = new URLSearchParams()
  for (const parameter of operation.parameters ?? []) {
    const value = parameter.schema?.type === 'integer' ? id : String(parameter.example ?? parameter.schema?.examples?.[0] ?? 'unknown')
    if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(value))
    else if (parameter.in === 'query' && parameter.required) query.set(parameter.name, value)
  }
  if (query.size) url += `?${query}`
  const content = operation.requestBody?.content ?? {}
  const init: RequestInit & { key?: string; json?: unknown } = { method: method.toUpperCase(), key: credentials }
  if (content['application/json']) init.json = content['application/json'].example ?? {}
  else if (Object.keys(content).length) {
    const type = Object.keys(content).find((name) => name !== 'multipart/form-data') ?? 'application/octet-stream'
    init.headers = { 'content-type': type }
    init.body = new Uint8Array([0x89, 0x50, 0x4e, 0x47])
  }
  return [url, init]
}

async function call(target: Operation, id: string, credentials: string | undefined): Promise<{ status: number; body: string; type: string }> {
  const [url, init] = requestFor(target, id, credentials)
  const response = await ctx.request(url, init)
  return { status: response.status, body: (await response.text()).slice(0, 200), type: response.headers.get('content-type') ?? '' }
}

/** What is wrong with an answer, or undefined. */
function judge(target: Operation, answer: { status: number; body: string; type: string }, situation: string): string | undefined {
  const documented = Object.keys(target.operation.responses)
  const label = `${target.method.toUpperCase()} ${target.path} ${situation}`
  if (!documented.includes(String(answer.status))) return `${label}: answered ${answer.status} ${answer.body}; the document lists ${documented.join(', ')}`
  const response = target.operation.responses[answer.status]
  if (response.content?.['application/json']?.schema?.$ref === '#/components/schemas/Error') {
    let parsed: unknown
    try {
      parsed = JSON.parse(answer.body)
    } catch {}
    if (typeof (parsed as { error?: unknown } | undefined)?.error !== 'string') return `${label}: answered ${answer.status} with ${answer.type} ${answer.body}, not the Error body`
  }
  return undefined
}

test('without credentials: secured operations answer 401, public ones never do, and every status is documented', async () => {
  const operations = serviceOperations()
  expect(operations.length).toBeGreaterThan(80)
  const wrong: string[] = []
  for (const target of operations) {
    const answer = await call(target, '1', undefined)
    const secured = target.operation.security.length > 0
    if (secured && answer.status !== 401) wrong.push(`${target.method.toUpperCase()} ${target.path}: has security but answered ${answer.status} ${answer.body} without credentials`)
    if (!secured && answer.status === 401 && !target.operation.responses['401']) wrong.push(`${target.method.toUpperCase()} ${target.path}: is public (security: []) but answered 401`)
    const problem = judge(target, answer, 'without credentials')
    if (problem) wrong.push(problem)
  }
  expect(wrong).toEqual([])
}, 120_000)

test("with an owner's key on ids nobody has, and with an id that is not one: every status is documented", async () => {
  const wrong: string[] = []
  // Only operations that name an id: nothing is created, sent or looked up.
  for (const target of serviceOperations().filter((op) => op.operation.security.some((r: object) => 'bearerAuth' in r))) {
    const integerParams = (target.operation.parameters ?? []).filter((p: any) => p.in === 'path' && p.schema?.type === 'integer')
    if (!integerParams.length) continue
    const nobodys = await call(target, '987654', key)
    const problem = judge(target, nobodys, "on an id nobody has")
    if (problem) wrong.push(problem)
    if (![404, 403].includes(nobodys.status) && !(target.method !== 'get' && nobodys.status === 400)) {
      wrong.push(`${target.method.toUpperCase()} ${target.path}: answered ${nobodys.status} ${nobodys.body} for an id nobody has`)
    }
    const notAnId = await call(target, '0', key)
    const invalid = judge(target, notAnId, 'with id 0')
    if (invalid) wrong.push(invalid)
    if (notAnId.status !== 400) wrong.push(`${target.method.toUpperCase()} ${target.path}: answered ${notAnId.status} for id 0, not 400`)
  }
  expect(wrong).toEqual([])
}, 120_000)

test('every operation has a summary, a description, declared tags, its security, and examples of its JSON body and answer', () => {
  const declaredTags = new Set(doc.tags.map((tag: { name: string }) => tag.name))
  const missing: string[] = []
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method]
      if (!operation) continue
      const label = `${method.toUpperCase()} ${path}`
      if (!operation.summary) missing.push(`${label}: no summary (detail.summary)`)
      if (!operation.description) missing.push(`${label}: no description`)
      if (!Array.isArray(operation.security)) missing.push(`${label}: no security`)
      for (const tag of operation.tags ?? []) if (!declaredTags.has(tag)) missing.push(`${label}: tag "${tag}" is not in TAGS (src/http/openapi.ts)`)
      const body = operation.requestBody?.content?.['application/json']
      if (body && body.example === undefined) missing.push(`${label}: no example of the JSON body (give the field with a pattern \`examples\`)`)
      const success = Object.entries<any>(operation.responses).find(([status]) => status.startsWith('2'))?.[1]
      const answer = success?.content?.['application/json']
      if (answer && answer.example === undefined) missing.push(`${label}: no example of the JSON answer (give the field with a pattern \`examples\`)`)
    }
  }
  expect(missing).toEqual([])
})

test('a write signed in by the session cookie from another site answers the 403 its operation documents', async () => {
  const { user } = await ctx.createOwner()
  const { token } = await ctx.app.services.accounts.login(user.email, 'correct horse battery', 'test', 'test')
  const wrong: string[] = []
  const writes = serviceOperations().filter((op) => op.method !== 'get' && op.operation.security.some((r: object) => 'sessionCookie' in r))
  expect(writes.length).toBeGreaterThan(30)
  for (const target of writes) {
    const [url, init] = requestFor(target, '1', undefined)
    const headers = new Headers(init.headers)
    headers.set('cookie', `lantern_session=${token}`)
    headers.set('origin', 'https://elsewhere.example')
    const response = await ctx.request(url, { ...init, headers })
    const answer = { status: response.status, body: (await response.text()).slice(0, 200), type: response.headers.get('content-type') ?? '' }
    if (answer.status !== 403) wrong.push(`${target.method.toUpperCase()} ${target.path}: answered ${answer.status} ${answer.body} to a cross-site write`)
    const problem = judge(target, answer, 'to a cross-site write')
    if (problem) wrong.push(problem)
  }
  expect(wrong).toEqual([])
}, 120_000)

test("an owner's reads answer what their schemas say (ids are integers)", async () => {
  const { default: Ajv2020 } = await import('ajv/dist/2020')
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
  const { key: owner } = await ctx.createOwner()
  const page = await ctx.createPage(owner, { slug: 'schemas', name: 'Schemas' })
  const post = async (path: string, body: unknown) => ((await (await ctx.request(path, { method: 'POST', key: owner, json: body })).json()) as { data: { id: number } }).data.id
  const component = await post(`/user/api/v1/status-pages/${page.id}/components`, { name: 'API' })
  const incident = await post('/user/api/v1/incidents', { status_page_id: page.id, title: 'Down', message: 'Looking', component_ids: [component] })
  const maintenance = await post('/user/api/v1/maintenances', { status_page_id: page.id, title: 'Upgrade', start_at: '2026-11-02T00:00:00Z', end_at: '2026-11-02T01:00:00Z' })
  const template = await post('/user/api/v1/incident-templates', { name: 'Outage', title: '{{component}} down', message: 'm' })
  const idFor = (path: string): number =>
    path.startsWith('/user/api/v1/components/') ? component
    : path.startsWith('/user/api/v1/incidents/') ? incident
    : path.startsWith('/user/api/v1/maintenances/') ? maintenance
    : path.startsWith('/user/api/v1/incident-templates/') ? template
    : page.id
  const wrong: string[] = []
  let checked = 0
  for (const target of serviceOperations().filter((op) => op.method === 'get' && op.operation.security.some((r: object) => 'bearerAuth' in r))) {
    const names = (target.operation.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name as string)
    if (names.some((name: string) => name !== 'id')) continue
    const response = await ctx.request(target.path.replace('{id}', String(idFor(target.path))), { key: owner })
    const schema = target.operation.responses[response.status]?.content?.['application/json']?.schema
    if (response.status !== 200 || !schema) continue
    const validate = ajv.compile({ ...schema, components: doc.components })
    const body = await response.json()
    checked++
    if (!validate(body)) wrong.push(`GET ${target.path}: ${ajv.errorsText(validate.errors).slice(0, 300)} in ${JSON.stringify(body).slice(0, 200)}`)
  }
  expect(wrong).toEqual([])
  expect(checked).toBeGreaterThan(20)
}, 120_000)

test('the status hosts\' operations answer the statuses and media types they document', async () => {
  const { key: owner } = await ctx.createOwner()
  await ctx.createPage(owner, { slug: 'open-page', name: 'Open' })
  await ctx.createPage(owner, { slug: 'closed-page', name: 'Closed', visibility: 'private' })
  const wrong: string[] = []
  const operations = Object.entries<any>(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]?.servers).map((method) => ({ method, path, operation: item[method] })))
  expect(operations.length).toBeGreaterThan(8)
  for (const target of operations) {
    for (const [host, expected] of [['open-page', 200], ['closed-page', 401], ['no-such-page', 404]] as const) {
      const response = await ctx.request(`https://${host}.status.test${target.path}`, { method: target.method.toUpperCase() })
      const documented = target.operation.responses[response.status]
      const type = (response.headers.get('content-type') ?? '').split(';')[0]!
      const label = `${target.method.toUpperCase()} ${target.path} on ${host}`
      if (response.status !== expected) wrong.push(`${label}: answered ${response.status}, expected ${expected}`)
      else if (!documented) wrong.push(`${label}: ${response.status} is not documented`)
      else if (!Object.keys(documented.content ?? {}).includes(type)) wrong.push(`${label}: answered ${type}; the document says ${Object.keys(documented.content ?? {}).join(', ')}`)
      await response.arrayBuffer()
    }
  }
  expect(wrong).toEqual([])
})
