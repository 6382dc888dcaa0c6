/**
 * The document the running app serves passes the two linters its users run, with their stock
 * rules: Redocly CLI (`recommended`, test/http/redocly.yaml) and Spectral (`spectral:oas`, test/http/spectral.yaml),
 * both from node_modules, offline. No error and no warning: each finding fails the test and names
 * the operation (method and path) and the rule it breaks.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestContext, type TestContext } from '../helpers/context.ts'

const ROOT = join(import.meta.dir, '..', '..')
const BIN = join(ROOT, 'node_modules', '.bin')

let ctx: TestContext
let dir: string
let file: string

beforeAll(async () => {
  ctx = await createTestContext()
  dir = mkdtempSync(join(tmpdir(), 'lantern-openapi-'))
  file = join(dir, 'openapi.json')
  const response = await ctx.request('/swagger/json')
  expect(response.status).toBe(200)
  writeFileSync(file, await response.text())
})
afterAll(async () => {
  await ctx.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Runs a linter's bin under this Bun, from the repository root; the rule files sit beside this test. */
const REDOCLY_RULES = join(import.meta.dir, 'redocly.yaml')
const SPECTRAL_RULES = join(import.meta.dir, 'spectral.yaml')

async function run(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn([process.execPath, '--bun', join(BIN, bin), ...args], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
    // Offline and quiet: no usage report, no update check.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, stdout, stderr }
}

/** "GET /user/api/v1/monitors/{id}" for a location inside an operation, else the location itself. */
function whereIn(segments: string[]): string {
  const at = segments.indexOf('paths') === 0 || segments.indexOf('webhooks') === 0 ? 0 : -1
  if (at === -1 || segments.length < 2) return `#/${segments.join('/')}`
  const [section, path, method, ...rest] = segments
  const label = section === 'webhooks' ? `webhook ${path}` : path
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
  if (method && methods.includes(method)) return `${method.toUpperCase()} ${label} (at ${rest.join('/') || 'the operation'})`
  return `${label} (at ${[method, ...rest].filter(Boolean).join('/')})`
}

const fromPointer = (pointer: string): string[] =>
  pointer.replace(/^#\/?/, '').split('/').filter(Boolean).map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))

test('Redocly CLI (recommended rules): no error, no warning', async () => {
  const { stdout, stderr } = await run('redocly', ['lint', file, `--config=${REDOCLY_RULES}`, '--format=json', '--max-problems=10000'])
  let report: { problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }> }
  try {
    report = JSON.parse(stdout)
  } catch {
    throw new Error(`redocly did not answer JSON: ${stdout.slice(0, 500)} ${stderr.slice(0, 500)}`)
  }
  const findings = report.problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${whereIn(fromPointer(problem.location[0]?.pointer ?? ''))}: ${problem.message}`)
  expect(findings).toEqual([])
}, 120_000)

test('Spectral (spectral:oas): no error, no warning, no hint', async () => {
  const { stdout, stderr } = await run('spectral', ['lint', file, `--ruleset=${SPECTRAL_RULES}`, '--format=json', '--quiet'])
  let results: Array<{ code: string; severity: number; message: string; path: Array<string | number> }>
  try {
    results = JSON.parse(stdout)
  } catch {
    throw new Error(`spectral did not answer JSON: ${stdout.slice(0, 500)} ${stderr.slice(0, 500)}`)
  }
  const severity = ['error', 'warning', 'info', 'hint']
  const findings = results.map((result) => `${severity[result.severity] ?? result.severity} ${result.code}: ${whereIn(result.path.map(String))}: ${result.message}`)
  expect(findings).toEqual([])
}, 120_000)

test('the linters do find what breaks their rules (the test can fail)', async () => {
  // A copy of the served document with one public operation stripped of what the rules ask for.
  const doc = JSON.parse(await Bun.file(file).text())
  const operation = doc.paths['/healthz'].get
  delete operation.security
  delete operation.description
  operation.responses['200'].content = { 'application/json': { schema: { type: 'string', nullable: true } } }
  const broken = join(dir, 'broken.json')
  writeFileSync(broken, JSON.stringify(doc))
  const redocly = JSON.parse((await run('redocly', ['lint', broken, `--config=${REDOCLY_RULES}`, '--format=json'])).stdout).problems.map((p: any) => `${p.ruleId} ${whereIn(fromPointer(p.location[0].pointer))}`)
  expect(redocly).toContain('security-defined GET /healthz (at the operation)')
  expect(redocly.some((line: string) => line.startsWith('struct GET /healthz'))).toBe(true)
  const spectral = JSON.parse((await run('spectral', ['lint', broken, `--ruleset=${SPECTRAL_RULES}`, '--format=json', '--quiet'])).stdout).map((r: any) => `${r.code} ${whereIn(r.path.map(String))}`)
  expect(spectral).toContain('operation-description GET /healthz (at the operation)')
}, 120_000)
