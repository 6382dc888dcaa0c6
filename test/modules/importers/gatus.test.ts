/**
 * `lantern import gatus` against the shared Gatus configuration: counts match the file, conditions
 * translated one by one, the report lists exactly what was left out, a second run changes nothing,
 * and a file that is not YAML or not Gatus changes nothing. Runs on PostgreSQL too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sha256Hex } from '../../../src/lib/crypto.ts'
import { readGatusConfig } from '../../../src/modules/importers/gatus-read.ts'
import { goDuration, planFromGatus, translateConditions } from '../../../src/modules/importers/gatus-map.ts'
import { parseConditions } from '../../../src/modules/monitors/kinds/conditions.ts'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { runCliProcess } from '../../helpers/cli.ts'

const CONFIG = join(import.meta.dir, '../../fixtures/importers/gatus-config.yaml')

let ctx: TestContext
let owner: Owner
let report: Awaited<ReturnType<typeof importGatus>>
const db = () => ctx.database.db
const importGatus = async (user: Owner, path: string) => ctx.app.services.importer.apply(user, planFromGatus(await readGatusConfig(path)))

beforeAll(async () => {
  ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
  ;({ user: owner } = await ctx.createOwner('enterprise'))
  report = await importGatus(owner, CONFIG)
})
afterAll(() => ctx.close())

async function counts(ownerId: number) {
  const pages = (await db().selectFrom('status_pages').select('id').where('owner_id', '=', ownerId).execute()).map((p) => p.id)
  return {
    pages: pages.length,
    components: pages.length ? (await db().selectFrom('components').select('id').where('page_id', 'in', pages).execute()).length : 0,
    monitors: (await db().selectFrom('monitors').select('id').where('owner_id', '=', ownerId).execute()).length,
    channels: (await db().selectFrom('notification_channels').select('id').where('owner_id', '=', ownerId).execute()).length,
    mappings: (await db().selectFrom('import_mappings').select('source_key').where('owner_id', '=', ownerId).execute()).length,
  }
}

const monitor = async (name: string) => {
  const row = await db().selectFrom('monitors').selectAll().where('owner_id', '=', owner.id).where('name', '=', name).executeTakeFirstOrThrow()
  return { ...row, options: JSON.parse(row.options_json) }
}

describe('Gatus configuration', () => {
  test('counts match the file; the report lists exactly what was left out', async () => {
    const file = (await readGatusConfig(CONFIG)) as { endpoints: unknown[]; 'external-endpoints': unknown[]; alerting: Record<string, unknown> }
    const skippedEndpoints = report.skipped.filter((s) => s.kind === 'endpoint').length
    expect(report.created.monitors + skippedEndpoints).toBe(file.endpoints.length + file['external-endpoints'].length)
    expect(report.created.components).toBe(report.created.monitors)
    const skippedProviders = report.skipped.filter((s) => s.kind === 'alerting provider').length
    expect(report.created.channels + skippedProviders).toBe(Object.keys(file.alerting).length)
    expect(await counts(owner.id)).toMatchObject({ pages: 1, components: 16, monitors: 16, channels: 6 })
    expect(report.skipped.map((s) => `${s.kind}: ${s.name}`).sort()).toEqual([
      'alerting override: email for group jobs',
      'alerting override: pagerduty for group infrastructure',
      'alerting override: slack for group infrastructure',
      'alerting provider: ntfy',
      'alerting provider: teams-workflows',
      'condition: api-health: [CERTIFICATE_EXPIRATION] > 48h',
      'condition: docs: [CERTIFICATE_EXPIRATION] > 240h',
      'condition: docs: [DOMAIN_EXPIRATION] > 720h',
      'condition: graphql: [BODY].data.viewer.plan == any(free, team, enterprise)',
      'condition: graphql: has([BODY].errors) == false',
      'condition: homepage: [CERTIFICATE_EXPIRATION] > 48h',
      'condition: redis-cache: [BODY] == pat(*PONG*)',
      'condition: redis-cache: body "PING\\r\\n"',
      'maintenance window: postgres-primary',
      'setting: announcements',
      'setting: maintenance',
      'setting: metrics',
      'setting: security',
      'setting: storage',
      'setting: web',
      'ui setting: header, logo, link, buttons, dashboard-heading, dashboard-subheading',
    ])
  })

  test('endpoints and their conditions, one by one', async () => {
    const health = await monitor('api-health')
    expect(health).toMatchObject({ type: 'json', target: 'https://api.fernbrook.example.test/health', interval_s: 30, confirm_failures: 1, confirm_successes: 1, retries: 0 })
    expect(health.options).toMatchObject({ accepted_status: '200', headers: { Accept: 'application/json' } })
    expect(health.options.conditions).toEqual(['[BODY].status == "UP"', '[BODY].checks.database == "UP"', '[RESPONSE_TIME] < 300'])
    expect(parseConditions(health.options.conditions).ok).toBe(true)
    expect((await monitor('pricing-page')).options).toMatchObject({ keyword: 'Start free trial', accepted_status: '200' })
    expect((await monitor('pricing-page')).type).toBe('keyword')
    expect((await monitor('docs')).options.accepted_status).toBe('100-399')
    expect(await monitor('docs')).toMatchObject({ type: 'http', interval_s: 600, timeout_ms: 15_000 })
    // icmp:// is a ping check; [CONNECTED] is what it checks anyway, [RESPONSE_TIME] a degraded bound.
    expect(await monitor('office-gateway')).toMatchObject({ type: 'ping', target: '10.20.0.1', degraded_after_ms: 50 })
    const legacy = await monitor('api-v1-legacy')
    expect(legacy).toMatchObject({ enabled: 0, interval_s: 300 })
    expect(legacy.options.accepted_status).toBe('200,204')
    const graphql = await monitor('graphql')
    expect(graphql).toMatchObject({ type: 'http' })
    expect(JSON.parse(graphql.options.body)).toEqual({ query: '{ viewer { id plan } }\n' })
    expect(graphql.options.method).toBe('POST')
    expect((await monitor('billing-api')).options.conditions).toEqual(['len([BODY].regions) >= 2'])
    expect(await monitor('homepage')).toMatchObject({ type: 'http', degraded_after_ms: 300 })
    const pg = await monitor('postgres-primary')
    expect(pg).toMatchObject({ type: 'tcp', target: '10.20.1.10:5432', degraded_after_ms: 100 })
    const ldaps = await monitor('ldaps')
    expect(ldaps).toMatchObject({ type: 'tls', target: 'ldap.fernbrook.example.test:636', interval_s: 1800, timeout_ms: 5000 })
    expect(ldaps.options.tls_fail_below_days).toBe(2)
    const dnsA = await monitor('dns-app-a-record')
    expect(dnsA).toMatchObject({ type: 'dns', target: 'app.fernbrook.example.test' })
    expect(dnsA.options).toMatchObject({ record_type: 'A', resolver: '10.20.0.53', expected: ['192.0.2.10'] })
    expect((await monitor('dns-mx')).options.record_type).toBe('MX')

    const backup = await monitor('nightly-backup')
    expect(backup).toMatchObject({ type: 'push', interval_s: 86_400 })
    expect(backup.push_token_hash).toBe(await sha256Hex('fake-push-token-backup'))
    expect((await ctx.request('/api/push/fake-push-token-invoices?status=up')).status).toBe(200)

    const components = await db().selectFrom('components').select(['name', 'group_name']).where('id', '=', health.component_id!).executeTakeFirstOrThrow()
    expect(components).toEqual({ name: 'api-health', group_name: 'api' })
    const page = await db().selectFrom('status_pages').selectAll().where('owner_id', '=', owner.id).executeTakeFirstOrThrow()
    expect(page).toMatchObject({ slug: 'fernbrook-analytics', name: 'Fernbrook Analytics | Status', description: 'Health of the Fernbrook website, API and infrastructure.' })
    const groups = await db().selectFrom('components').select('group_name').where('page_id', '=', page.id).orderBy('position').execute()
    expect([...new Set(groups.map((g) => g.group_name))]).toEqual(['website', 'api', 'infrastructure', 'jobs'])

    const channel = async (name: string) => JSON.parse((await db().selectFrom('notification_channels').select('config_json').where('owner_id', '=', owner.id).where('name', '=', name).executeTakeFirstOrThrow()).config_json)
    expect(await channel('Gatus slack')).toEqual({ url: 'https://hooks.slack.example.test/services/T0000FAKE/B0000FAKE/XXXXXXXXXXXXXXXXXXXXXXXX' })
    expect(await channel('Gatus pagerduty')).toEqual({ routing_key: 'f1x7ur3k3y00000000000000000000aa' })
    expect(await channel('Gatus email')).toEqual({ address: 'ops@fernbrook.example.test' })
    expect((await channel('Gatus custom')).url).toBe('https://incident-bot.fernbrook.example.test/hooks/gatus')
  })

  test('a second run changes nothing', async () => {
    const before = await counts(owner.id)
    const again = await importGatus(owner, CONFIG)
    expect(Object.values(again.created).every((n) => n === 0)).toBe(true)
    expect(again.unchanged).toMatchObject({ pages: 1, components: 16, monitors: 16, channels: 6 })
    expect(await counts(owner.id)).toEqual(before)
  })

  test('a file that is not YAML, not Gatus, or missing: a clear error and nothing changed', async () => {
    const { user } = await ctx.createOwner('enterprise')
    const broken = join(ctx.dir, 'broken.yaml')
    writeFileSync(broken, 'endpoints:\n  - name: [unclosed\n    url: "https://x\n')
    await expect(importGatus(user, broken)).rejects.toThrow('is not valid YAML')
    const other = join(ctx.dir, 'compose.yaml')
    writeFileSync(other, 'services:\n  web:\n    image: nginx\n')
    await expect(importGatus(user, other)).rejects.toThrow('not a Gatus configuration')
    await expect(importGatus(user, join(ctx.dir, 'nope.yaml'))).rejects.toThrow('no such file')
    expect(await counts(user.id)).toEqual({ pages: 0, components: 0, monitors: 0, channels: 0, mappings: 0 })
    const cli = await runCliProcess(['import', 'gatus', '--email', user.email, '--config', other], ctx.databaseEnv)
    expect(cli.code).toBe(1)
    expect(cli.stderr).toContain('not a Gatus configuration')
  })
})

describe('translation rules', () => {
  test('durations and conditions', () => {
    expect(goDuration('1h30m')).toBe(5_400_000)
    expect(goDuration('25h')).toBe(90_000_000)
    expect(goDuration('soon')).toBeNull()
    const t = translateConditions(['[STATUS] >= 200', '[BODY].count > 3', '[BODY].name == "a b"', 'has([BODY].id) == true', '[CONNECTED] == true'], 'http')
    expect(t.acceptedStatus).toBe('200-599')
    expect(t.conditions).toEqual(['[BODY].count > 3', '[BODY].name == "a b"', 'has([BODY].id)'])
    expect(t.untranslated).toEqual([{ condition: '[CONNECTED] == true', reason: 'Lantern has no counterpart for this condition' }])
  })
})
