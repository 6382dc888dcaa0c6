/**
 * `lantern import statuspage` against a local HTTP server answering the shared Statuspage fixtures
 * (paged answers, one 429 with Retry-After): counts of every kind match the source, a sample of
 * fields one by one, what the public page then shows, the report lists exactly what was left out,
 * a second run changes nothing, a foreign or damaged answer changes nothing, `--from` a folder of
 * saved answers, and `--reconfirm` mails each subscriber the confirmation link of the normal
 * subscribe flow. Runs on PostgreSQL too (LANTERN_TEST_POSTGRES).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fetchStatuspage, readStatuspageFolder, retryAfterMs } from '../../../src/modules/importers/statuspage-read.ts'
import { planFromStatuspage } from '../../../src/modules/importers/statuspage-map.ts'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { runCliProcess } from '../../helpers/cli.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { linkIn, postSite, tokenOf } from '../subscribers/helpers.ts'

/** Copies of the shared importer fixtures (statuspage/README.md says what each file is). */
const FIXTURES = join(import.meta.dir, '../../fixtures/importers/statuspage')
const fixture = (name: string): any => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'))
const PAGE_ID = 'cqt8jkszprfk'
const API_KEY = 'fake-oauth-key-0000'
/** After the fixtures' incidents, before the scheduled maintenance (2026-12-06 01:00 UTC). */
const NOW = Date.UTC(2026, 11, 5, 12, 0)

const ROUTES: Record<string, string> = {
  '': 'pages.json',
  '/components': 'components.json',
  '/component-groups': 'component-groups.json',
  '/incidents': 'incidents.json',
  '/incidents/scheduled': 'incidents-scheduled.json',
  '/subscribers': 'subscribers.json',
}

/** The fake API: what it was asked, and how it misbehaves next. */
const asked: Array<{ path: string; auth: string | null }> = []
let misbehave: { path: string; status?: number; body?: string; always?: boolean } | null = null
let rateLimitOnce = true
let server: ReturnType<typeof Bun.serve>
let baseUrl: string

function startFakeStatuspage() {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url)
      const auth = request.headers.get('authorization')
      asked.push({ path: `${url.pathname}${url.search}`, auth })
      if (auth !== `OAuth ${API_KEY}`) return Response.json({ error: 'Could not authenticate' }, { status: 401 })
      const route = url.pathname.replace(`/v1/pages/${PAGE_ID}`, '')
      if (!url.pathname.startsWith(`/v1/pages/${PAGE_ID}`) || !(route in ROUTES)) return Response.json({ error: 'not found' }, { status: 404 })
      if (misbehave && misbehave.path === route) {
        const answer = new Response(misbehave.body ?? '', { status: misbehave.status ?? 200, headers: { 'retry-after': '3' } })
        if (!misbehave.always) misbehave = null
        return answer
      }
      if (route === '/incidents' && url.searchParams.get('page') === '2' && rateLimitOnce) {
        rateLimitOnce = false
        return new Response('Rate limited', { status: 429, headers: { 'retry-after': '7' } })
      }
      const body = fixture(ROUTES[route]!)
      if (!Array.isArray(body)) return Response.json(body)
      const page = Number(url.searchParams.get('page') ?? 1)
      const perPage = Number(url.searchParams.get('per_page') ?? 100)
      return Response.json(body.slice((page - 1) * perPage, page * perPage))
    },
  })
  baseUrl = `http://127.0.0.1:${server.port}`
}

let smtp: SmtpHarness
let ctx: TestContext
let owner: Owner
const waits: number[] = []
const sleep = async (ms: number) => {
  waits.push(ms)
}
const db = () => ctx.database.db
const fetchPage = (options: { apiKey?: string } = {}) => fetchStatuspage({ pageId: PAGE_ID, apiKey: options.apiKey ?? API_KEY, baseUrl, perPage: 2, sleep })
const importStatuspage = async (user: Owner, reconfirm = false) => ctx.app.services.importer.apply(user, planFromStatuspage(await fetchPage()), { reconfirm })
let report: Awaited<ReturnType<typeof importStatuspage>>

