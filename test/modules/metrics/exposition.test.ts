/**
 * The exposition as outside tools read it: Prometheus's own `promtool check metrics` on a scrape with
 * every family filled by real work, the Grafana dashboard's expressions against the names the server
 * exports, the operations guide against the same names, and the writer's escaping rules.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DOCS } from '../../../src/content/index.ts'
import { ByteWriter, encodeText } from '../../../src/modules/metrics/byte-writer.ts'
import { BucketLayout, Buckets, ExpositionWriter, labelText, valueText } from '../../../src/modules/metrics/exposition.ts'
import { LEFT_OUT_DEFAULT_METRICS } from '../../../src/modules/metrics/runtime.ts'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { json } from '../../helpers/context.ts'
import { testCa } from '../../helpers/tls-ca.ts'
import { setUpMetrics, type MetricsSetup } from './metrics-setup.ts'
import { familiesOf, parseExposition, samplesOf } from './samples.ts'

describe('the writer', () => {
  test('label values escape backslash, double quote and line feed; anything else goes as it is', () => {
    expect(labelText({ route: 'a\\b"c\nd', name: 'Ünïcødé <b>&' })).toBe('route="a\\\\b\\"c\\nd",name="Ünïcødé <b>&"')
    const out = new ExpositionWriter()
    out.family('x_total', 'counter', 'Help with \\ and\na line feed')
    out.sample('x_total', labelText({ a: '"quoted"' }), 1)
    expect(out.text()).toBe('# HELP x_total Help with \\\\ and\\na line feed\n# TYPE x_total counter\nx_total{a="\\"quoted\\""} 1\n')
    expect(parseExposition(out.text())[0]!.labels.a).toBe('\\"quoted\\"')
  })

  test('values: integers and decimals as written, infinities and NaN as Prometheus spells them', () => {
    expect([1, 0.25, 1795814642.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN].map(valueText)).toEqual(['1', '0.25', '1795814642.5', '+Inf', '-Inf', 'NaN'])
  })

  test('a histogram: cumulative buckets in rising order ending with +Inf, then sum and count; constant labels on every line', () => {
    const buckets = new Buckets(new BucketLayout([0.1, 1]))
    for (const value of [0.05, 0.1, 0.5, 3]) buckets.observe(value)
    const out = new ExpositionWriter(labelText({ worker: '2' }))
    out.family('d_seconds', 'histogram', 'Durations')
    out.histogram('d_seconds', labelText({ type: 'http' }), buckets)
    expect(out.text().split('\n').slice(2, -1)).toEqual([
      'd_seconds_bucket{type="http",le="0.1",worker="2"} 2',
      'd_seconds_bucket{type="http",le="1",worker="2"} 3',
      'd_seconds_bucket{type="http",le="+Inf",worker="2"} 4',
      'd_seconds_sum{type="http",worker="2"} 3.65',
      'd_seconds_count{type="http",worker="2"} 4',
    ])
    expect(() => new BucketLayout([1, 1])).toThrow('bucket bounds must rise')
  })
})

describe('the byte writer of the per-monitor families', () => {
  test('lines: whole numbers digit by digit, other values as the text writer spells them, times in seconds with up to three decimals', () => {
    const out = new ByteWriter(8)
    const head = encodeText('m{monitor_id="')
    const tail = encodeText('"} ')
    for (const value of [0, 7, 2 ** 31, 2 ** 53 - 1, 0.25, Number.NaN, Number.POSITIVE_INFINITY]) out.line(head, 12, tail, value)
    for (const ms of [1795814642123, 1795814642100, 1795814642000, 5, 0.5]) out.timeLine(head, 3, tail, ms)
    expect(new TextDecoder().decode(out.result()).split('\n')).toEqual([
      'm{monitor_id="12"} 0',
      'm{monitor_id="12"} 7',
      'm{monitor_id="12"} 2147483648',
      'm{monitor_id="12"} 9007199254740991',
      'm{monitor_id="12"} 0.25',
      'm{monitor_id="12"} NaN',
      'm{monitor_id="12"} +Inf',
      'm{monitor_id="3"} 1795814642.123',
      'm{monitor_id="3"} 1795814642.1',
      'm{monitor_id="3"} 1795814642',
      'm{monitor_id="3"} 0.005',
      'm{monitor_id="3"} 0.0005',
      '',
    ])
    // Read back, a time is the same number as milliseconds / 1000.
    const written = (ms: number) => {
      const writer = new ByteWriter()
      writer.timeLine(head, 1, tail, ms)
      return Number(new TextDecoder().decode(writer.result()).trim().split(' ')[1])
    }
    for (const ms of [1795814642123, 1795814642001, 1795814642999]) expect(written(ms)).toBe(ms / 1000)
  })
})

describe('a scrape with every family filled by real work', () => {
  let setup: MetricsSetup
  let hub: ChatHub
  let http: ReturnType<typeof Bun.serve>
  let tls: ReturnType<typeof Bun.serve>
  let text: string

  beforeAll(async () => {
    hub = await startChatHub()
    http = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok') })
    tls = Bun.serve({ port: 0, hostname: '127.0.0.1', tls: { key: testCa().key, cert: testCa().cert }, fetch: () => new Response('ok') })
    setup = await setUpMetrics()
    const { ctx, key } = setup
    await setup.createMonitor({ name: 'Web "main" <site>', type: 'http', target: `http://127.0.0.1:${http.port}/`, interval_seconds: 60 })
    await setup.createMonitor({ name: 'TLS', type: 'tls', target: `127.0.0.1:${tls.port}`, interval_seconds: 60 })
    await setup.createMonitor({ name: 'SSL', type: 'ssl', target: `127.0.0.1:${tls.port}` })
    await setup.runAll()
    const channel = await ctx.request('/user/api/v1/notification-channels', { method: 'POST', key, json: { type: 'webhook', name: 'Hook', url: `${hub.url}/hook`, secret: 'whsec-0123456789abcdef' } })
    expect((await ctx.request(`/user/api/v1/notification-channels/${(await json(channel)).data.id}/test`, { method: 'POST', key })).status).toBe(202)
    await ctx.app.services.outboxWorker.drain()
    await ctx.createPage(key, { slug: 'scraped', name: 'Scraped' })
    expect((await ctx.request('/badge/scraped.svg')).status).toBe(200)
    // Deliveries are counted once the channel's kind is known: scrape until they are.
    for (let attempt = 0; attempt < 200; attempt++) {
      text = (await setup.scrape()).text
      if (samplesOf(parseExposition(text), 'lantern_outbox_deliveries_total').length > 0) break
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })
  afterAll(async () => {
    http.stop(true)
    tls.stop(true)
    await setup.ctx.close()
    await hub.close()
  })

  test('every family has samples', () => {
    const samples = parseExposition(text)
    const families = [...familiesOf(text).entries()]
    const empty = families.filter(([name, type]) => !samples.some((s) => s.name === name || (type === 'histogram' && s.name.startsWith(`${name}_`))))
    expect(empty.map(([name]) => name)).toEqual([])
  })

  test('promtool check metrics finds nothing to complain about', () => {
    const promtool = Bun.which('promtool')
    if (!promtool) throw new Error('promtool is not installed: it comes with Debian\'s "prometheus" package (apt-get install prometheus; .ci/run installs it)')
    const result = Bun.spawnSync([promtool, 'check', 'metrics'], { stdin: new TextEncoder().encode(text), stdout: 'pipe', stderr: 'pipe' })
    expect(`${result.stdout.toString()}${result.stderr.toString()}`).toBe('')
    expect(result.exitCode).toBe(0)
  })

  test('every expression of the Grafana dashboard names only metrics the server exports', () => {
    const dashboard = dashboardOfGuide()
    const families = familiesOf(text)
    const exported = (name: string) => families.has(name) || families.get(name.replace(/_(bucket|sum|count)$/, '')) === 'histogram'
    const expressions = dashboardExpressions(dashboard)
    expect(expressions.length).toBeGreaterThan(20)
    const unknown = expressions.flatMap((expr) => metricNamesIn(expr).filter((name) => !exported(name)).map((name) => `${name} in ${expr}`))
    expect(unknown).toEqual([])
    // Every Lantern family is on the dashboard.
    const shown = new Set(expressions.flatMap(metricNamesIn).map((name) => name.replace(/_(bucket|sum|count)$/, '')))
    expect([...families.keys()].filter((name) => name.startsWith('lantern_') && !shown.has(name))).toEqual([])
  })

  test('the operations guide names every family the server exports, and the defaults left out', () => {
    const guide = DOCS.operations!
    const missing = [...familiesOf(text).keys(), ...Object.keys(LEFT_OUT_DEFAULT_METRICS)].filter((name) => !guide.includes(name.replace(/_(total|sum|count)$/, '')))
    expect(missing).toEqual([])
  })
})

describe('the Grafana dashboard', () => {
  test('is JSON Grafana imports: a Prometheus data source input, panels with unique ids inside the grid, the variables it uses', () => {
    const dashboard = dashboardOfGuide()
    expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' })])
    const panels = dashboard.panels as Array<{ id: number; type: string; gridPos: { x: number; y: number; w: number; h: number }; datasource?: { uid: string } }>
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length)
    for (const panel of panels) {
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24)
      if (panel.type !== 'row') expect(panel.datasource?.uid).toBe('${DS_PROMETHEUS}')
    }
    const variables = (dashboard.templating as { list: Array<{ name: string }> }).list.map((v) => v.name)
    for (const expr of dashboardExpressions(dashboard)) {
      for (const used of expr.matchAll(/\$(\w+)/g)) if (!used[1]!.startsWith('__')) expect(variables).toContain(used[1]!)
    }
  })
})

/** The dashboard JSON of the Grafana guide (its one `json` code block). */
function dashboardOfGuide(): Record<string, unknown> {
  const block = /```json\n([\s\S]*?)\n```/.exec(DOCS.grafana ?? '')
  if (!block) throw new Error('the Grafana guide has no json block')
  return JSON.parse(block[1]!)
}

function dashboardExpressions(dashboard: Record<string, unknown>): string[] {
  const panels = dashboard.panels as Array<{ targets?: Array<{ expr: string }> }>
  return panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr))
}

const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'and', 'or', 'unless'])

/** The metric names a PromQL expression reads: identifiers that are not functions, keywords, labels or strings. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
  return [...bare.matchAll(/\b[a-zA-Z_:][\w:]*\b(?!\s*\()/g)].map((match) => match[0]).filter((word) => !PROMQL_WORDS.has(word))
}
