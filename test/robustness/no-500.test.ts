/**
 * Hostile input against every operation the API documents in `/swagger/json`, and every route the
 * document leaves out (pages and forms for people, `detail.hide`) described the same way from its
 * own schemas: no answer may be a 5xx, JSON APIs answer errors as `{"error": "…"}`, and another owner's ids are 404 and change
 * nothing. Two owners (enterprise and free) each have a page, a component, an incident, a
 * maintenance, a template and a share token; each owner's key is aimed at the other's ids.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'
import { loginCookie } from '../modules/analytics/helpers.ts'
import { createAddressGuard } from '../../src/lib/address-guard.ts'
import { ToolChecksRepo } from '../../src/modules/lookup-tools/repo.ts'
import { ManualClock } from '../helpers/clock.ts'

interface Owned {
  key: string
  page: number
  slug: string
  component: number
  incident: number
  maintenance: number
  template: number
  shareToken: number
  /** A login session of the owner (its row id, as the sessions API names it). */
  session: number
  /** One of the owner's recent lookups (tool_checks). */
  toolCheck: number
  /** The owner's account: a member of their own team only. */
  userId: number
}

let ctx: TestContext
let a: Owned
let b: Owned
/** The same owners' resources that their own hostile requests may change (a and b must not change). */
let aPlay: Owned
let bPlay: Owned
/** The free owner's login session (the user area's credentials). */
let freeCookie: string
let freeEmail: string

const HUGE = 'x'.repeat(100_000)
/** Values for ids in paths (already URL-encoded). */
const PATH_VALUES = ['0', '-1', '1.5', '1e309', 'NaN', 'Infinity', '99999999999999999999999', '%ED%A0%80', '%00', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', HUGE, '%20', 'null', '[]']
/** Values for query parameters (raw; encoded when sent), plus raw-encoded oddities. */
const QUERY_VALUES = ['', '0', '-1', '1.5', '1e309', 'NaN', '99999999999999999999999', '\u0000', '<script>alert(1)</script>', HUGE, 'true', '[object Object]']
const RAW_QUERY_VALUES = ['%ED%A0%80', '%00', '%FF', '%', '%E2%80%AE']
/** Values for body properties. */
const BODY_VALUES: unknown[] = ['', HUGE, -1, 0, 1.5, 1e308, -1e308, '1e309', 'NaN', '<script>alert(1)</script>', '\ud800', 'a\u0000b', '\u202e', null, true, [], [1, 2], {}, { a: 1 }, ['<b>']]

async function setup(key: string, slug: string, userId: number): Promise<Owned> {
  const page = (await ctx.createPage(key, { slug, name: `Page ${slug}` })).id
  const post = async (path: string, body: unknown) => {
    const response = await ctx.request(path, { method: 'POST', key, json: body })
    const data = (await json(response)).data
    return response.status < 300 ? (data.id as number) : -1
  }
  const component = await post(`/user/api/v1/status-pages/${page}/components`, { name: 'API' })
  const incident = await post('/user/api/v1/incidents', { status_page_id: page, title: 'Down', message: 'Looking', component_ids: [component] })
  const maintenance = await post('/user/api/v1/maintenances', { status_page_id: page, title: 'Upgrade', start_at: '2026-11-02T00:00:00Z', end_at: '2026-11-02T01:00:00Z' })
  const template = await post('/user/api/v1/incident-templates', { name: 'Outage', title: '{{component}} down', message: 'm' })
  const shareToken = await post(`/user/analytics/${page}/tokens`, { label: 'share' })
  await ctx.app.services.accounts.startSession(userId)
  const session = (await ctx.app.services.accounts.listSessions(userId))[0]!.id
  const toolCheck = await new ToolChecksRepo(ctx.database.db).insertKeeping({ user_id: userId, tool: 'dns', target: slug, status: 'missing', summary: '', result_json: '{}', created_at: 0 }, 1_000)
  return { key, page, slug, component, incident, maintenance, template, shareToken, session, toolCheck, userId }
}

beforeAll(async () => {
  // Lookups the fuzzing runs answer at once without the network: no resolver, no address for any name.
  ctx = await createTestContext({ checkDeps: { guard: createAddressGuard({ resolve: async () => [], allowPrivate: false }), clock: new ManualClock(), dnsServers: [] } })
  const enterpriseOwner = await ctx.createOwner('enterprise')
  const freeOwner = await ctx.createOwner('free')
  const enterprise = enterpriseOwner.key
  const free = freeOwner.key
  freeEmail = freeOwner.user.email
  freeCookie = await loginCookie(ctx, freeEmail)
  a = await setup(enterprise, 'fuzz-ent', enterpriseOwner.user.id)
  b = await setup(free, 'fuzz-free', freeOwner.user.id)
  aPlay = await setup(enterprise, 'fuzz-ent-play', enterpriseOwner.user.id)
  bPlay = await setup(free, 'fuzz-free-play', freeOwner.user.id)
  // B is free: its share tokens could not be created; use A's as the "other" one for B too.
  if (b.shareToken < 0) b.shareToken = a.shareToken
  if (bPlay.shareToken < 0) bPlay.shareToken = aPlay.shareToken
})
afterAll(() => ctx.close())

/** The id a path parameter stands for, taken from `owner`. */
function ownedId(path: string, name: string, owner: Owned): string {
  if (name === 'token_id') return String(owner.shareToken)
  if (name === 'slug' && (path.startsWith('/badge') || path.startsWith('/api/embed'))) return owner.slug
  if (path.startsWith('/user/api/v1/components/')) return String(owner.component)
  if (path.startsWith('/user/api/v1/incidents/')) return String(owner.incident)
  if (path.startsWith('/user/api/v1/incident-templates/')) return String(owner.template)
  if (path.startsWith('/user/api/v1/maintenances/')) return String(owner.maintenance)
  if (path.startsWith('/user/api/v1/sessions/')) return String(owner.session)
  if (path.startsWith('/user/api/v1/tools/lookups/')) return String(owner.toolCheck)
  if (path.startsWith('/user/api/v1/team/members/')) return String(owner.userId)
  if (name === 'id') return String(owner.page)
  return 'getting-started'
}

function fill(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? 'x')
}