beforeAll(async () => {
  startFakeStatuspage()
  smtp = await startSmtp()
  ctx = await createTestContext({ env: { ...smtp.env }, now: NOW })
  ;({ user: owner } = await ctx.createOwner('enterprise'))
  report = await importStatuspage(owner)
})
afterAll(async () => {
  await ctx.close()
  await smtp.close()
  server.stop(true)
})

async function counts(ownerId: number) {
  const pages = (await db().selectFrom('status_pages').select('id').where('owner_id', '=', ownerId).execute()).map((p) => p.id)
  const none = pages.length === 0
  const incidents = none ? [] : (await db().selectFrom('incidents').select('id').where('page_id', 'in', pages).execute()).map((i) => i.id)
  const count = async (rows: Promise<unknown[]>) => (await rows).length
  return {
    pages: pages.length,
    components: none ? 0 : await count(db().selectFrom('components').select('id').where('page_id', 'in', pages).execute()),
    history: none ? 0 : await count(db().selectFrom('component_status_history').innerJoin('components', 'components.id', 'component_status_history.component_id').select('component_status_history.id').where('components.page_id', 'in', pages).execute()),
    incidents: incidents.length,
    updates: incidents.length === 0 ? 0 : await count(db().selectFrom('incident_updates').select('id').where('incident_id', 'in', incidents).execute()),
    incidentComponents: incidents.length === 0 ? 0 : await count(db().selectFrom('incident_components').select('incident_id').where('incident_id', 'in', incidents).execute()),
    maintenances: none ? 0 : await count(db().selectFrom('maintenances').select('id').where('page_id', 'in', pages).execute()),
    subscribers: none ? 0 : await count(db().selectFrom('subscribers').select('id').where('page_id', 'in', pages).execute()),
    mappings: await count(db().selectFrom('import_mappings').select('source_key').where('owner_id', '=', ownerId).execute()),
  }
}

const incidentNamed = (title: string) => db().selectFrom('incidents').selectAll().where('title', '=', title).orderBy('id').executeTakeFirstOrThrow()
const componentNames = async (ids: number[]) => (await db().selectFrom('components').select('name').where('id', 'in', ids).orderBy('name').execute()).map((c) => c.name)

