/**
 * `lantern import uptime-kuma` against the databases of real Kuma 1.23.16 and 2.5.3 installs: the
 * counts of every kind match the source, a sample of fields one by one, the history spans, the
 * report lists exactly what was left out, a second run changes nothing, and a damaged or foreign
 * file (or a run the plan refuses) changes nothing. Runs on PostgreSQL too (LANTERN_TEST_POSTGRES).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sha256Hex } from '../../../src/lib/crypto.ts'
import { readKumaDatabase } from '../../../src/modules/importers/kuma-read.ts'
import { kumaTime, planFromKuma } from '../../../src/modules/importers/kuma-map.ts'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { runCliProcess } from '../../helpers/cli.ts'

/** Copies of the shared importer fixtures (their README says how each was produced). */
const FIXTURES = join(import.meta.dir, '../../fixtures/importers')
const fixture = (name: string) => join(FIXTURES, name)
const KUMA2 = fixture('uptime-kuma-2.5.3.db')
const KUMA1 = fixture('uptime-kuma-1.23.16.db')

/** After the fixtures' heartbeats (history from the future is not imported). */
const NOW = Date.UTC(2026, 10, 28, 12, 0)
const newContext = () => createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' }, now: NOW })
let ctx: TestContext
beforeAll(async () => {
  ctx = await newContext()
})
afterAll(() => ctx.close())

const db = () => ctx.database.db
const importKuma = (owner: Owner, path: string) => ctx.app.services.importer.apply(owner, planFromKuma(readKumaDatabase(path)))

/** Rows of the source, read on their own (not through the importer). */
function source(path: string) {
  const kuma = new Database(path, { readonly: true })
  try {
    const all = <T>(sql: string) => kuma.query(sql).all() as T[]
    return {
      monitors: all<{ id: number; name: string; type: string; upside_down: number; push_token: string | null }>('SELECT * FROM monitor'),
      notifications: all<{ name: string }>('SELECT * FROM notification'),
      pages: all<{ slug: string }>('SELECT * FROM status_page'),
      drill: all<{ start_date: string }>("SELECT * FROM maintenance WHERE strategy = 'single'")[0]!,
      entries: all<{ monitor_id: number }>('SELECT * FROM monitor_group'),
      beats: all<{ monitor_id: number; status: number; time: string }>('SELECT monitor_id, status, time FROM heartbeat WHERE status IN (0, 1) ORDER BY monitor_id, time, id'),
    }
  } finally {
    kuma.close()
  }
}

const counts = (ownerId: number) => countsIn(ctx, ownerId)

