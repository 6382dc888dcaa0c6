/**
 * Configuration as code over real HTTP (a listening server) and the command line: the JSON Schema
 * is public; export, plan and apply with an API key; a viewer or responder key is refused apply;
 * every change is in the audit log attributed to the key; the CLI round-trips a file.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import { listenTestContext, type ListeningContext } from '../helpers/listening.ts'
import { runCliProcess } from '../helpers/cli.ts'

setDefaultTimeout(30_000)

let server: ListeningContext
let key: string
let userId: number
let email: string
const slug = `http-cfg-${crypto.randomUUID().slice(0, 6)}`

const call = (path: string, init: { method?: string; json?: unknown; key?: string } = {}) =>
  fetch(`${server.base}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.key ? { authorization: `Bearer ${init.key}` } : {}), ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  })

const FILE = `version: 1
pages:
  - slug: ${slug}
    name: "<b>HTTP</b> page"
    components:
      - name: API
channels:
  - name: Ops hook
    type: webhook
    url: \${LANTERN_CHANNEL_OPS_HOOK_URL}
monitors:
  - name: API up
    type: tcp
    target: 127.0.0.1:9
    page: ${slug}
    component: API
`

beforeAll(async () => {
  server = await listenTestContext({ now: Date.UTC(2026, 11, 7, 6, 0), env: { MONITOR_PRIVATE_TARGETS: '1' } })
  const made = await server.ctx.createOwner('enterprise')
  key = made.key
  userId = made.account.id
  email = made.account.email
})
afterAll(() => server.close())

describe('configuration API', () => {
  test('the JSON Schema is public and cacheable', async () => {
    const response = await call('/schemas/lantern-config.v1.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/schema+json')
    expect(response.headers.get('cache-control')).toContain('public')
    const schema = (await response.json()) as Record<string, unknown>
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(JSON.stringify(schema)).not.toContain('"error"')
  })

  test('plan, apply, plan again: no change the second time; export holds references only', async () => {
    const secrets = { LANTERN_CHANNEL_OPS_HOOK_URL: 'http://127.0.0.1:9/hook?token=s3cr3t-value' }
    const planned = await call('/user/api/v1/config/plan', { method: 'POST', key, json: { file: FILE, secrets } })
    expect(planned.status).toBe(200)
    expect(((await planned.json()) as { data: { summary: unknown } }).data.summary).toEqual({ create: 4, update: 0, delete: 0 })
    const applied = await call('/user/api/v1/config/apply', { method: 'POST', key, json: { file: FILE, secrets } })
    expect(applied.status).toBe(200)
    expect(((await applied.json()) as { data: { applied: boolean } }).data.applied).toBe(true)
    const again = await call('/user/api/v1/config/apply', { method: 'POST', key, json: { file: FILE, secrets } })
    expect(((await again.json()) as { data: { changes: unknown[] } }).data.changes).toEqual([])
    const exported = await call('/user/api/v1/config/export', { key })
    expect(exported.status).toBe(200)
    const body = (await exported.json()) as { file: string; secrets: string[] }
    expect(body.file).not.toContain('s3cr3t-value')
    expect(body.secrets).toContain('LANTERN_CHANNEL_OPS_HOOK_URL')
    expect(body.file).toContain('<b>HTTP</b> page')
  })

  test('bad input is a 400 with the shared error body and changes nothing', async () => {
    for (const file of ['version: [', 'version: 2', '\u0000', `version: 1\nmonitors:\n  - name: X\n    type: keyword\n    target: http://127.0.0.1:9/\n`, FILE]) {
      const response = await call('/user/api/v1/config/apply', { method: 'POST', key, json: { file: file.replace(slug, `${slug}-x`) } })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { error: string }).error.length).toBeGreaterThan(0)
    }
    expect((await call('/user/api/v1/config/apply', { method: 'POST', key, json: { file: 1 } })).status).toBe(400)
    expect((await call('/user/api/v1/config/apply', { method: 'POST', json: { file: FILE } })).status).toBe(401)
  })

  test('a viewer or responder key may plan but not apply; the changes are audited under the key', async () => {
    const services = server.ctx.app.services
    const owner = await services.accounts.personalTeamOwner({ id: userId })
    for (const role of ['viewer', 'responder']) {
      const { key: weak } = await services.accounts.createApiKey(owner, `ci-${role}`, role)
      expect((await call('/user/api/v1/config/plan', { method: 'POST', key: weak, json: { file: 'version: 1\n' } })).status).toBe(200)
      const refused = await call('/user/api/v1/config/apply', { method: 'POST', key: weak, json: { file: 'version: 1\n' } })
      expect(refused.status).toBe(403)
    }
    const rows = await server.ctx.database.db.selectFrom('audit_log').select(['action', 'actor_kind', 'actor_label', 'object_id']).where('team_id', '=', owner.id).where('action', 'like', 'config.%').execute()
    expect(rows.map((r) => `${r.action} ${r.object_id}`).sort()).toEqual([
      'config.apply.post null', 'config.apply.post null', 'config.channel.create Ops hook', `config.component.create ${slug}/API`,
      'config.monitor.create API up', `config.page.create ${slug}`, 'config.plan.post null', 'config.plan.post null', 'config.plan.post null',
    ])
    expect(rows.filter((r) => r.action.startsWith('config.monitor')).every((r) => r.actor_kind === 'api_key' && r.actor_label.includes('API key'))).toBe(true)
  })

  test("a page's settings over HTTP: planned and applied as kinds of their own; a bad one is a 400 naming the key and the field", async () => {
    const settings = `version: 1
pages:
  - slug: ${slug}-settings
    name: Settings
    components:
      - name: API
        sla: { target_percent: 99.9 }
    branding: { palette: { primary: "#aa3300" } }
    automatic_incidents: { auto_incidents: true, components: [API] }
`
    const applied = await call('/user/api/v1/config/apply', { method: 'POST', key, json: { file: settings } })
    expect(applied.status).toBe(200)
    const kinds = ((await applied.json()) as { data: { changes: Array<{ kind: string }> } }).data.changes.map((c) => c.kind)
    expect(kinds).toEqual(['page', 'component', 'automatic_incidents', 'branding', 'sla_target'])
    const bad = await call('/user/api/v1/config/plan', { method: 'POST', key, json: { file: settings.replace('99.9', '49') } })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: string }).error).toBe(`pages "${slug}-settings", components "API", sla.target_percent: target_percent must be a number from 50 to 99.9999`)
    const kept = await call('/user/api/v1/config/apply', { method: 'POST', key, json: { file: `version: 1\npages:\n  - slug: ${slug}-settings\n    name: Settings\n    components: [{ name: API }]\n` } })
    expect(((await kept.json()) as { data: { changes: unknown[] } }).data.changes).toEqual([])
    expect((await call(`/user/api/v1/config/export`, { key }).then((r) => r.json()) as { file: string }).file).toContain('target_percent: 99.9')
  })
  test('plan answers the notes too: a window of the file that is over is named, and nothing is planned for it', async () => {
    const file = `version: 1\npages:\n  - slug: ${slug}-over\n    name: Over\n    maintenance:\n      - { title: "Old <work>", start_at: "2020-01-01T01:00:00Z", end_at: "2020-01-01T02:00:00Z" }\n`
    const planned = await call('/user/api/v1/config/plan', { method: 'POST', key, json: { file } })
    expect(planned.status).toBe(200)
    const body = (await planned.json()) as { data: { changes: { kind: string }[] }; notes: string[] }
    expect(body.data.changes.map((c) => c.kind)).toEqual(['page'])
    expect(body.notes).toEqual([`pages "${slug}-over": maintenance "Old <work>" ended at 2020-01-01T02:00:00.000Z; it is history now, so apply leaves it alone (remove it from the file)`])
  })
})

describe('command line', () => {
  test('export -o, plan and apply -f on another team file; a missing secret exits 1 and applies nothing', async () => {
    // The runner's transpiler cache setting goes to the CLI process too (it sees only what it is given).
    const cache = process.env.BUN_RUNTIME_TRANSPILER_CACHE_PATH
    const env = { ...server.ctx.databaseEnv, MONITOR_PRIVATE_TARGETS: '1', ...(cache === undefined ? {} : { BUN_RUNTIME_TRANSPILER_CACHE_PATH: cache }) }
    const out = join(server.ctx.dir, 'lantern.yaml')
    const exported = await runCliProcess(['export', '--email', email, '-o', out], env)
    expect(exported.stderr).toBe('')
    // The signing secret Lantern made for the webhook is a reference too: apply elsewhere needs it.
    expect(JSON.parse(exported.stdout).secrets).toEqual(['LANTERN_CHANNEL_OPS_HOOK_SIGNING_SECRET', 'LANTERN_CHANNEL_OPS_HOOK_URL'])
    const { secrets } = await server.ctx.app.services.configAsCode.export(await server.ctx.app.services.accounts.personalTeamOwner({ id: userId }))
    const text = await Bun.file(out).text()
    expect(text).toContain(`slug: ${slug}`)
    const plain = await runCliProcess(['plan', '--email', email, '-f', out], { ...env, ...secrets })
    expect(plain.stdout.trim()).toBe('No changes.')
    const renamed = join(server.ctx.dir, 'renamed.yaml')
    await Bun.write(renamed, text.replace('name: API up', 'name: API reachable'))
    const missing = await runCliProcess(['apply', '--email', email, '-f', renamed], { ...env, LANTERN_CHANNEL_OPS_HOOK_SIGNING_SECRET: secrets.LANTERN_CHANNEL_OPS_HOOK_SIGNING_SECRET! })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('without a value: LANTERN_CHANNEL_OPS_HOOK_URL')
    expect((await runCliProcess(['plan', '--email', email, '-f', out], { ...env, ...secrets })).stdout.trim()).toBe('No changes.')
    const applied = await runCliProcess(['apply', '--email', email, '-f', renamed, '--prune'], { ...env, ...secrets })
    expect(applied.stderr).toBe('')
    expect(applied.code).toBe(0)
    expect(applied.stdout).toContain('+ monitor "API reachable"')
    expect(applied.stdout).toContain('- monitor "API up"')
    const over = join(server.ctx.dir, 'over.yaml')
    await Bun.write(over, `${text}\n`.replace(`slug: ${slug}\n`, `slug: ${slug}\n    maintenance:\n      - { title: Old, start_at: "2020-01-01T01:00:00Z", end_at: "2020-01-01T02:00:00Z" }\n`))
    const json = await runCliProcess(['plan', '--email', email, '-f', over, '--json'], { ...env, ...secrets })
    expect(JSON.parse(json.stdout).notes).toEqual([`pages "${slug}": maintenance "Old" ended at 2020-01-01T02:00:00.000Z; it is history now, so apply leaves it alone (remove it from the file)`])
    const wrongTeam = await runCliProcess(['export', '--email', email, '--team', '999999'], env)
    expect(wrongTeam.code).toBe(1)
    expect(wrongTeam.stderr).toContain('not a member of team 999999')
  })
})