/** A plausible value for a JSON schema (so one property at a time can be made hostile). */
function sample(schema: any, name: string, owner: Owned): unknown {
  if (!schema) return 'x'
  if (name === 'status_page_id') return owner.page
  if (name === 'component_id') return owner.component
  if (name === 'component_ids') return [owner.component]
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return schema.enum[0]
  if (schema.anyOf ?? schema.oneOf) return sample((schema.anyOf ?? schema.oneOf)[0], name, owner)
  switch (schema.type) {
    case 'string':
      if (/_at$/.test(name)) return '2026-11-03T00:00:00Z'
      if (name === 'state') return 'investigating'
      if (name === 'email') return 'fuzz@example.com'
      return 'fuzz'
    case 'integer':
    case 'number':
      return 1
    case 'boolean':
      return true
    case 'array':
      return []
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([n]) => (schema.required ?? []).includes(n)).map(([n, s]) => [n, sample(s, n, owner)]))
    default:
      return 'x'
  }
}

/**
 * The document's operations plus the service host's hidden routes (the web app's forms, the site's
 * pages) as operations built from their own schemas, so hostile input reaches those too.
 */
function everyOperation(doc: any): Record<string, Record<string, any>> {
  const paths: Record<string, Record<string, any>> = structuredClone(doc.paths)
  for (const route of ctx.app.routes.service) {
    const detail = route.hooks.detail as { hide?: boolean; security?: unknown } | undefined
    if (!detail?.hide || route.path.includes('*') || route.method === 'ALL') continue
    const path = route.path.replace(/:(\w+)/g, '{$1}')
    const pathNames = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1])
    const queryNames = Object.keys((route.hooks.query as { properties?: object } | undefined)?.properties ?? {})
    const body = typeof route.hooks.body === 'object' ? route.hooks.body : undefined
    ;(paths[path] ??= {})[route.method.toLowerCase()] = {
      parameters: [...pathNames.map((name) => ({ name, in: 'path' })), ...queryNames.map((name) => ({ name, in: 'query' }))],
      ...(body ? { requestBody: { content: { 'application/json': { schema: body } } } } : {}),
      ...(detail.security ? { security: detail.security } : {}),
    }
  }
  return paths
}

const isJsonApi = (path: string) => path.startsWith('/user/api/') || path.startsWith('/api/') || /^\/user\/analytics\/\{id\}\/tokens/.test(path)