describe('Statuspage over its API', () => {
  test('every list is fetched page by page with the OAuth key; the 429 waits its Retry-After and is asked again', () => {
    expect(asked.every((a) => a.auth === `OAuth ${API_KEY}`)).toBe(true)
    const incidentPages = asked.filter((a) => a.path.startsWith(`/v1/pages/${PAGE_ID}/incidents?`)).map((a) => a.path.replace(/^.*\?/, ''))
    // 6 incidents, 2 a page: page 2 is asked twice (429 first), page 4 is the short (empty) last one.
    expect(incidentPages).toEqual(['page=1&per_page=2', 'page=2&per_page=2', 'page=2&per_page=2', 'page=3&per_page=2', 'page=4&per_page=2'])
    expect(asked.filter((a) => a.path.startsWith(`/v1/pages/${PAGE_ID}/subscribers?`)).length).toBe(3)
    expect(waits).toEqual([7000])
    expect(retryAfterMs('86400', 0)).toBe(60_000)
    expect(retryAfterMs(null, 0)).toBe(1000)
    expect(retryAfterMs(new Date(5000).toUTCString(), 0)).toBe(5000)
  })

  test('counts of every kind match the source', async () => {
    const components = fixture('components.json').filter((c: any) => !c.group)
    const incidents = fixture('incidents.json')
    const realtime = incidents.filter((i: any) => !i.scheduled_for)
    const emails = fixture('subscribers.json').filter((s: any) => s.mode === 'email' && !s.quarantined_at)
    const stored = await counts(owner.id)
    expect(stored).toMatchObject({
      pages: 1,
      components: components.length,
      incidents: realtime.length,
      updates: realtime.reduce((n: number, i: any) => n + i.incident_updates.length, 0),
      incidentComponents: realtime.reduce((n: number, i: any) => n + i.components.length, 0),
      maintenances: incidents.length - realtime.length,
      subscribers: emails.length,
    })
    expect(stored).toEqual({ pages: 1, components: 8, history: stored.history, incidents: 5, updates: 13, incidentComponents: 6, maintenances: 1, subscribers: 2, mappings: 1 + 8 + 5 + 1 + 2 })
    expect(report.created).toEqual({ pages: 1, components: 8, monitors: 0, channels: 0, maintenances: 1, incidents: 5, subscribers: 2, history: stored.history })
  })

  test('components, groups and their history', async () => {
    const page = await db().selectFrom('status_pages').selectAll().where('owner_id', '=', owner.id).executeTakeFirstOrThrow()
    expect(page).toMatchObject({ slug: 'fernbrook', name: 'Fernbrook Analytics', custom_domain: 'status.fernbrook.example.test', custom_domain_state: 'pending', visibility: 'public' })
    const components = await db().selectFrom('components').select(['id', 'name', 'group_name', 'status']).where('page_id', '=', page.id).orderBy('position').execute()
    expect(components.map((c) => `${c.group_name ?? '-'} / ${c.name} / ${c.status}`)).toEqual([
      'Core platform / Web app / up',
      'Core platform / Public API / up',
      'Core platform / Webhooks / up',
      'Core platform / Authentication / up',
      'Data pipeline / Event ingestion / degraded',
      'Data pipeline / Dashboards & reports / up',
      'Data pipeline / Data exports / up',
      '- / Support portal / up',
    ])
    // The Public API's bar: up since 2024, down, partial, up again as the incident's updates said.
    const api = components.find((c) => c.name === 'Public API')!
    const history = await db().selectFrom('component_status_history').select(['status', 'at']).where('component_id', '=', api.id).orderBy('at').execute()
    expect(history.map((h) => [h.status, new Date(Number(h.at)).toISOString()])).toEqual([
      ['up', '2024-03-04T10:14:37.000Z'],
      ['down', '2026-11-12T10:06:51.301Z'],
      ['partial', '2026-11-12T10:33:15.940Z'],
      ['up', '2026-11-12T10:52:02.017Z'],
    ])
  })

  test('incidents with their updates, components, impact and postmortem', async () => {
    const source = fixture('incidents.json').find((i: any) => i.id === 'fej1z4onvv4y')
    const incident = await incidentNamed('Public API elevated error rates')
    expect(incident).toMatchObject({ state: 'resolved', impact: 'major', started_at: Date.parse('2026-11-12T10:06:51Z'), resolved_at: Date.parse('2026-11-12T11:58:40Z') })
    expect(incident.postmortem).toBe(fixture('incident-postmortem.json').body)
    expect(Number(incident.postmortem_published_at)).toBe(Date.parse('2026-11-14T09:30:00Z'))
    expect(Number(incident.postmortem_updated_at)).toBe(Date.parse('2026-11-14T09:12:44Z'))
    const updates = await db().selectFrom('incident_updates').select(['state', 'message', 'at']).where('incident_id', '=', incident.id).orderBy('at').execute()
    expect(updates.map((u) => u.state)).toEqual(['investigating', 'identified', 'monitoring', 'resolved'])
    expect(updates[0]).toEqual({ state: 'investigating', message: source.incident_updates[3].body, at: Date.parse('2026-11-12T10:06:51.301Z') })
    const linked = await db().selectFrom('incident_components').select('component_id').where('incident_id', '=', incident.id).execute()
    expect(await componentNames(linked.map((l) => l.component_id))).toEqual(['Public API', 'Webhooks'])

    const open = await incidentNamed('Delayed event ingestion in eu-west')
    expect(open).toMatchObject({ state: 'identified', impact: 'minor', resolved_at: null, postmortem: null })
    const quiet = await incidentNamed('Dashboards loading slowly')
    expect(quiet).toMatchObject({ state: 'resolved', impact: 'none', postmortem: null, postmortem_published_at: null })

    const window = await db().selectFrom('maintenances').selectAll().where('title', '=', 'Database upgrade to PostgreSQL 16').executeTakeFirstOrThrow()
    expect(window).toMatchObject({ start_at: Date.parse('2026-12-06T01:00:00Z'), end_at: Date.parse('2026-12-06T03:00:00Z'), notify_subscribers: 0 })
    expect(window.message).toStartWith('We will upgrade our primary database cluster.')
    const inWindow = await db().selectFrom('maintenance_components').select('component_id').where('maintenance_id', '=', window.id).execute()
    expect(await componentNames(inWindow.map((m) => m.component_id))).toEqual(['Data exports', 'Public API', 'Web app'])
  })

  test('email subscribers stay confirmed, with their components', async () => {
    const rows = await db().selectFrom('subscribers').selectAll().orderBy('email').execute()
    expect(rows.map((r) => [r.email, r.kind, r.source, r.confirmed_at])).toEqual([
      ['dana.ops@customer-two.example.test', 'email', 'import', NOW],
      ['it-team@customer-one.example.test', 'email', 'import', NOW],
    ])
    expect(rows[1]!.component_ids).toBeNull()
    expect(await componentNames(JSON.parse(rows[0]!.component_ids!))).toEqual(['Event ingestion', 'Public API', 'Webhooks'])
    expect(await db().selectFrom('outbox').select('id').execute()).toEqual([])
  })

  test('the public page shows what came, in the Statuspage v2 JSON old clients read', async () => {
    const summary = await json(await ctx.request('https://fernbrook.status.test/api/v2/summary.json'))
    expect(summary.page.name).toBe('Fernbrook Analytics')
    expect(summary.incidents.map((i: any) => [i.name, i.status, i.impact])).toEqual([['Delayed event ingestion in eu-west', 'identified', 'minor']])
    expect(summary.scheduled_maintenances.map((m: any) => m.name)).toEqual(['Database upgrade to PostgreSQL 16'])
    const eventIngestion = summary.components.find((c: any) => c.name === 'Event ingestion')
    expect(eventIngestion.status).toBe('degraded_performance')
    // Descriptions come as written, the page's under its name and each component's under its own.
    expect(eventIngestion.description).toBe('SDK and HTTP collector endpoints')
    const pageJson = fixture('pages.json')
    const html = await (await ctx.request('https://fernbrook.status.test/')).text()
    expect(html).toContain('SDK and HTTP collector endpoints')
    const pageDescription = (Array.isArray(pageJson) ? pageJson[0] : pageJson).page_description
    expect(typeof pageDescription).toBe('string')
    expect(html).toContain(`<div class="page-description message"><p>${pageDescription}</p>`)
  })

  test('the report lists exactly what was left out', () => {
    const hidden = fixture('components.json').filter((c: any) => !c.group && c.showcase === false).length
    expect(report.skipped.filter((s) => s.kind === 'component setting').length).toBe(hidden)
    expect(report.skipped.map((s) => `${s.kind}: ${s.name}: ${s.reason}`).sort()).toEqual([
      'component group setting: Core platform: description not brought: Lantern groups are names',
      'component group setting: Data pipeline: description not brought: Lantern groups are names',
      'component setting: Authentication: not brought: uptime bar hidden (showcase off)',
      'component setting: Data exports: not brought: uptime bar hidden (showcase off)',
      'component setting: Support portal: not brought: uptime bar hidden (showcase off)',
      'page setting: Fernbrook Analytics: not brought: headline, url, support_url, twitter_username, notifications_from_email, notifications_email_footer, time_zone, city, country, css colours',
      'scheduled maintenance setting: Database upgrade to PostgreSQL 16: reminders [3, 6, 12, 24] hours before not brought',
      "slack subscriber: Customer Three #pl*******-st****: connected through Statuspage's Slack app, which gives no webhook URL; subscribe the channel again on the page",
      'sms subscriber: +1 555-555-0142: Lantern sends no SMS',
      "webhook subscriber: alerts@partner.example.test: Statuspage's webhook payload is not Lantern's; add the receiver again once it takes Lantern's (it was quarantined)",
    ])
    expect(report.changed).toEqual([])
  })

  test('a second run changes nothing', async () => {
    const before = await counts(owner.id)
    const again = await importStatuspage(owner)
    expect(Object.values(again.created).every((n) => n === 0)).toBe(true)
    expect(again.unchanged).toMatchObject({ pages: 1, components: 8, incidents: 5, maintenances: 1, subscribers: 2 })
    expect(await counts(owner.id)).toEqual(before)
  })

  test('a foreign or damaged answer, a refused key or endless rate limits: a clear error and nothing changed', async () => {
    const { user } = await ctx.createOwner('enterprise')
    const fails = async (setup: typeof misbehave, message: string, apiKey?: string) => {
      misbehave = setup
      await expect((async () => ctx.app.services.importer.apply(user, planFromStatuspage(await fetchPage({ apiKey }))))()).rejects.toThrow(message)
      misbehave = null
    }
    await fails({ path: '/components', body: '<html><body>Welcome to nginx</body></html>' }, 'the answer for /components?page=1&per_page=2 is not JSON')
    await fails({ path: '/incidents', body: '[{"id":"x1","name":"cut off", "status": "reso' }, 'is not JSON')
    await fails({ path: '/components', body: JSON.stringify({ data: [{ id: 1 }] }) }, 'not a Statuspage answer: /components should be a list')
    await fails({ path: '', body: JSON.stringify([{ kind: 'something else' }]) }, 'not a Statuspage answer: the page should be an object with an id and a name')
    await fails({ path: '/subscribers', status: 429, always: true }, 'Statuspage kept answering 429 (rate limited) for /subscribers')
    await fails({ path: '/incidents', status: 503 }, 'Statuspage answered 503 for /incidents')
    await fails(null, 'Statuspage refused the API key (401)', 'wrong-key')
    await expect(fetchStatuspage({ pageId: PAGE_ID, apiKey: API_KEY, baseUrl: 'http://127.0.0.1:9', sleep })).rejects.toThrow('cannot reach Statuspage at http://127.0.0.1:9')
    await expect(fetchStatuspage({ pageId: '../../admin', apiKey: API_KEY, baseUrl, sleep })).rejects.toThrow('page id must be')
    expect(await counts(user.id)).toEqual({ pages: 0, components: 0, history: 0, incidents: 0, updates: 0, incidentComponents: 0, maintenances: 0, subscribers: 0, mappings: 0 })
  })
})

