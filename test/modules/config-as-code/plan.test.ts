/** The plan as a pure function of (state now, file): defaults, field lists, order, references, prune. */
import { describe, expect, test } from 'bun:test'
import { planConfig } from '../../../src/modules/config-as-code/plan.ts'
import { resolveReferences, envPart } from '../../../src/modules/config-as-code/secrets.ts'
import { fileOfState, isoInZone } from '../../../src/modules/config-as-code/file.ts'
import type { ConfigFile } from '../../../src/modules/config-as-code/model.ts'
import type { TeamState } from '../../../src/modules/config-as-code/types.ts'

const EMPTY: TeamState = { pages: [], channels: [], monitors: [], templates: [] }
const opts = { prune: false, minIntervalSeconds: 30, now: Date.UTC(2026, 11, 7, 6, 0) }
const lines = (state: TeamState, file: ConfigFile, options = opts) =>
  planConfig(state, file, options).changes.map((c) => `${c.action} ${c.kind} ${c.key}${c.fields.length ? `: ${c.fields.join(',')}` : ''}`)

const file: ConfigFile = {
  version: 1,
  pages: [{ slug: 'acme', name: 'Acme', components: [{ name: 'API', type: 'api' }, { name: 'Web', group: 'Front' }] }],
  channels: [{ name: 'Ops', type: 'slack', url: 'https://hooks.slack.com/services/x', pages: ['acme'], all_pages: false }],
  monitors: [
    { name: 'API up', type: 'http', target: 'https://api.example.com/health', page: 'acme', component: 'API', alert_channels: ['Ops'] },
    { name: 'DB', type: 'tcp', target: 'db.example.com:5432', parents: ['API up'] },
  ],
}