test('no hostile request to any documented operation is a 5xx; JSON APIs answer {error}; other owners\' ids are 404 and change nothing', async () => {
  const doc = await json(await ctx.request('/swagger/json'))
  const snapshot = async () => {
    const out: unknown[] = []
    for (const owner of [a, b]) {
      for (const path of [
        `/user/api/v1/status-pages/${owner.page}`,
        `/user/api/v1/status-pages/${owner.page}/components`,
        `/user/api/v1/status-pages/${owner.page}/branding`,
        `/user/api/v1/status-pages/${owner.page}/access`,
        `/user/api/v1/components/${owner.component}`,
        `/user/api/v1/incidents/${owner.incident}`,
        `/user/api/v1/maintenances/${owner.maintenance}`,
        `/user/api/v1/incident-templates/${owner.template}`,
        `/user/analytics/${owner.page}/tokens`,
      ]) {
        const response = await ctx.request(path, { key: owner.key })
        out.push([path, response.status, await response.text()])
      }
    }
    return out
  }
  const before = await snapshot()
  const failures: string[] = []
  let sent = 0

  for (const [path, operations] of Object.entries<any>(everyOperation(doc))) {
    for (const [method, operation] of Object.entries<any>(operations)) {
      const verb = method.toUpperCase()
      const params: any[] = operation.parameters ?? []
      const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name as string)
      const queryParams = params.filter((p) => p.in === 'query').map((p) => p.name as string)
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema
      const slowAuth = path === '/user/login' || path === '/user/signup' || path === '/user/password'

      const send = async (label: string, url: string, init: RequestInit & { key?: string; json?: unknown } = {}, expectNotFound = false) => {
        sent++
        let response: Response
        try {
          response = await ctx.request(url, { method: verb, ...init })
        } catch (error) {
          failures.push(`${verb} ${path} [${label}]: threw ${String(error).slice(0, 200)}`)
          return
        }
        const text = await response.text()
        const where = `${verb} ${path} [${label}] -> ${response.status} ${text.slice(0, 160)}`
        if (response.status >= 500) failures.push(where)
        if (response.status >= 400 && isJsonApi(path)) {
          let body: any
          try {
            body = JSON.parse(text)
          } catch {
            body = undefined
          }
          if (typeof body?.error !== 'string') failures.push(`${where} (not {"error": "..."})`)
        }
        if (expectNotFound && response.status !== 404) failures.push(`${where} (another owner's id must be 404)`)
        if (expectNotFound === false && label.startsWith('cross') && response.status < 300) failures.push(`${where} (another owner's id accepted)`)
      }

      // Credentials: none, and each owner (whose "own" ids in bodies are valid, path ids are the other's).
      const credentials: Array<[string, Owned | undefined, Owned]> = [
        ['anon', undefined, a],
        ['A', aPlay, b],
        ['B', bPlay, a],
      ]
      for (const [who, me, other] of credentials) {
        const key = me?.key
        const base: Record<string, string> = Object.fromEntries(pathParams.map((name) => [name, ownedId(path, name, me ?? aPlay)]))
        // Another owner's ids in the path (a valid own body, so only ownership can refuse it).
        // Owner operations list their credentials; public ones say `security: []`.
        if (me && pathParams.length > 0 && operation.security?.length) {
          const otherIds = Object.fromEntries(pathParams.map((name) => [name, ownedId(path, name, other)]))
          const body = bodySchema ? sample(bodySchema, '', me) : undefined
          await send(`cross ${who}`, fill(path, otherIds), { key, json: body }, true)
        }
        // Another owner's page as a list filter.
        if (me && queryParams.includes('status_page_id')) {
          await send(`cross-query ${who}`, `${fill(path, base)}?status_page_id=${other.page}`, { key }, true)
        }
        // Another owner's ids in the body.
        const refersToIds = bodySchema && JSON.stringify(sample(bodySchema, '', a)) !== JSON.stringify(sample(bodySchema, '', b))
        if (me && refersToIds && verb !== 'DELETE') {
          await send(`cross-body ${who}`, fill(path, base), { key, json: sample(bodySchema, '', other) })
        }
        // Hostile path values, one parameter at a time.
        for (const name of pathParams) {
          for (const value of PATH_VALUES) await send(`${who} path ${name}=${value.slice(0, 20)}`, fill(path, { ...base, [name]: value }), { key })
        }
        // Hostile query values, one parameter at a time, then repeated (arrays).
        const url = fill(path, base)
        for (const name of queryParams) {
          if (slowAuth && who !== 'anon') continue
          for (const value of QUERY_VALUES) await send(`${who} query ${name}=${value.slice(0, 20)}`, `${url}?${name}=${encodeURIComponent(value)}`, { key })
          for (const value of RAW_QUERY_VALUES) await send(`${who} query ${name}=${value}`, `${url}?${name}=${value}`, { key })
          await send(`${who} query ${name} twice`, `${url}?${name}=1&${name}=2`, { key })
        }
        if (queryParams.length > 0) await send(`${who} all queries empty`, `${url}?${queryParams.map((n) => `${n}=`).join('&')}`, { key })
        // Bodies: none, malformed, wrong shapes and content types, then one hostile property at a time.
        if (verb === 'GET' || verb === 'DELETE' || (slowAuth && who !== 'anon')) continue
        const raw = (label: string, body: BodyInit, contentType?: string) =>
          send(`${who} body ${label}`, url, { key, body, headers: contentType ? { 'content-type': contentType } : {} })
        await send(`${who} no body`, url, { key })
        await raw('malformed', '{"a":', 'application/json')
        await raw('empty json', '', 'application/json')
        await raw('json null', 'null', 'application/json')
        await raw('json array', '[{"name":"x"}]', 'application/json')
        await raw('json string', '"x"', 'application/json')
        await raw('lone surrogate', '{"name":"\\ud800","title":"\\udfff"}', 'application/json')
        await raw('text', 'hello <script>', 'text/plain')
        await raw('xml', '<a/>', 'application/xml')
        await raw('urlencoded', 'name=%ED%A0%80&title=%00&slug[]=1', 'application/x-www-form-urlencoded')
        await raw('huge', `{"name":"${HUGE}${HUGE}${HUGE}"}`, 'application/json')
        const form = new FormData()
        form.set('name', '<script>')
        form.set('file', new Blob(['<svg onload=alert(1)>'], { type: 'image/svg+xml' }), 'x.svg')
        await send(`${who} body multipart`, url, { key, body: form })
        if (bodySchema?.type === 'object' && !slowAuth) {
          const good = sample(bodySchema, '', me ?? aPlay) as Record<string, unknown>
          for (const property of Object.keys(bodySchema.properties ?? {})) {
            for (const value of BODY_VALUES) {
              await send(`${who} body ${property}=${JSON.stringify(value).slice(0, 20)}`, url, { key, json: { ...good, [property]: value } })
            }
          }
        }
      }
    }
  }
  expect(failures).toEqual([])
  expect(await snapshot()).toEqual(before)
  expect(sent).toBeGreaterThan(2000)
}, 60_000)