describe('Statuspage from a folder of saved answers, through the CLI', () => {
  test('--from brings the same as the API; a second run changes nothing; a damaged folder changes nothing', async () => {
    const { user } = await ctx.createOwner('enterprise')
    const cli = (args: string[]) => runCliProcess(['import', 'statuspage', '--email', user.email, ...args], ctx.databaseEnv)
    const first = await cli(['--from', FIXTURES, '--json'])
    expect(first.stderr).toBe('')
    expect(JSON.parse(first.stdout)).toMatchObject({ source: 'statuspage', source_version: 'API v1', created: { pages: 1, components: 8, incidents: 5, maintenances: 1, subscribers: 2 } })
    const made = await counts(user.id)
    expect(made).toEqual({ ...(await counts(owner.id)), mappings: made.mappings })
    const second = await cli(['--from', FIXTURES])
    expect(second.stdout).toContain('Created: 0 pages, 0 components, 0 monitors, 0 channels, 0 maintenances, 0 incidents, 0 subscribers, 0 status changes.')
    expect(second.stdout).toContain('- sms subscriber "+1 555-555-0142": Lantern sends no SMS')
    expect(await counts(user.id)).toEqual(made)

    const damaged = join(ctx.dir, 'statuspage-damaged')
    cpSync(FIXTURES, damaged, { recursive: true })
    writeFileSync(join(damaged, 'incidents.json'), '[{"id": "fej1z4onvv4y", "name": "Public API')
    const { user: other } = await ctx.createOwner('enterprise')
    const broken = await runCliProcess(['import', 'statuspage', '--email', other.email, '--from', damaged], ctx.databaseEnv)
    expect(broken.code).toBe(1)
    expect(broken.stderr).toContain('incidents.json is not JSON (damaged?)')
    await expect(readStatuspageFolder(ctx.dir)).rejects.toThrow('has no pages.json: is it a folder of saved Statuspage answers?')
    expect(await counts(other.id)).toMatchObject({ pages: 0, mappings: 0 })
  })
})