async function countsIn(ctx: TestContext, ownerId: number) {
  const db = () => ctx.database.db
  const pages = await db().selectFrom('status_pages').select('id').where('owner_id', '=', ownerId).execute()
  const pageIds = pages.map((p) => p.id)
  const n = async (q: Promise<{ n: unknown } | undefined>) => Number((await q)?.n ?? 0)
  const components = pageIds.length ? await db().selectFrom('components').select('id').where('page_id', 'in', pageIds).execute() : []
  return {
    pages: pages.length,
    components: components.length,
    history: components.length ? await n(db().selectFrom('component_status_history').select((eb) => eb.fn.countAll().as('n')).where('component_id', 'in', components.map((c) => c.id)).executeTakeFirst()) : 0,
    monitors: await n(db().selectFrom('monitors').select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', ownerId).executeTakeFirst()),
    channels: await n(db().selectFrom('notification_channels').select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', ownerId).executeTakeFirst()),
    maintenances: pageIds.length ? await n(db().selectFrom('maintenances').select((eb) => eb.fn.countAll().as('n')).where('page_id', 'in', pageIds).executeTakeFirst()) : 0,
    mappings: await n(db().selectFrom('import_mappings').select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', ownerId).executeTakeFirst()),
  }
}

const NOT_BROUGHT_BOTH = [
  'monitor:Public website', 'monitor:Core API', 'monitor:Worker container', 'monitor:Staging admin must stay private',
  'notification:ntfy on-call',
  'maintenance:Weekly patch window', 'maintenance:Nightly search index rebuild',
  'incident:Elevated API latency', 'incident:API v1 (legacy) unavailable',
  'setting:docker_host', 'setting:api_key',
  'status page setting:Fernbrook Analytics Status', 'status page setting:Fernbrook Internal Services',
]

for (const [label, path] of [['2.5.3', KUMA2], ['1.23.16', KUMA1]] as const) {
  describe(`Uptime Kuma ${label}`, () => {
    // Each source in an instance of its own: slugs, domains and push tokens are unique per instance.
    let ctx: TestContext
    const db = () => ctx.database.db
    const importKuma = (owner: Owner, path: string) => ctx.app.services.importer.apply(owner, planFromKuma(readKumaDatabase(path)))
    const counts = (ownerId: number) => countsIn(ctx, ownerId)
    afterAll(() => ctx.close())
    let owner: Owner
    let report: Awaited<ReturnType<typeof importKuma>>
    const src = source(path)
    // Pages get the source's slugs; the second fixture's pages take -imported ones, which the test reads back.
    beforeAll(async () => {
      ctx = await newContext()
      ;({ user: owner } = await ctx.createOwner('enterprise'))
      report = await importKuma(owner, path)
    })

    test('counts of every kind match the source, and the report lists exactly what was left out', async () => {
      const skippedMonitors = report.skipped.filter((s) => s.kind === 'monitor').length
      const skippedChannels = report.skipped.filter((s) => s.kind === 'notification').length
      expect(report.created.monitors + skippedMonitors).toBe(src.monitors.length)
      expect(report.created.channels + skippedChannels).toBe(src.notifications.length)
      expect(report.created.pages).toBe(src.pages.length)
      expect(report.created.components).toBe(src.entries.length)
      expect(report.created.maintenances).toBe(1)
      const stored = await counts(owner.id)
      expect(stored).toMatchObject({ pages: 2, components: 13, monitors: 12, channels: 7, maintenances: 1 })
      expect(stored.history).toBe(report.created.history)
      expect(report.skipped.map((s) => `${s.kind}:${s.name}`).sort()).toEqual([...NOT_BROUGHT_BOTH].sort())
      // Every source monitor is either brought or named in the report.
      const monitorNames = new Set((await db().selectFrom('monitors').select('name').where('owner_id', '=', owner.id).execute()).map((m) => m.name))
      for (const m of src.monitors) expect(monitorNames.has(m.name) || report.skipped.some((s) => s.kind === 'monitor' && s.name === m.name)).toBe(true)
    })

    test('fields, one by one', async () => {
      const monitor = async (name: string) => {
        const row = await db().selectFrom('monitors').selectAll().where('owner_id', '=', owner.id).where('name', '=', name).executeTakeFirstOrThrow()
        return { ...row, options: JSON.parse(row.options_json) }
      }
      // A page's description comes as written, shown under its name.
      const pages = await db().selectFrom('status_pages').select(['name', 'description']).where('owner_id', '=', owner.id).orderBy('id').execute()
      expect(pages).toEqual([
        { name: 'Fernbrook Analytics Status', description: 'Live status of the Fernbrook website and public API. Subscribe via RSS or follow @fernbrookstatus.' },
        { name: 'Fernbrook Internal Services', description: 'Infrastructure the engineering team depends on. Not linked publicly.' },
      ])
      const post = await monitor('Webhook intake (POST)')
      expect(post).toMatchObject({ type: 'http', target: 'http://127.0.0.1:18480/api/health.json', interval_s: 30, timeout_ms: 24_000, confirm_failures: 2, confirm_successes: 1, enabled: 1 })
      expect(post.options).toMatchObject({ method: 'POST', accepted_status: '200-299,501', body: '{"event": "ping", "source": "uptime-kuma"}' })
      expect(post.options.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Probe': 'kuma' })
      expect(post.options.headers.Authorization).toStartWith('Basic ')
      const legacy = await monitor('API v1 (legacy)')
      expect(legacy).toMatchObject({ confirm_failures: 4, interval_s: 30 })
      expect(legacy.options.accepted_status).toBe('200-299,300-399')
      const homepage = await monitor('Homepage')
      // Kuma's 20 s stays: the Enterprise plan checks as often as every 10 s.
      expect(homepage.interval_s).toBe(20)
      expect(report.changed).not.toContainEqual({ kind: 'monitor', name: 'Homepage', reason: expect.stringContaining('interval 20 s became') })
      expect((await monitor('Pricing page')).options).toMatchObject({ keyword: 'Start free trial', keyword_present: true })
      expect((await monitor('API health')).options.conditions).toEqual(['[BODY].status == "UP"'])
      // Kuma 2 sets the echo requests per run; Kuma 1 sends one.
      expect(await monitor('Gateway ping')).toMatchObject({ type: 'ping', target: '127.0.0.1' })
      expect((await monitor('Gateway ping')).options.ping_count).toBeGreaterThanOrEqual(1)
      const tcp = await monitor('PostgreSQL primary')
      expect(tcp).toMatchObject({ type: 'tcp', target: '127.0.0.1' })
      expect(tcp.options.port).toBe(18481)
      const dnsA = await monitor('DNS app.fernbrook.example.test (A)')
      expect(dnsA).toMatchObject({ type: 'dns', target: 'app.fernbrook.example.test' })
      expect(dnsA.options).toMatchObject({ record_type: 'A', resolver: '127.0.0.1:18553' })
      // 2.x states the expected answer as a condition; 1.23 has none.
      if (label === '2.5.3') expect(dnsA.options.expected).toEqual(['192.0.2.10'])
      else expect(dnsA.options.expected).toBeUndefined()
      expect((await monitor('DNS fernbrook.example.test (MX)')).options.record_type).toBe('MX')
      expect((await monitor('Status API v2')).enabled).toBe(0)

      const fernbrook = await db().selectFrom('status_pages').selectAll().where('owner_id', '=', owner.id).where('name', '=', 'Fernbrook Analytics Status').executeTakeFirstOrThrow()
      const homepageComponent = await db().selectFrom('components').selectAll().where('id', '=', homepage.component_id!).executeTakeFirstOrThrow()
      expect(homepageComponent).toMatchObject({ page_id: fernbrook.id, name: 'Homepage', group_name: 'Website', type: 'site' })
      const groups = await db().selectFrom('components').select(['name', 'group_name']).where('page_id', '=', fernbrook.id).orderBy('position').execute()
      expect(groups.map((g) => `${g.group_name}/${g.name}`)).toEqual(['Website/Homepage', 'Website/Pricing page', 'API/API health', 'API/Webhook intake (POST)', 'API/API v1 (legacy)', 'Data jobs/Nightly backup'])
      const css = await db().selectFrom('page_appearance').select('custom_css').where('page_id', '=', fernbrook.id).executeTakeFirst()
      expect(css?.custom_css).toBeTruthy()

      const channel = async (name: string) => {
        const row = await db().selectFrom('notification_channels').selectAll().where('owner_id', '=', owner.id).where('name', '=', name).executeTakeFirstOrThrow()
        const pages = await db().selectFrom('notification_channel_pages').select('page_id').where('channel_id', '=', row.id).execute()
        return { ...row, config: JSON.parse(row.config_json), pages: pages.map((p) => p.page_id) }
      }
      const slack = await channel('Slack #alerts')
      expect(slack).toMatchObject({ type: 'slack', all_pages: 0, enabled: 1 })
      expect(slack.config.url).toBe('http://127.0.0.1:18499/services/T0000FAKE/B0000FAKE/XXXXXXXXXXXXXXXXXXXXXXXX')
      expect(slack.pages.length).toBeGreaterThan(0)
      expect((await channel('PagerDuty primary')).config).toEqual({ routing_key: 'f1x7ur3k3y00000000000000000000aa' })
      expect((await channel('Ops e-mail')).config).toEqual({ address: 'ops@fernbrook.example.test' })
      const webhook = await channel('Incident bot webhook')
      expect(webhook.all_pages).toBe(1) // Kuma's default notification
      expect(webhook.config.signing_secret).toStartWith('whsec_')
      expect((await channel('Telegram ops group')).config).toEqual({ bot_token: '1234567890:AAFakeBotTokenForFixturesOnly000000', chat_id: '-1001234567890' })

      const window = await db().selectFrom('maintenances').selectAll().where('title', '=', 'Database failover drill').where('page_id', 'in', (await db().selectFrom('status_pages').select('id').where('owner_id', '=', owner.id).execute()).map((p) => p.id)).executeTakeFirstOrThrow()
      // Stored as UTC wall-clock times ('2026-11-27T17:43', timezone UTC).
      expect(window.start_at).toBe(Date.parse(`${src.drill.start_date}:00Z`))
      expect(window.end_at - window.start_at).toBe(3 * 60_000)
      const onWindow = await db().selectFrom('maintenance_components').innerJoin('components', 'components.id', 'maintenance_components.component_id').select('components.name').where('maintenance_id', '=', window.id).execute()
      expect(onWindow.map((c) => c.name).sort()).toEqual(['PostgreSQL primary', 'Worker container'])
    })

    test('a push monitor whose token another monitor here already has gets a new one, said in the report', async () => {
      const { user } = await ctx.createOwner('enterprise')
      const again = await importKuma(user, path)
      const line = again.changed.find((c) => c.name === 'Nightly backup' && c.reason.includes('push URL is now'))
      expect(line?.reason).toContain('already used by another monitor')
      const token = /\/api\/push\/(\S+)/.exec(line!.reason)![1]!
      expect((await ctx.request(`/api/push/${token}?status=up`)).status).toBe(200)
      // The slug and custom domain were taken by the first import: said too.
      expect(again.changed).toContainEqual({ kind: 'status page', name: 'Fernbrook Analytics Status', reason: 'slug "fernbrook" became "fernbrook-imported"' })
      expect(again.skipped).toContainEqual({ kind: 'status page setting', name: 'Fernbrook Analytics Status', reason: 'custom domain status.fernbrook.example.test not brought: another page uses it' })
    })

    test('a push monitor keeps its token: the same /api/push/<token> path answers', async () => {
      const kuma = src.monitors.find((m) => m.name === 'Nightly backup')!
      const row = await db().selectFrom('monitors').select(['id', 'push_token_hash']).where('owner_id', '=', owner.id).where('name', '=', 'Nightly backup').executeTakeFirstOrThrow()
      expect(row.push_token_hash).toBe(await sha256Hex(kuma.push_token!))
      const response = await ctx.request(`/api/push/${kuma.push_token}?status=up`)
      expect(response.status).toBe(200)
    })

    test('history: each component’s changes span the monitor’s heartbeats, and its status is the last one', async () => {
      const entries = await db()
        .selectFrom('components')
        .innerJoin('status_pages', 'status_pages.id', 'components.page_id')
        .select(['components.id', 'components.name', 'components.status'])
        .where('status_pages.owner_id', '=', owner.id)
        .execute()
      let checked = 0
      for (const entry of entries) {
        const monitorId = src.monitors.find((m) => m.name === entry.name)!.id
        const beats = src.beats.filter((b) => b.monitor_id === monitorId)
        const history = await db().selectFrom('component_status_history').select(['status', 'at']).where('component_id', '=', entry.id).orderBy('at').execute()
        if (beats.length === 0) {
          expect(history).toEqual([])
          continue
        }
        expect(Number(history[0]!.at)).toBe(kumaTime(beats[0]!.time)!)
        const lastStatus = beats.at(-1)!.status === 1 ? 'up' : 'down'
        expect(history.at(-1)!.status).toBe(lastStatus)
        expect(entry.status).toBe(lastStatus)
        // No change is recorded before the first beat or after the last.
        expect(Number(history.at(-1)!.at)).toBeLessThanOrEqual(kumaTime(beats.at(-1)!.time)!)
        checked++
      }
      expect(checked).toBeGreaterThanOrEqual(10)
    })

    test('a second run changes nothing', async () => {
      const before = await counts(owner.id)
      const again = await importKuma(owner, path)
      expect(Object.values(again.created).every((n) => n === 0)).toBe(true)
      expect(again.unchanged).toMatchObject({ pages: 2, components: 13, monitors: 12, channels: 7, maintenances: 1, history: report.created.history })
      expect(await counts(owner.id)).toEqual(before)
    })
  })
}

describe('files that are not a Kuma database, and refused runs', () => {
  test('a damaged file: a clear error, nothing changed', async () => {
    const { user } = await ctx.createOwner('enterprise')
    const damaged = join(ctx.dir, 'damaged.db')
    const bytes = readFileSync(KUMA2)
    writeFileSync(damaged, bytes.subarray(0, 40_000))
    const before = await counts(user.id)
    expect(() => importKuma(user, damaged)).toThrow(/damaged|malformed|not a readable SQLite database/)
    const garbage = join(ctx.dir, 'garbage.db')
    writeFileSync(garbage, 'this is not sqlite at all '.repeat(400))
    expect(() => importKuma(user, garbage)).toThrow('is not a readable SQLite database')
    expect(() => importKuma(user, join(ctx.dir, 'missing.db'))).toThrow('cannot open')
    expect(await counts(user.id)).toEqual(before)
  })

  test('a foreign SQLite file: named as not Kuma, nothing changed', async () => {
    const { user } = await ctx.createOwner('enterprise')
    const foreign = join(ctx.dir, 'foreign.db')
    const other = new Database(foreign)
    other.run('CREATE TABLE monitor (id INTEGER PRIMARY KEY)')
    other.close()
    expect(() => importKuma(user, foreign)).toThrow(/not an Uptime Kuma database: it has no "heartbeat"/)
    expect(await counts(user.id)).toEqual({ pages: 0, components: 0, history: 0, monitors: 0, channels: 0, maintenances: 0, mappings: 0 })
  })

  test('the source file is only read: its bytes are the same after an import', async () => {
    const { user } = await ctx.createOwner('enterprise')
    const copy = join(ctx.dir, 'kuma-copy.db')
    copyFileSync(KUMA1, copy)
    const before = await sha256Hex(readFileSync(copy))
    await importKuma(user, copy)
    expect(await sha256Hex(readFileSync(copy))).toBe(before)
  })

  test('a run the plan refuses (too many monitors) is all or nothing', async () => {
    const { user } = await ctx.createOwner('free')
    await expect(importKuma(user, KUMA2)).rejects.toThrow('the import brings 12 monitors; the Free plan allows 5')
    expect(await counts(user.id)).toEqual({ pages: 0, components: 0, history: 0, monitors: 0, channels: 0, maintenances: 0, mappings: 0 })
  })

  test('the CLI prints the report as JSON, and a foreign file exits 1 with one line', async () => {
    const { user } = await ctx.createOwner('enterprise')
    const env = { ...ctx.databaseEnv, MONITOR_PRIVATE_TARGETS: '1' }
    const run = await runCliProcess(['import', 'uptime-kuma', '--email', user.email, '--db', KUMA1, '--json'], env)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const printed = JSON.parse(run.stdout)
    expect(printed).toMatchObject({ source: 'uptime-kuma', source_version: '1.x', created: { pages: 2, monitors: 12, channels: 7 } })
    const text = await runCliProcess(['import', 'uptime-kuma', '--email', user.email, '--db', KUMA1], env)
    expect(text.stdout).toContain('Created: 0 pages, 0 components, 0 monitors')
    const bad = await runCliProcess(['import', 'uptime-kuma', '--email', user.email, '--db', join(FIXTURES, 'gatus-config.yaml')], env)
    expect(bad.code).toBe(1)
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
    expect(bad.stderr).toContain('is not a readable SQLite database')
  })
})