test('status hosts: hostile paths, queries, hosts and form posts are never a 5xx', async () => {
  const failures: string[] = []
  const hosts = [`https://${aPlay.slug}.status.test`, `https://${bPlay.slug}.status.test`, 'https://nope.status.test', 'https://unknown.example']
  const paths = ['/', '/history', '/history.rss', '/history.atom', '/robots.txt', '/favicon.ico', '/_lantern/page.css', '/_lantern/theme.css', '/_lantern/favicon', '/_lantern/logo']
  for (const document of ['summary', 'status', 'components', 'incidents', 'incidents/unresolved', 'scheduled-maintenances', 'scheduled-maintenances/upcoming', 'scheduled-maintenances/active']) paths.push(`/api/v2/${document}.json`)
  for (const id of [...PATH_VALUES, String(aPlay.incident), String(b.incident)]) paths.push(`/incidents/${id}`)
  const queries = ['', '?before=-1', '?before=1e309', '?before=1.5', '?before=99999999999999999999', `?before=${HUGE}`, '?before=%ED%A0%80', '?auth_token=%00', `?auth_token=${HUGE}`, '?before=1&before=2', '?%=%']
  const check = async (label: string, request: Request) => {
    const response = await ctx.app.handle(request)
    const text = await response.text()
    if (response.status >= 500 && response.status !== 503) failures.push(`${label} -> ${response.status} ${text.slice(0, 160)}`)
  }
  for (const host of hosts) {
    for (const path of paths) for (const query of queries) await check(`GET ${host}${path.slice(0, 40)}${query.slice(0, 30)}`, new Request(`${host}${path}${query}`))
    for (const body of ['password=%ED%A0%80&next=%00', `password=${HUGE}`, 'next=//evil.test', '{"password":1}', '']) {
      await check(`POST ${host}/_lantern/access ${body.slice(0, 30)}`, new Request(`${host}/_lantern/access`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: host } }))
    }
  }
  for (const hostHeader of ['', ' ', '%00', 'a'.repeat(5000), '[::1]', 'x:99999', `${aPlay.slug}.status.test:abc`, '<script>']) {
    await check(`GET / host=${hostHeader.slice(0, 20)}`, new Request('https://lantern.test/', { headers: { host: hostHeader } }))
  }
  expect(failures).toEqual([])
}, 30_000)