describe('--reconfirm', () => {
  test('each subscriber gets the confirmation mail of the subscribe flow and is pending until the link is used', async () => {
    const { user } = await ctx.createOwner('enterprise')
    const result = await importStatuspage(user, true)
    expect(result.created.subscribers).toBe(2)
    const page = await db().selectFrom('status_pages').select(['id', 'slug']).where('owner_id', '=', user.id).executeTakeFirstOrThrow()
    const pending = await db().selectFrom('subscribers').selectAll().where('page_id', '=', page.id).execute()
    expect(pending.map((s) => s.confirmed_at)).toEqual([null, null])
    await ctx.app.services.outboxWorker.drain()
    const mail = await smtp.waitFor((m) => m.to === 'dana.ops@customer-two.example.test')
    expect(mail.subject).toBe('Confirm your subscription to Fernbrook Analytics')
    const confirmUrl = linkIn(mail.text, '/subscribe/confirm')
    expect(new URL(confirmUrl).host).toBe(`${page.slug}.status.test`)
    expect((await postSite(ctx, page.slug, '/subscribe/confirm', [['token', tokenOf(confirmUrl)]])).status).toBe(200)
    const dana = await db().selectFrom('subscribers').select('confirmed_at').where('page_id', '=', page.id).where('email', '=', 'dana.ops@customer-two.example.test').executeTakeFirstOrThrow()
    expect(dana.confirmed_at).toBe(NOW)
    // Again: nothing new, no second mail.
    const outboxBefore = (await db().selectFrom('outbox').select('id').execute()).length
    expect((await importStatuspage(user, true)).created.subscribers).toBe(0)
    expect((await db().selectFrom('outbox').select('id').execute()).length).toBe(outboxBefore)
  })
})