describe('planConfig', () => {
  test('an empty team: everything is created, pages before what sits on them', () => {
    expect(lines(EMPTY, file)).toEqual(['create page acme', 'create component acme/API', 'create component acme/Web', 'create channel Ops', 'create monitor API up', 'create monitor DB'])
  })

  test("defaults are the API's: 60 s or the plan's shortest, the interval's timeout, a public page in en and UTC", () => {
    const { desired } = planConfig(EMPTY, file, opts)
    expect(desired.pages[0]).toMatchObject({ visibility: 'public', language: 'en', time_zone: 'UTC', custom_domain: null })
    expect(desired.monitors[0]!.fields).toMatchObject({ interval_seconds: 60, timeout_ms: 10_000, regions: ['local'] })
    // A plan whose shortest interval is above the usual default: its shortest.
    expect(planConfig(EMPTY, file, { ...opts, minIntervalSeconds: 300 }).desired.monitors[0]!.fields.interval_seconds).toBe(300)
    expect(desired.channels[0]!.events.length).toBeGreaterThan(0)
  })

  test('the desired state planned against itself is no change, also with prune', () => {
    const { desired } = planConfig(EMPTY, file, opts)
    expect(lines(desired, file)).toEqual([])
    expect(lines(desired, file, { ...opts, prune: true })).toEqual([])
  })

  test('the export of a state, resolved, plans no change against it', () => {
    const { desired } = planConfig(EMPTY, file, opts)
    const exported = fileOfState(desired)
    expect(JSON.stringify(exported.file)).not.toContain('hooks.slack.com')
    expect(lines(desired, resolveReferences(exported.file, exported.secrets), { ...opts, prune: true })).toEqual([])
  })

  test('descriptions: left out is none; written, they are planned and exported as Markdown', () => {
    const { desired } = planConfig(EMPTY, file, opts)
    expect(desired.pages[0]!.description).toBe('')
    const described = structuredClone(file)
    described.pages![0]!.description = 'Status of **Acme**'
    described.pages![0]!.components![0]!.description = 'The public `v2` API'
    expect(lines(desired, described)).toEqual(['update page acme: description', 'update component acme/API: description'])
    const after = planConfig(desired, described, opts).desired
    const { file: exported, secrets } = fileOfState(after)
    expect(exported.pages![0]).toMatchObject({ description: 'Status of **Acme**' })
    expect(exported.pages![0]!.components![0]).toMatchObject({ description: 'The public `v2` API' })
    expect(exported.pages![0]!.components![1]).not.toHaveProperty('description')
    expect(lines(after, resolveReferences(exported, secrets), { ...opts, prune: true })).toEqual([])
    const tooLong = structuredClone(file)
    tooLong.pages![0]!.components![0]!.description = 'x'.repeat(501)
    expect(() => planConfig(desired, tooLong, opts)).toThrow(/description/)
  })

  test('a change names its fields; a secret by its name, never its value', () => {
    const { desired } = planConfig(EMPTY, file, opts)
    const changed = structuredClone(file)
    changed.pages![0]!.time_zone = 'europe/berlin'
    changed.channels![0]!.url = 'https://hooks.slack.com/services/rotated'
    changed.monitors![1]!.interval_seconds = 120
    changed.monitors![1]!.enabled = false
    const plan = planConfig(desired, changed, opts)
    expect(plan.changes.map((c) => `${c.kind} ${c.key}: ${c.fields.join(',')}`)).toEqual(['page acme: time_zone', 'channel Ops: url', 'monitor DB: enabled,interval_seconds'])
    expect(JSON.stringify(plan.changes)).not.toContain('rotated')
    // The time zone in Intl's spelling, as the page service stores it.
    expect(plan.desired.pages[0]!.time_zone).toBe('Europe/Berlin')
  })

  test('a new order of components is one change of the page', () => {
    const { desired } = planConfig(EMPTY, file, opts)
    const moved = structuredClone(file)
    moved.pages![0]!.components!.reverse()
    expect(lines(desired, moved)).toEqual(['update page acme: component_order'])
    const inserted = structuredClone(file)
    inserted.pages![0]!.components!.unshift({ name: 'First' })
    expect(lines(desired, inserted)).toEqual(['update page acme: component_order', 'create component acme/First'])
  })

  test('without prune what the file leaves out stays; with prune it goes, monitors first, pages last', () => {
    const { desired } = planConfig(EMPTY, file, opts)
    const only: ConfigFile = { version: 1, pages: [{ slug: 'acme', name: 'Acme', components: [{ name: 'API', type: 'api' }] }] }
    expect(lines(desired, only)).toEqual([])
    expect(lines(desired, only, { ...opts, prune: true })).toEqual(['delete monitor API up', 'delete monitor DB', 'delete channel Ops', 'delete component acme/Web'])
    expect(lines(desired, { version: 1 }, { ...opts, prune: true })).toEqual(['delete monitor API up', 'delete monitor DB', 'delete channel Ops', 'delete page acme'])
  })

  test('an option the file leaves out keeps its stored value (the API cannot unset it): no change', () => {
    const { desired } = planConfig(EMPTY, { version: 1, monitors: [{ name: 'K', type: 'keyword', target: 'https://x.example/', keyword: 'OK', method: 'HEAD' }] }, opts)
    expect(lines(desired, { version: 1, monitors: [{ name: 'K', type: 'keyword', target: 'https://x.example/', keyword: 'OK' }] })).toEqual([])
  })

  test('what the API refuses, the plan refuses, naming the object', () => {
    const bad = (f: ConfigFile, message: string) => expect(() => planConfig(EMPTY, f, opts)).toThrow(message)
    bad({ version: 1, monitors: [{ name: 'K', type: 'keyword', target: 'https://x.example/' }] }, 'monitors "K": keyword is required')
    bad({ version: 1, monitors: [{ name: 'P', type: 'push', target: 'https://x.example/' }] }, 'monitors "P": target: a push monitor has no target')
    bad({ version: 1, monitors: [{ name: 'A', type: 'tcp', target: 'h:1', page: 'nope' }] }, 'page "nope" is not a page')
    bad({ version: 1, pages: [{ slug: 'a', name: 'A' }], monitors: [{ name: 'A', type: 'tcp', target: 'h:1', page: 'a', component: 'C' }] }, 'component "C" is not a component')
    bad({ version: 1, monitors: [{ name: 'A', type: 'tcp', target: 'h:1', parents: ['A'] }] }, 'the monitor itself')
    bad({ version: 1, monitors: [{ name: 'A', type: 'tcp', target: 'h:1', alert_channels: ['X'] }] }, 'alert_channels names "X"')
    bad({ version: 1, monitors: [{ name: 'A', type: 'tcp', target: 'h:1' }, { name: 'A', type: 'tcp', target: 'h:2' }] }, 'monitor "A" is named twice')
    bad({ version: 1, pages: [{ slug: 'a', name: 'A', language: 'xx' }] }, 'pages "a": language must be one of')
    bad({ version: 1, channels: [{ name: 'C', type: 'slack' }] }, 'channels "C": slack channels take url, or bot_token and chat_id')
    bad({ version: 1, channels: [{ name: 'C', type: 'slack', url: 'https://h.example/', pages: ['gone'], all_pages: false }] }, 'pages names "gone"')
  })

  test('a channel or monitor cannot change its type in ways the API refuses', () => {
    const { desired } = planConfig(EMPTY, file, opts)
    const retyped = structuredClone(file)
    retyped.channels![0] = { name: 'Ops', type: 'discord', url: 'https://discord.com/api/webhooks/1/x' }
    expect(() => planConfig(desired, retyped, opts)).toThrow('type cannot be changed')
    const pushed = structuredClone(file)
    pushed.monitors![1] = { name: 'DB', type: 'push' }
    expect(() => planConfig(desired, pushed, opts)).toThrow('to or from push')
  })
})