test('every documented path under unexpected methods and odd URLs is never a 5xx', async () => {
  const doc = await json(await ctx.request('/swagger/json'))
  const failures: string[] = []
  for (const path of Object.keys(everyOperation(doc))) {
    const url = fill(path, { id: String(aPlay.page), token_id: '1', slug: aPlay.slug, tag: 'x' })
    for (const method of ['HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE', 'POST', 'TRACE', 'PROPFIND']) {
      for (const key of [undefined, aPlay.key]) {
        const response = await ctx.request(url, { method, key })
        if (response.status >= 500) failures.push(`${method} ${url} -> ${response.status} ${(await response.text()).slice(0, 160)}`)
      }
    }
    for (const odd of [`${url}/`, `${url}//`, `${url}/..`, `${url}%2F`, `${url}?`, `${url}#x`, `${url};x`, `${url}/%ED%A0%80`, url.toUpperCase()]) {
      const response = await ctx.request(odd)
      if (response.status >= 500) failures.push(`GET ${odd} -> ${response.status} ${(await response.text()).slice(0, 160)}`)
    }
  }
  for (const short of ['http://x/healthz', 'http://x/user/api/v1/status-pages', 'http://a.io/', 'http://a.io/api/v2/summary.json', 'https://lantern.test:8443/healthz']) {
    const response = await ctx.app.handle(new Request(short))
    if (response.status >= 500) failures.push(`GET ${short} -> ${response.status}`)
  }
  expect(failures).toEqual([])
}, 30_000)

test('hostile headers (cookies, keys, ETags, forwarded addresses, hosts) are never a 5xx', async () => {
  const doc = await json(await ctx.request('/swagger/json'))
  const headerSets: Array<Record<string, string>> = [
    { cookie: 'lantern_session=%ZZ%ED%A0%80; lantern_session=x' },
    { cookie: `lantern_session=${'a'.repeat(8000)}` },
    { cookie: '=;;;=;lantern_session' },
    { authorization: 'Bearer' },
    { authorization: 'Bearer lnt_' + 'x'.repeat(5000) },
    { authorization: 'Basic Zm9vOmJhcg==' },
    { 'x-api-key': ' ' },
    { 'x-api-key': 'lnt_\u00ff' },
    { 'if-none-match': '*' },
    { 'if-none-match': `"${'x'.repeat(5000)}", W/"", ,,` },
    { 'x-forwarded-for': 'not-an-ip, ::::, 999.1.1.1' },
    { 'accept-encoding': 'gzip;q=NaN, br;q=-1' },
    { accept: 'text/html;q=2, */*;q=abc' },
    { 'content-length': '0' },
    { origin: 'null', cookie: 'lantern_session=x' },
    { referer: '%ED%A0%80', cookie: 'lantern_session=x' },
  ]
  const statuses: Record<number, number> = {}
  const failures: string[] = []
  for (const path of Object.keys(everyOperation(doc))) {
    const url = fill(path, { id: String(aPlay.page), token_id: '1', slug: aPlay.slug, tag: 'x' })
    for (const headers of headerSets) {
      for (const method of ['GET', 'POST']) {
        const response = await ctx.request(url, { method, headers })
        statuses[response.status] = (statuses[response.status] ?? 0) + 1
        if (response.status >= 500) failures.push(`${method} ${path} ${JSON.stringify(headers).slice(0, 80)} -> ${response.status} ${(await response.text()).slice(0, 120)}`)
      }
    }
  }
  expect(Object.keys(statuses).length).toBeGreaterThan(3)
  expect(failures).toEqual([])
}, 30_000)

test('by login session too, another owner\'s ids are 404 for every documented owner operation, and change nothing', async () => {
  // The hostile requests above may have ended the free owner's sessions (DELETE /sessions): a fresh login.
  freeCookie = await loginCookie(ctx, freeEmail)
  const doc = await json(await ctx.request('/swagger/json'))
  const before = await ctx.request(`/user/api/v1/status-pages/${a.page}`, { key: a.key }).then((r) => r.text())
  const failures: string[] = []
  for (const [path, operations] of Object.entries<any>(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(operations)) {
      const names = (operation.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name as string)
      if (!operation.security?.length || names.length === 0) continue
      const url = fill(path, Object.fromEntries(names.map((name: string) => [name, ownedId(path, name, a)])))
      const body = operation.requestBody?.content?.['application/json']?.schema ? sample(operation.requestBody.content['application/json'].schema, '', b) : undefined
      const response = await ctx.request(url, { method: method.toUpperCase(), json: body, headers: { cookie: freeCookie, origin: 'https://lantern.test' } })
      if (response.status !== 404) failures.push(`${method.toUpperCase()} ${path} -> ${response.status} ${(await response.text()).slice(0, 120)}`)
    }
  }
  expect(failures).toEqual([])
  expect(await ctx.request(`/user/api/v1/status-pages/${a.page}`, { key: a.key }).then((r) => r.text())).toBe(before)
})
