/**
 * What a developer does with the document: generate a typed client with `openapi-typescript` from
 * the address a running Lantern serves it at, compile a program on it with strict `tsc`, and call
 * the server through `openapi-fetch`. Ids come out as `number`, never `string | number`, and an
 * error answer is typed as the shared Error model.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { listenTestContext, type ListeningContext } from '../helpers/listening.ts'

const ROOT = join(import.meta.dir, '..', '..')

let server: ListeningContext
let dir: string
let generated: { code: number; output: string }

beforeAll(async () => {
  server = await listenTestContext({ now: Date.UTC(2026, 10, 27, 12, 0, 0) })
  dir = mkdtempSync(join(tmpdir(), 'lantern-client-'))
  // The program resolves openapi-fetch and the compiler from this repository's dependencies.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG))
  generated = await run([process.execPath, '--bun', join(ROOT, 'node_modules', '.bin', 'openapi-typescript'), `${server.base}/swagger/json`, '-o', 'lantern-api.ts'])
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

async function run(command: string[]): Promise<{ code: number; output: string }> {
  const child = Bun.spawn(command, { cwd: dir, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, output: `${stdout}${stderr}` }
}

/** The program a developer writes on the generated types (compiled by tsc, then run). */
const PROGRAM = `
import createClient from 'openapi-fetch'
import type { components, paths } from './lantern-api.ts'

type StatusPage = components['schemas']['StatusPage']
type Component = components['schemas']['Component']
type ApiError = components['schemas']['Error']

// Compile-time checks: ids are numbers (a string | number id would not fit these).
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const pageIdIsNumber: Exactly<StatusPage['id'], number> = true
const componentIdIsNumber: Exactly<Component['id'], number> = true

export async function story(baseUrl: string, key: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer ' + key } })
  const created = await client.POST('/user/api/v1/status-pages', { body: { slug: 'typed-client', name: 'Typed client' } })
  if (!created.data) throw new Error('create page: ' + created.response.status)
  const page: StatusPage = created.data.data
  const pageId: number = page.id

  const added = await client.POST('/user/api/v1/status-pages/{id}/components', { params: { path: { id: pageId } }, body: { name: 'API' } })
  if (!added.data) throw new Error('add component: ' + added.response.status)
  const componentId: number = added.data.data.id

  const readPage = await client.GET('/user/api/v1/status-pages/{id}', { params: { path: { id: pageId } } })
  const readComponent = await client.GET('/user/api/v1/components/{id}', { params: { path: { id: componentId } } })

  // Someone else's id or none at all: the same 404, typed as the Error model.
  const missing = await client.GET('/user/api/v1/status-pages/{id}', { params: { path: { id: pageId + 1000 } } })
  const error: ApiError | undefined = missing.error
  return {
    checks: [pageIdIsNumber, componentIdIsNumber],
    page: readPage.data?.data,
    component: readComponent.data?.data,
    missing: { status: missing.response.status, error: error?.error },
  }
}
`

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'bundler',
    lib: ['ES2022', 'DOM'],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: false,
  },
  files: ['program.ts'],
}

test('a client generated from the served document compiles under strict tsc, has integer ids, and works against the server', async () => {
  expect(generated.code === 0 ? 'generated' : generated.output).toBe('generated')
  const types = readFileSync(join(dir, 'lantern-api.ts'), 'utf8')
  // No id is a string-or-number. incident_state_id is no row id: the state code Statuspage
  // scripts send as "1" or 1, and the API takes both.
  const mixed = (types.match(/\b\w*id\??: (string \| number|number \| string)\b/g) ?? []).filter((field) => !field.startsWith('incident_state_id'))
  expect(mixed).toEqual([])
  expect(types).toContain('"/user/api/v1/status-pages/{id}"')

  writeFileSync(join(dir, 'program.ts'), PROGRAM)
  const compiled = await run([process.execPath, join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'])
  expect(compiled.output).toBe('')
  expect(compiled.code).toBe(0)

  const { key } = await server.ctx.createOwner()
  const { story } = (await import(join(dir, 'program.ts'))) as { story: (base: string, key: string) => Promise<any> }
  const result = await story(server.base, key)
  expect(result.checks).toEqual([true, true])
  expect(result.page).toMatchObject({ slug: 'typed-client', name: 'Typed client', visibility: 'public' })
  expect(typeof result.page.id).toBe('number')
  expect(result.component).toMatchObject({ name: 'API', page_id: result.page.id })
  expect(typeof result.component.id).toBe('number')
  expect(result.missing).toEqual({ status: 404, error: expect.any(String) })
}, 120_000)

test('the compile step fails on a program that misuses the types (the check can fail)', async () => {
  // Passing a string id where the document says integer is a type error.
  writeFileSync(join(dir, 'program.ts'), `${PROGRAM}\nexport const wrong = (c: ReturnType<typeof createClient<paths>>) => c.GET('/user/api/v1/components/{id}', { params: { path: { id: '7' } } })\n`)
  const compiled = await run([process.execPath, join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'])
  expect(compiled.code).not.toBe(0)
  expect(compiled.output).toContain("Type 'string' is not assignable to type 'number'")
}, 120_000)