describe('a scheduled maintenance with a timeline', () => {
  test('its first update is the window’s message, the later ones its updates with their statuses and times', async () => {
    const folder = join(ctx.dir, 'statuspage-timeline')
    cpSync(FIXTURES, folder, { recursive: true })
    for (const file of ['incidents.json', 'incidents-scheduled.json']) {
      const incidents = JSON.parse(readFileSync(join(folder, file), 'utf8'))
      for (const incident of incidents) {
        if (!incident.scheduled_for) continue
        const first = incident.incident_updates[0]
        incident.incident_updates.unshift(
          { ...first, id: 'upd-verifying', status: 'verifying', body: 'Checking the **replicas**.', display_at: '2026-12-06T02:30:00.000Z', created_at: '2026-12-06T02:30:00.000Z' },
          { ...first, id: 'upd-progress', status: 'in_progress', body: 'Started <b>now</b>.', display_at: '2026-12-06T01:00:00.000Z', created_at: '2026-12-06T01:00:00.000Z' },
        )
      }
      writeFileSync(join(folder, file), JSON.stringify(incidents))
    }
    const { user } = await ctx.createOwner('enterprise')
    const report = await ctx.app.services.importer.apply(user, planFromStatuspage(await readStatuspageFolder(folder)))
    expect(report.created.maintenances).toBe(1)
    expect(report.changed.filter((line) => line.kind === 'scheduled maintenance')).toEqual([])
    const db = ctx.database.db
    const pages = (await db.selectFrom('status_pages').select('id').where('owner_id', '=', user.id).execute()).map((p) => p.id)
    const window = await db.selectFrom('maintenances').selectAll().where('page_id', 'in', pages).executeTakeFirstOrThrow()
    expect(window.message).toStartWith('We will upgrade our primary database cluster.')
    const updates = await db.selectFrom('maintenance_updates').select(['status', 'message', 'at']).where('maintenance_id', '=', window.id).orderBy('at').execute()
    expect(updates).toEqual([
      { status: 'in_progress', message: 'Started <b>now</b>.', at: Date.parse('2026-12-06T01:00:00Z') },
      { status: 'verifying', message: 'Checking the **replicas**.', at: Date.parse('2026-12-06T02:30:00Z') },
    ])
    // A second run brings no second timeline.
    await ctx.app.services.importer.apply(user, planFromStatuspage(await readStatuspageFolder(folder)))
    expect(await db.selectFrom('maintenance_updates').select('id').where('maintenance_id', '=', window.id).execute()).toHaveLength(2)
  })
})