describe('settings, maintenance and templates', () => {
  const full: ConfigFile = {
    version: 1,
    pages: [{
      slug: 'acme',
      name: 'Acme',
      components: [{ name: 'API', sla: { target_percent: 99.95, period: 'quarter' } }, { name: 'Web' }],
      branding: { palette: { primary: '#A30' } },
      automatic_incidents: { auto_incidents: true, components: ['Web', 'API', 'Web'] },
      maintenance: [
        { title: 'Later', start_at: '2026-12-20T02:00:00+01:00', end_at: '2026-12-20T03:00:00+01:00' },
        { title: 'Sooner', start_at: '2026-12-10T02:00:00Z', end_at: '2026-12-10T03:00:00Z', components: ['API'] },
      ],
      recurring_maintenance: [{ title: 'Weekly', time_zone: 'Europe/Berlin', starts_on: '2026-12-08', start_time: '02:00', duration_minutes: 60, frequency: 'weekly', weekdays: ['TU', 'MO'] }],
    }],
    templates: [{ name: 'Outage', title: '{{component}} is down' }],
  }

  test('after defaults, in one shape: colours in full, names sorted, windows by start, weekdays in week order', () => {
    const { desired, changes } = planConfig(EMPTY, full, opts)
    const page = desired.pages[0]!
    expect(page.branding).toMatchObject({ primary: '#aa3300', background: '#ffffff' })
    expect(page.automatic_incidents).toEqual({ auto_incidents: true, auto_incident_notify: false, auto_resolve: false, components: ['API', 'Web'] })
    expect(page.components[0]!.sla).toEqual({ target_percent: 99.95, period: 'quarter', degraded_counts_as: 'up', exclude_maintenance: true, min_outage_seconds: 0, breach_alerts: true, public_budget: false })
    expect(page.maintenance.map((m) => m.title)).toEqual(['Sooner', 'Later'])
    expect(page.recurring_maintenance[0]!.weekdays).toEqual(['MO', 'TU'])
    expect(changes.map((c) => `${c.action} ${c.kind} ${c.key}`)).toEqual([
      'create page acme', 'create component acme/API', 'create component acme/Web', 'create template Outage',
      'create automatic_incidents acme', 'create branding acme', 'create maintenance acme/Sooner', 'create maintenance acme/Later',
      'create recurring_maintenance acme/Weekly', 'create sla_target acme/API',
    ])
  })

  test('the export of the desired state plans no change against it, also with prune', () => {
    const { desired } = planConfig(EMPTY, full, opts)
    const { file: exported, secrets } = fileOfState(desired)
    expect(lines(desired, resolveReferences(exported, secrets), { ...opts, prune: true })).toEqual([])
  })

  test("a one-off window's times are written in its page's zone, its offset at that instant", () => {
    expect(isoInZone(Date.UTC(2027, 0, 10, 1, 0), 'Europe/Berlin')).toBe('2027-01-10T02:00:00+01:00')
    expect(isoInZone(Date.UTC(2027, 6, 10, 1, 0), 'Europe/Berlin')).toBe('2027-07-10T03:00:00+02:00')
    expect(isoInZone(Date.UTC(2027, 0, 10, 1, 0, 0, 250), 'America/St_Johns')).toBe('2027-01-09T21:30:00.250-03:30')
    expect(isoInZone(Date.UTC(2027, 0, 10, 1, 0), 'UTC')).toBe('2027-01-10T01:00:00Z')
  })

  test("Lantern's own colours and everything off are no setting", () => {
    const plain = structuredClone(full)
    plain.pages![0]!.branding = { palette: { primary: '#1f4fd1' } }
    plain.pages![0]!.automatic_incidents = {}
    const page = planConfig(EMPTY, plain, opts).desired.pages[0]!
    expect(page.branding).toBeNull()
    expect(page.automatic_incidents).toBeNull()
  })
})

describe('references', () => {
  test('every missing name in one error; values replace their references anywhere in a string', () => {
    expect(resolveReferences({ a: 'x-${A}-y', b: ['${B}'] }, { A: '1', B: '2' })).toEqual({ a: 'x-1-y', b: ['2'] })
    expect(() => resolveReferences({ a: '${A}', b: '${B}', c: '${A}' }, {})).toThrow('without a value: A, B')
  })

  test('names become variable parts', () => {
    expect(envPart('Ops Slack')).toBe('OPS_SLACK')
    expect(envPart('ünï-code #1')).toBe('UNI_CODE_1')
    expect(envPart('<>')).toBe('X')
  })

  test('two names that give one variable keep two variables', () => {
    const state: TeamState = {
      ...EMPTY,
      channels: ['Ops Slack', 'ops-slack'].map((name, i) => ({ name, type: 'slack' as const, settings: { url: `https://h.example/${i}` }, events: ['incident.opened'], all_pages: true, pages: [], all_monitors: false, enabled: true })),
    }
    const { file: out, secrets } = fileOfState(state)
    expect(Object.keys(secrets)).toEqual(['LANTERN_CHANNEL_OPS_SLACK_URL', 'LANTERN_CHANNEL_OPS_SLACK_URL_2'])
    expect(resolveReferences(out, secrets).channels!.map((c) => c.url)).toEqual(['https://h.example/0', 'https://h.example/1'])
  })
})
