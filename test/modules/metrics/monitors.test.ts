/**
 * The monitors' figures in `/metrics` after real checks: an HTTP target that answers, one that
 * fails, a TLS and an SSL monitor against a local TLS server (test CA), a paused monitor. Each
 * per-monitor family and each total carries what the checks found; a fresh process learns the last
 * success from the stored results; the cap and the switch-off hold.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { X509Certificate } from 'node:crypto'
import { createApp } from '../../../src/app.ts'
import { testCa } from '../../helpers/tls-ca.ts'
import { setUpMetrics as setUp, type MetricsSetup as Setup } from './metrics-setup.ts'
import { familiesOf, samplesOf, valueOf, type Sample } from './samples.ts'

describe('after real checks', () => {
  let setup: Setup
  let http: ReturnType<typeof Bun.serve>
  let tls: ReturnType<typeof Bun.serve>
  const ids: Record<string, number> = {}
  let samples: Sample[]
  let text: string
  let recordedAt: number

  beforeAll(async () => {
    http = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => new Response('ok', { status: new URL(request.url).pathname === '/broken' ? 500 : 200 }) })
    tls = Bun.serve({ port: 0, hostname: '127.0.0.1', tls: { key: testCa().key, cert: testCa().cert }, fetch: () => new Response('ok') })
    setup = await setUp()
    ids.ok = (await setup.createMonitor({ name: 'Shop', type: 'http', target: `http://127.0.0.1:${http.port}/`, interval_seconds: 60 })).id
    ids.broken = (await setup.createMonitor({ name: 'Broken', type: 'http', target: `http://127.0.0.1:${http.port}/broken`, interval_seconds: 60 })).id
    ids.tls = (await setup.createMonitor({ name: 'TLS', type: 'tls', target: `127.0.0.1:${tls.port}`, interval_seconds: 60 })).id
    ids.ssl = (await setup.createMonitor({ name: 'SSL', type: 'ssl', target: `127.0.0.1:${tls.port}` })).id
    ids.paused = (await setup.createMonitor({ name: 'Paused', type: 'http', target: `http://127.0.0.1:${http.port}/`, interval_seconds: 60 })).id
    expect((await setup.ctx.request(`/user/api/v1/monitors/${ids.paused}/pause`, { method: 'POST', key: setup.key })).status).toBe(200)
    await setup.runAll()
    recordedAt = setup.ctx.clock.now()
    ;({ text, samples } = await setup.scrape())
  })
  afterAll(async () => {
    http.stop(true)
    tls.stop(true)
    await setup.ctx.close()
  })

  const id = (name: string) => String(ids[name])

  test('each enabled monitor has one state series with its type and state; the paused one has none', () => {
    expect(samplesOf(samples, 'lantern_monitor_state', { monitor_id: id('ok') }).map((s) => [s.labels.type, s.labels.state, s.value])).toEqual([['http', 'up', 1]])
    expect(samplesOf(samples, 'lantern_monitor_state', { monitor_id: id('broken') }).map((s) => [s.labels.state, s.value])).toEqual([['down', 1]])
    // The test certificate lives two days: TLS and SSL verdicts depend on their thresholds, not asserted here.
    expect(samplesOf(samples, 'lantern_monitor_state', { monitor_id: id('tls') }).map((s) => [s.labels.type, s.value])).toEqual([['tls', 1]])
    expect(samplesOf(samples, 'lantern_monitor_state', { monitor_id: id('ssl') }).map((s) => [s.labels.type, s.value])).toEqual([['ssl', 1]])
    expect(samplesOf(samples, 'lantern_monitor_state', { monitor_id: id('paused') })).toHaveLength(0)
  })

  test('totals by state count every monitor, the paused one as paused, zeros included', () => {
    const byState = Object.fromEntries(samplesOf(samples, 'lantern_monitors').map((s) => [s.labels.state, s.value]))
    expect(Object.keys(byState).sort()).toEqual(['degraded', 'down', 'misconfigured', 'paused', 'pending', 'unreachable', 'up'])
    expect(byState.paused).toBe(1)
    expect(byState.pending).toBe(0)
    expect(byState.up! + byState.down! + byState.degraded!).toBe(4)
    expect(byState.down).toBeGreaterThanOrEqual(1)
  })

  test('checks by result, per monitor and in total by type', () => {
    expect(valueOf(samples, 'lantern_monitor_checks_total', { monitor_id: id('ok'), result: 'ok' })).toBe(1)
    expect(valueOf(samples, 'lantern_monitor_checks_total', { monitor_id: id('broken'), result: 'fail' })).toBe(1)
    expect(samplesOf(samples, 'lantern_monitor_checks_total', { monitor_id: id('broken') })).toHaveLength(1)
    expect(samplesOf(samples, 'lantern_monitor_checks_total', { monitor_id: id('paused') })).toHaveLength(0)
    expect(valueOf(samples, 'lantern_monitors_checks_total', { type: 'http', result: 'ok' })).toBe(1)
    expect(valueOf(samples, 'lantern_monitors_checks_total', { type: 'http', result: 'fail' })).toBe(1)
    for (const type of ['tls', 'ssl']) expect(samplesOf(samples, 'lantern_monitors_checks_total', { type }).reduce((sum, s) => sum + s.value, 0)).toBe(1)
  })

  test('check durations: a histogram per monitor and per type, one observation per run', () => {
    for (const name of ['ok', 'broken', 'tls', 'ssl']) {
      const labels = { monitor_id: id(name) }
      expect(valueOf(samples, 'lantern_monitor_check_duration_seconds_count', labels)).toBe(1)
      expect(valueOf(samples, 'lantern_monitor_check_duration_seconds_sum', labels)).toBeGreaterThan(0)
      const buckets = samplesOf(samples, 'lantern_monitor_check_duration_seconds_bucket', labels)
      expect(buckets.map((s) => s.labels.le)).toEqual(['0.25', '1', '2.5', '10', '+Inf'])
      expect(buckets.at(-1)!.value).toBe(1)
    }
    expect(valueOf(samples, 'lantern_monitors_check_duration_seconds_count', { type: 'http' })).toBe(2)
    expect(valueOf(samples, 'lantern_monitors_check_duration_seconds_count', { type: 'tls' })).toBe(1)
  })

  test('the scheduler’s lateness: every run taken up is observed', () => {
    expect(valueOf(samples, 'lantern_scheduler_lateness_seconds_count')).toBe(4)
    expect(valueOf(samples, 'lantern_scheduler_lateness_seconds_bucket', { le: '+Inf' })).toBe(4)
  })

  test('certificate expiry of the TLS and SSL monitors is the certificate’s notAfter; none for HTTP', () => {
    const notAfter = Date.parse(new X509Certificate(testCa().cert).validTo) / 1000
    expect(valueOf(samples, 'lantern_monitor_certificate_expiry_timestamp_seconds', { monitor_id: id('tls') })).toBe(notAfter)
    expect(valueOf(samples, 'lantern_monitor_certificate_expiry_timestamp_seconds', { monitor_id: id('ssl') })).toBe(notAfter)
    expect(samplesOf(samples, 'lantern_monitor_certificate_expiry_timestamp_seconds', { monitor_id: id('ok') })).toHaveLength(0)
  })

  test('last success: the time of the latest ok result; none for a monitor that never succeeded', () => {
    expect(valueOf(samples, 'lantern_monitor_last_success_timestamp_seconds', { monitor_id: id('ok') })).toBe(recordedAt / 1000)
    expect(samplesOf(samples, 'lantern_monitor_last_success_timestamp_seconds', { monitor_id: id('broken') })).toHaveLength(0)
  })

  test('every family is declared once, with its type', () => {
    const families = familiesOf(text)
    expect(text.match(/^# TYPE /gm)!.length).toBe(families.size)
    expect(families.get('lantern_monitor_state')).toBe('gauge')
    expect(families.get('lantern_monitor_checks_total')).toBe('counter')
    expect(families.get('lantern_monitor_check_duration_seconds')).toBe('histogram')
    expect(families.get('lantern_monitor_series_dropped')).toBe('gauge')
    expect(valueOf(samples, 'lantern_monitor_series_dropped')).toBe(0)
  })

  test('a fresh process learns the last success from the stored results, after a failure', async () => {
    // The shop starts failing: its stored last result is no longer a success.
    const broken = await setup.ctx.request(`/user/api/v1/monitors/${ids.ok}`, { method: 'PATCH', key: setup.key, json: { target: `http://127.0.0.1:${http.port}/broken` } })
    expect(broken.status).toBe(200)
    await setup.runAll()
    const restarted = createApp({ db: setup.ctx.database.db, config: setup.ctx.config, clock: setup.ctx.clock, logError: () => {} })
    const after = (await setup.scrape(restarted)).samples
    expect(samplesOf(after, 'lantern_monitor_state', { monitor_id: id('ok') })[0]!.labels.state).toBe('down')
    expect(valueOf(after, 'lantern_monitor_last_success_timestamp_seconds', { monitor_id: id('ok') })).toBe(recordedAt / 1000)
    // Counters are this process's: the fresh one has counted nothing yet.
    expect(samplesOf(after, 'lantern_monitor_checks_total')).toHaveLength(0)
  })
})

describe('bounded series', () => {
  test('beyond METRICS_MONITOR_SERIES_MAX, monitors get no series of their own and are counted as dropped', async () => {
    const setup = await setUp({ METRICS_MONITOR_SERIES_MAX: '2' })
    const target = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok') })
    try {
      const created = []
      for (let i = 0; i < 4; i++) created.push((await setup.createMonitor({ name: `m${i}`, type: 'http', target: `http://127.0.0.1:${target.port}/${i}`, interval_seconds: 60 })).id)
      // The lowest id is paused: the two lowest enabled ones get series.
      await setup.ctx.request(`/user/api/v1/monitors/${created[0]}/pause`, { method: 'POST', key: setup.key })
      await setup.runAll()
      const { samples } = await setup.scrape()
      const shown = (name: string) => [...new Set(samples.filter((s) => s.name === name).map((s) => Number(s.labels.monitor_id)))].sort((a, b) => a - b)
      for (const name of ['lantern_monitor_state', 'lantern_monitor_checks_total', 'lantern_monitor_check_duration_seconds_count', 'lantern_monitor_last_success_timestamp_seconds']) {
        expect(shown(name)).toEqual([created[1]!, created[2]!])
      }
      expect(valueOf(samples, 'lantern_monitor_series_dropped')).toBe(1)
      // The totals count every check, the dropped monitor's too.
      expect(valueOf(samples, 'lantern_monitors_checks_total', { type: 'http', result: 'ok' })).toBe(3)
      expect(valueOf(samples, 'lantern_monitors', { state: 'up' })).toBe(3)
      // Series follow the monitors: delete a shown one and the next one gets series.
      expect((await setup.ctx.request(`/user/api/v1/monitors/${created[1]}`, { method: 'DELETE', key: setup.key })).status).toBe(200)
      await setup.runAll()
      const after = (await setup.scrape()).samples
      expect([...new Set(samplesOf(after, 'lantern_monitor_state').map((s) => Number(s.labels.monitor_id)))]).toEqual([created[2]!, created[3]!])
      expect(valueOf(after, 'lantern_monitor_series_dropped')).toBe(0)
      // It counts its checks from the scrape that gave it a place.
      await setup.runAll()
      expect(valueOf((await setup.scrape()).samples, 'lantern_monitor_checks_total', { monitor_id: String(created[3]), result: 'ok' })).toBe(1)
    } finally {
      target.stop(true)
      await setup.ctx.close()
    }
  })

  test('METRICS_MONITOR_SERIES=off: no series labelled monitor_id, the totals stay', async () => {
    const setup = await setUp({ METRICS_MONITOR_SERIES: 'off' })
    const target = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok') })
    try {
      await setup.createMonitor({ name: 'm', type: 'http', target: `http://127.0.0.1:${target.port}/`, interval_seconds: 60 })
      await setup.runAll()
      const { text, samples } = await setup.scrape()
      expect(samples.filter((s) => 'monitor_id' in s.labels)).toEqual([])
      expect([...familiesOf(text).keys()].filter((name) => name.startsWith('lantern_monitor_'))).toEqual([])
      expect(valueOf(samples, 'lantern_monitors', { state: 'up' })).toBe(1)
      expect(valueOf(samples, 'lantern_monitors_checks_total', { type: 'http', result: 'ok' })).toBe(1)
      expect(valueOf(samples, 'lantern_monitors_check_duration_seconds_count', { type: 'http' })).toBe(1)
    } finally {
      target.stop(true)
      await setup.ctx.close()
    }
  })
})

describe('from one scrape to the next', () => {
  test("a monitor that ran again shows its new figures; one that did not keeps its lines byte for byte; a state another process stored shows", async () => {
    const setup = await setUp()
    const target = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok') })
    try {
      const often = String((await setup.createMonitor({ name: 'Often', type: 'http', target: `http://127.0.0.1:${target.port}/often`, interval_seconds: 60 })).id)
      const daily = String((await setup.createMonitor({ name: 'Daily', type: 'http', target: `http://127.0.0.1:${target.port}/daily`, interval_seconds: 86_400 })).id)
      await setup.runAll()
      const linesOf = (text: string, id: string) => text.split('\n').filter((line) => line.includes(`monitor_id="${id}"`))
      const first = await setup.scrape()
      const checksBefore = valueOf(first.samples, 'lantern_monitor_checks_total', { monitor_id: often, result: 'ok' })
      expect(checksBefore).toBeGreaterThanOrEqual(1)
      expect(linesOf(first.text, daily).length).toBeGreaterThanOrEqual(9)

      // A minute later only the 60-second monitor is due.
      setup.ctx.clock.advance(61_000)
      await setup.scheduler.tick()
      await setup.scheduler.settle()
      const second = await setup.scrape()
      expect(valueOf(second.samples, 'lantern_monitor_checks_total', { monitor_id: often, result: 'ok' })).toBe(checksBefore + 1)
      expect(valueOf(second.samples, 'lantern_monitor_check_duration_seconds_count', { monitor_id: often })).toBe(checksBefore + 1)
      expect(valueOf(second.samples, 'lantern_monitor_last_success_timestamp_seconds', { monitor_id: often })).toBe(setup.ctx.clock.now() / 1000)
      expect(linesOf(second.text, daily)).toEqual(linesOf(first.text, daily))

      // Another worker on the same database stored a new state: the next scrape shows it.
      await setup.ctx.database.db.updateTable('monitors').set({ state: 'down' }).where('id', '=', Number(daily)).execute()
      const third = await setup.scrape()
      expect(samplesOf(third.samples, 'lantern_monitor_state', { monitor_id: daily }).map((s) => s.labels.state)).toEqual(['down'])
      expect(linesOf(third.text, often)).toEqual(linesOf(second.text, often))
    } finally {
      target.stop(true)
      await setup.ctx.close()
    }
  })

  test("another process's run (state and last check stored) shows on the next scrape, the rest of the monitor's lines unchanged; scrapes at once, and after monitors go, answer whole", async () => {
    const setup = await setUp()
    const target = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok') })
    try {
      const ids: string[] = []
      for (let i = 0; i < 5; i++) ids.push(String((await setup.createMonitor({ name: `M${i}`, type: 'http', target: `http://127.0.0.1:${target.port}/${i}`, interval_seconds: 3600 })).id))
      const linesOf = (text: string, id: string, family: string) => text.split('\n').filter((line) => line.startsWith(`${family}{`) && line.includes(`monitor_id="${id}"`))
      // First runs are spread out: run what is due until every monitor has run once.
      let first = await setup.scrape()
      for (let round = 0; round < 10 && !ids.every((id) => linesOf(first.text, id, 'lantern_monitor_checks_total').length > 0); round++) {
        await setup.runAll()
        first = await setup.scrape()
      }
      const middle = ids[2]!

      // Another worker ran the middle monitor: it stored the state and the time of the check, nothing else.
      const checkedAt = setup.ctx.clock.now() + 90_000
      await setup.ctx.database.db.updateTable('monitors').set({ state: 'down', last_check_at: checkedAt, last_outcome: 'ok' }).where('id', '=', Number(middle)).execute()
      const second = await setup.scrape()
      expect(samplesOf(second.samples, 'lantern_monitor_state', { monitor_id: middle }).map((s) => s.labels.state)).toEqual(['down'])
      expect(valueOf(second.samples, 'lantern_monitor_last_success_timestamp_seconds', { monitor_id: middle })).toBe(checkedAt / 1000)
      for (const family of ['lantern_monitor_checks_total', 'lantern_monitor_check_duration_seconds_bucket', 'lantern_monitor_check_duration_seconds_count']) {
        expect(linesOf(second.text, middle, family).length).toBeGreaterThan(0)
        expect(linesOf(second.text, middle, family)).toEqual(linesOf(first.text, middle, family))
      }
      // Its neighbours, copied in the same runs of bytes, are as they were.
      const others = (text: string) => linesOfMonitors(text).filter((line) => !line.includes(`monitor_id="${middle}"`))
      expect(others(second.text)).toEqual(others(first.text))

      // Three renders at once (started in the same turn, so their reads interleave): each is a whole exposition.
      const metrics = setup.ctx.app.services.metrics!
      const together = await Promise.all([1, 2, 3].map(() => metrics.render((body) => new TextDecoder().decode(body))))
      for (const text of together) {
        expect(familiesOf(text)).toEqual(familiesOf(second.text))
        expect(linesOfMonitors(text)).toEqual(linesOfMonitors(second.text))
      }

      // Two monitors go: the next scrapes reuse buffers that held more; no line of theirs, nothing left over.
      for (const id of [ids[0]!, ids[3]!]) expect((await setup.ctx.request(`/user/api/v1/monitors/${id}`, { method: 'DELETE', key: setup.key })).status).toBe(200)
      const shorter = [await setup.scrape(), await setup.scrape(), await setup.scrape()]
      for (const scrape of shorter) {
        expect(scrape.text.endsWith('\n')).toBe(true)
        expect(linesOfMonitors(scrape.text)).toEqual(linesOfMonitors(second.text).filter((line) => !line.includes(`monitor_id="${ids[0]}"`) && !line.includes(`monitor_id="${ids[3]}"`)))
      }
    } finally {
      target.stop(true)
      await setup.ctx.close()
    }
  })
})

/** The per-monitor lines of an exposition, with their families' HELP and TYPE lines. */
const linesOfMonitors = (text: string) => text.split('\n').filter((line) => line.includes('monitor_id="') || /^# (HELP|TYPE) lantern_monitor_/.test(line))
