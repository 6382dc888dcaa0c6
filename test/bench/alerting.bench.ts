/**
 * `bun run bench alerting`: a monitor's own alerts end to end, as a user runs them. The server is
 * `bun src/main.ts` in its own process (scheduler, recorder, outbox worker: everything) on a
 * database seeded beforehand through the real services; the targets are another process
 * (alerting-target.ts) that logs each request and can be told to answer 500 for a set of monitors;
 * the webhook receiver is a Bun.serve in this process on 127.0.0.1 that records when each POST
 * arrived and its body, and answers 200. Loopback only; every phase bounded in time.
 *
 * Loads, each on a fresh database and server:
 *   - `burst:10000`: 10,000 HTTP monitors at 30 s, each with the one webhook channel as its alert
 *     channel and the default confirmation (retries 2, 2 s apart, within a run; confirm_failures 2
 *     and confirm_successes 2 runs). After a steady window (CPU measured), 1,000 of them (every
 *     tenth id, which is every monitor of 10 of the 100 target hosts: ten servers down, each taking
 *     its 100 endpoints with it) answer 500 from one instant T. Per failing monitor, the confirmation instant is the
 *     last attempt of its confirm_failures-th failing run (from the target's log); the alert's
 *     delay is its arrival at the receiver minus that instant. Printed: delay p50/p95/max, how many
 *     arrived within 10 s, messages per outage (each exactly one `monitor.down`), messages about
 *     monitors that never failed (none), the server's CPU from T until the last alert (and its worst
 *     5 s). Then the 1,000 are healed at once and the `monitor.up` messages are measured the same way.
 *   - `steady:1000:10`: 1,000 HTTP monitors at 10 s, the same channel, nothing fails: the server's
 *     CPU over the window (target ≤ 10 % of one core).
 * ALERT_BENCH=burst:10000,steady:1000:10 sets the loads (burst:COUNT[:INTERVAL], steady:COUNT:INTERVAL),
 * ALERT_FAILING (default COUNT/10) how many go down, BENCH_SECONDS (default 40) the steady windows,
 * ALERT_RECOVERY=0 skips the recovery. A run that receives no alert, or the wrong ones, exits non-zero.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { phaseOffsetMs } from '../../src/modules/monitors/service.ts'
import { DEFAULTS } from '../../src/modules/monitors/kinds/spec.ts'
import { openDatabase } from '../../src/db/client.ts'
import { seedDatabase, startServerProcess, tempDir, type ServerProcess } from './lib.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 40)
const HOSTS = 100
/** Time the server gets to start before the first runs fall due. */
const LEAD_MS = 8_000
/** The bound on an alert: delivered within this long of its confirmation. */
const ALERT_WITHIN_MS = 10_000
const RETRIES = DEFAULTS.retries
const RETRY_DELAY_MS = DEFAULTS.retryDelayMs
const CONFIRM_FAILURES = DEFAULTS.confirmFailures
const CONFIRM_SUCCESSES = DEFAULTS.confirmSuccesses

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN
const utc = () => new Date().toISOString().slice(0, 19) + 'Z'
const print = (figure: Record<string, unknown>) => console.log(JSON.stringify({ ...figure, at: utc(), load_average: loadAverage() }))
const fail = (why: string): never => {
  console.error(`alerting bench: ${why}`)
  process.exit(1)
}

/** What the webhook receiver saw: one entry per POST. */
interface Received {
  at: number
  webhookId: string
  type: string
  monitorId: number | null
}

function startReceiver() {
  const received: Received[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const at = Date.now()
      if (request.method !== 'POST') return new Response('only POST', { status: 405 })
      const body = (await request.json().catch(() => ({}))) as { type?: string; details?: { monitor_id?: number } }
      received.push({ at, webhookId: request.headers.get('webhook-id') ?? '', type: body.type ?? '?', monitorId: body.details?.monitor_id ?? null })
      return new Response('ok')
    },
  })
  return { url: `http://127.0.0.1:${server.port}/hook`, received, stop: () => server.stop(true) }
}

/** Samples the server's CPU seconds every second, so a window's worst stretch can be read. */
function cpuSampler(server: ServerProcess) {
  const samples: Array<[number, number]> = [[Date.now(), server.cpuSeconds()]]
  const timer = setInterval(() => samples.push([Date.now(), server.cpuSeconds()]), 1000)
  return {
    stop: () => clearInterval(timer),
    /** % of one core between two instants (nearest samples). */
    percent(from: number, to: number) {
      const a = samples.findLast(([at]) => at <= from) ?? samples[0]!
      const b = samples.find(([at]) => at >= to) ?? samples.at(-1)!
      return b[0] === a[0] ? Number.NaN : Number((((b[1] - a[1]) * 1000) / (b[0] - a[0]) * 100).toFixed(1))
    },
    /** The worst `span` ms stretch between two instants, % of one core. */
    worst(from: number, to: number, span: number) {
      let worst = 0
      const inside = samples.filter(([at]) => at >= from && at <= to)
      for (let i = 0; i < inside.length; i++) {
        const j = inside.findIndex(([at]) => at >= inside[i]![0] + span)
        if (j < 0) break
        worst = Math.max(worst, ((inside[j]![1] - inside[i]![1]) * 1000) / (inside[j]![0] - inside[i]![0]) * 100)
      }
      return Number(worst.toFixed(1))
    },
  }
}

async function load(kind: 'burst' | 'steady', count: number, intervalSeconds: number, failingCount: number) {
  const intervalMs = intervalSeconds * 1000
  const target = Bun.spawn([process.execPath, join(import.meta.dir, 'alerting-target.ts')], {
    env: { ...process.env, TARGET_LOOPBACKS: String(HOSTS) },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = target.stdout.getReader()
  const ports = JSON.parse(new TextDecoder().decode((await reader.read()).value)) as { http: number; loopbacks: Array<{ host: string; port: number }> }
  const control = `http://127.0.0.1:${ports.http}`
  const arrivals = async () => (await fetch(`${control}/__arrivals`).then((r) => r.json())) as Array<[number, number, number]>
  const receiver = startReceiver()
  const temp = tempDir()
  const path = join(temp.dir, 'bench.sqlite')
  // MONITOR_PRIVATE_TARGETS also lets webhook deliveries reach loopback (the outbox uses the monitors' address guard).
  const env = { DATABASE_PATH: path, BASE_URL: 'http://bench.test', MONITOR_PRIVATE_TARGETS: '1' }
  const config = loadConfig(env)
  const label = `${count} HTTP monitors @ ${intervalSeconds} s`
  try {
    const start = Date.now() + LEAD_MS
    const seedStarted = performance.now()
    const ids = await seedDatabase(config, 'enterprise', async (services, owner) => {
      const channel = await services.channels.create(owner, { type: 'webhook', name: 'bench receiver', url: receiver.url })
      const db = services.monitorsRepo.db
      // A webhook channel is verified by a successful test send; the receiver answers 200, so mark it as that send would.
      await db.updateTable('notification_channels').set({ verified_at: Date.now() }).where('id', '=', channel.id).execute()
      const url = (i: number) => `http://${ports.loopbacks[i % HOSTS]!.host}:${ports.loopbacks[i % HOSTS]!.port}/${i}`
      // One monitor through the API's services (a real row, default confirmation, its alert channel), the rest copies.
      const { monitor: first } = await services.monitors.create(owner, { name: 'm0', type: 'http', target: url(0), interval_seconds: intervalSeconds })
      await services.monitorAlerts.update(owner, first.id, { channel_ids: [channel.id] })
      const row = await db.selectFrom('monitors').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow()
      if (row.retries !== RETRIES || row.confirm_failures !== CONFIRM_FAILURES || row.confirm_successes !== CONFIRM_SUCCESSES) {
        fail(`the monitor's defaults are not the ones measured: retries ${row.retries}, confirm ${row.confirm_failures}/${row.confirm_successes}`)
      }
      const { id: _id, ...copy } = row
      await db.transaction().execute(async (trx) => {
        for (let from = 1; from < count; from += 500) {
          const rows = []
          for (let i = from; i < Math.min(count, from + 500); i++) rows.push({ ...copy, name: `m${i}`, target: url(i) })
          await trx.insertInto('monitors').values(rows).execute()
        }
        const all = await trx.selectFrom('monitors').select(['id', 'target']).orderBy('id').execute()
        const links = all.filter(({ id }) => id !== first.id).map(({ id }) => ({ monitor_id: id, channel_id: channel.id }))
        for (let from = 0; from < links.length; from += 500) await trx.insertInto('monitor_alert_channels').values(links.slice(from, from + 500)).execute()
        // Targets name the monitor's id, so the target's log says whose run it saw; first runs phase-spread as the API spreads them.
        for (const { id, target: t } of all) {
          await trx.updateTable('monitors').set({ next_run_at: start + phaseOffsetMs(id, intervalMs), target: t!.replace(/\/\d+$/, `/${id}`) }).where('id', '=', id).execute()
        }
      })
      const linked = await db.selectFrom('monitor_alert_channels').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
      if (Number(linked.n) !== count) fail(`${linked.n} monitors have the channel, not ${count}`)
      return (await db.selectFrom('monitors').select('id').orderBy('id').execute()).map((r) => r.id)
    })
    const seedSeconds = (performance.now() - seedStarted) / 1000
    if (Date.now() > start - 3000) fail(`seeding took ${seedSeconds.toFixed(1)} s: the first runs would fall due before the server listens`)
    const server = await startServerProcess(env)
    const cpu = cpuSampler(server)
    try {
      await Bun.sleep(Math.max(0, start - Date.now()))
      await arrivals()
      // The steady state: every monitor up, alerts quiet.
      const steady0 = Date.now()
      await Bun.sleep(SECONDS * 1000)
      const steady1 = Date.now()
      const steadyChecks = (await arrivals()).length
      const steadyCpu = cpu.percent(steady0, steady1)
      const steadyFigure: Record<string, unknown> = {
        figure: 'steady state', load: label, seconds: Math.round((steady1 - steady0) / 1000), checks: steadyChecks,
        checks_expected: Math.round((count * (steady1 - steady0)) / intervalMs), cpu_percent_of_one_core: steadyCpu,
        webhooks_received: receiver.received.length,
      }
      if (kind === 'steady') {
        steadyFigure.target = '≤ 10 % of one core'
        steadyFigure.verdict = steadyCpu <= 10 ? 'met' : 'NOT met'
      }
      print(steadyFigure)
      if (steadyChecks < (count * (steady1 - steady0)) / intervalMs / 2) fail(`only ${steadyChecks} checks reached the targets in the steady window`)
      if (receiver.received.length > 0) fail(`${receiver.received.length} webhooks arrived while every target was up`)
      if (kind === 'steady') return

      // The burst: every tenth monitor answers 500 from T. Monitor i is on host i % 100, so these are
      // all 100 monitors of 10 hosts (spread over phases): the per-host cap is what is tried.
      const step = Math.max(1, Math.floor(ids.length / failingCount))
      const failing = ids.filter((_, i) => i % step === 0).slice(0, failingCount)
      const failingSet = new Set(failing)
      const states = await monitorStates(path, failing)
      const { at: T } = (await fetch(`${control}/__fail`, { method: 'POST', body: JSON.stringify(failing) }).then((r) => r.json())) as { at: number }
      // The last monitor's confirmation: its first failing run within an interval, then confirm_failures - 1 more, plus its retries.
      const burstDeadline = T + CONFIRM_FAILURES * intervalMs + RETRIES * RETRY_DELAY_MS + ALERT_WITHIN_MS + 45_000
      const downs = () => receiver.received.filter((r) => r.type === 'monitor.down')
      while (Date.now() < burstDeadline && new Set(downs().map((r) => r.monitorId)).size < failing.length) await Bun.sleep(250)
      const lastDown = downs().at(-1)?.at ?? Date.now()
      // A few seconds more, so a second message about an outage (a repeat) would be seen.
      await Bun.sleep(5000)
      const burstLog = await arrivals()
      const down = judge('down', receiver.received, await stateChanges(path, failing, 'down', T), failingSet, 'monitor.down')
      const firstConfirm = Math.min(...down.confirmations)
      const lastConfirm = Math.max(...down.confirmations)
      print({
        figure: 'outage alerts', load: label, failing: failing.length, states_before: states, states_after: await monitorStates(path, failing),
        target_requests: burstLog.length, target_500s: burstLog.filter(([, , s]) => s === 500).length, webhooks_received: receiver.received.length, confirmation: `retries ${RETRIES} (${RETRY_DELAY_MS / 1000} s apart), confirm_failures ${CONFIRM_FAILURES}`,
        ...down.figures,
        ...(await outboxStages(path, T)),
        confirmations_spread_s: Number(((lastConfirm - firstConfirm) / 1000).toFixed(1)),
        detection_T_to_confirmation_p50_s: Number((percentile([...down.confirmations].sort((a, b) => a - b), 50) / 1000 - T / 1000).toFixed(1)),
        detection_T_to_confirmation_max_s: Number(((lastConfirm - T) / 1000).toFixed(1)),
        detection_ideal_max_s: (intervalMs * CONFIRM_FAILURES + RETRIES * RETRY_DELAY_MS) / 1000,
        burst_window_s: Number(((lastDown - T) / 1000).toFixed(1)),
        cpu_percent_of_one_core_T_to_last_alert: cpu.percent(T, lastDown),
        cpu_percent_first_confirmation_to_last_alert: cpu.percent(firstConfirm, lastDown),
        cpu_worst_5s_percent: cpu.worst(T, lastDown + 1000, 5000),
        cpu_percent_steady_before: steadyCpu,
        target: `every alert within ${ALERT_WITHIN_MS / 1000} s of confirmation, one message per outage`,
        verdict: down.figures.within_10s === failing.length && down.figures.outages_with_exactly_one_message === failing.length && down.figures.messages_about_other_monitors === 0 ? 'met' : 'NOT met',
      })
      if (down.figures.messages === 0) fail('no outage alert reached the receiver')
      if (process.env.ALERT_RECOVERY === '0') return

      // The recovery: all healed at once; each outage's `monitor.up` is one more message.
      const before = receiver.received.length
      const { at: T2 } = (await fetch(`${control}/__heal`, { method: 'POST' }).then((r) => r.json())) as { at: number }
      const upDeadline = T2 + CONFIRM_SUCCESSES * intervalMs + ALERT_WITHIN_MS + 15_000
      const ups = () => receiver.received.filter((r) => r.type === 'monitor.up')
      while (Date.now() < upDeadline && new Set(ups().map((r) => r.monitorId)).size < failing.length) await Bun.sleep(250)
      const lastUp = ups().at(-1)?.at ?? Date.now()
      await Bun.sleep(5000)
      const healLog = await arrivals()
      // Only the outages the server confirmed can recover; the rest were never down.
      const downIds = [...(await stateChanges(path, failing, 'down', T)).keys()]
      const up = judge('up', receiver.received.slice(before), await stateChanges(path, downIds, 'up', T2), new Set(downIds), 'monitor.up')
      void healLog
      const totals = new Map<number, number>()
      for (const r of receiver.received) if (r.monitorId !== null) totals.set(r.monitorId, (totals.get(r.monitorId) ?? 0) + 1)
      print({
        figure: 'recovery alerts', load: label, healed: failing.length, were_down: downIds.length, confirmation: `confirm_successes ${CONFIRM_SUCCESSES}`,
        ...up.figures,
        ...(await outboxStages(path, T2)),
        cpu_percent_of_one_core_T_to_last_alert: cpu.percent(T2, lastUp),
        cpu_worst_5s_percent: cpu.worst(T2, lastUp + 1000, 5000),
        outages_with_exactly_two_messages_down_and_up: failing.filter((id) => totals.get(id) === 2).length,
        target: `every recovery within ${ALERT_WITHIN_MS / 1000} s of confirmation, one message`,
        verdict: downIds.length === failing.length && up.figures.within_10s === downIds.length && up.figures.outages_with_exactly_one_message === downIds.length && up.figures.messages_about_other_monitors === 0 ? 'met' : 'NOT met',
      })
    } finally {
      cpu.stop()
      await server.stop()
    }
  } finally {
    receiver.stop()
    target.kill()
    await target.exited
    temp.remove()
  }
}

/** The monitors' states now, read beside the server (how many were up when they went down). */
async function monitorStates(path: string, ids: number[]): Promise<Record<string, number>> {
  const reader = openDatabase(path, { readonly: true })
  try {
    const out: Record<string, number> = {}
    for (let from = 0; from < ids.length; from += 500) {
      const rows = await reader.db.selectFrom('monitors').select('state').where('id', 'in', ids.slice(from, from + 500)).execute()
      for (const { state } of rows) out[state] = (out[state] ?? 0) + 1
    }
    return out
  } finally {
    await reader.close()
  }
}

/** Per monitor, the first change to `state` at or after `since`, as the server recorded it (its confirmation instant). */
/**
 * Where a delivery's time went, from the server's outbox (webhook rows queued at or after `since`):
 * queued → its last attempt's result recorded (the worker's wait plus the attempt), the receiver's answer time, and retries.
 */
async function outboxStages(path: string, since: number): Promise<Record<string, number>> {
  const reader = openDatabase(path, { readonly: true })
  try {
    const rows = await reader.db.selectFrom('outbox').select(['created_at', 'last_attempt_at', 'latency_ms', 'attempts', 'status']).where('created_at', '>=', since).execute()
    const waits = rows.filter((r) => r.last_attempt_at !== null).map((r) => r.last_attempt_at! - r.created_at).sort((a, b) => a - b)
    const latencies = rows.filter((r) => r.latency_ms !== null).map((r) => r.latency_ms!).sort((a, b) => a - b)
    return {
      outbox_rows: rows.length,
      outbox_queued_to_recorded_p50_ms: percentile(waits, 50), outbox_queued_to_recorded_p95_ms: percentile(waits, 95), outbox_queued_to_recorded_max_ms: waits.at(-1) ?? Number.NaN,
      outbox_receiver_latency_p95_ms: percentile(latencies, 95), outbox_receiver_latency_max_ms: latencies.at(-1) ?? Number.NaN,
      outbox_rows_retried: rows.filter((r) => r.attempts > 1).length,
      outbox_rows_not_sent: rows.filter((r) => r.status !== 'sent').length,
    }
  } finally {
    await reader.close()
  }
}

async function stateChanges(path: string, ids: number[], state: string, since: number): Promise<Map<number, number>> {
  const reader = openDatabase(path, { readonly: true })
  try {
    const out = new Map<number, number>()
    for (let from = 0; from < ids.length; from += 500) {
      const rows = await reader.db.selectFrom('monitor_state_changes').select(['monitor_id', 'at']).where('monitor_id', 'in', ids.slice(from, from + 500)).where('state', '=', state).where('at', '>=', since).orderBy('at').execute()
      for (const { monitor_id, at } of rows) if (!out.has(monitor_id)) out.set(monitor_id, at)
    }
    return out
  } finally {
    await reader.close()
  }
}

/**
 * Per monitor of `set`: its confirmation instant (the server's recorded state change) and the
 * first message of `type` about it; delays, messages per outage, strays.
 */
function judge(what: string, received: readonly Received[], confirmedAt: ReadonlyMap<number, number>, set: ReadonlySet<number>, type: string) {
  const messages = new Map<number, Received[]>()
  let strays = 0
  for (const r of received) {
    if (r.monitorId === null || !set.has(r.monitorId)) {
      strays++
      continue
    }
    if (r.type !== type) continue
    messages.set(r.monitorId, [...(messages.get(r.monitorId) ?? []), r])
  }
  const delays: number[] = []
  const confirmations: number[] = []
  let unconfirmed = 0
  for (const id of set) {
    const confirmed = confirmedAt.get(id)
    if (confirmed === undefined) {
      unconfirmed++
      continue
    }
    confirmations.push(confirmed)
    const first = messages.get(id)?.[0]
    if (first) delays.push(first.at - confirmed)
  }
  delays.sort((a, b) => a - b)
  const counts = [...set].map((id) => messages.get(id)?.length ?? 0)
  const webhookIds = received.filter((r) => r.type === type).map((r) => r.webhookId)
  if (delays.length > 0 && delays[0]! < -1000) fail(`a ${what} alert arrived ${-delays[0]!} ms before its confirmation: the confirmation instants are wrong`)
  return {
    confirmations,
    figures: {
      confirmed_by_server: confirmations.length,
      not_confirmed_by_deadline: unconfirmed,
      messages: counts.reduce((a, b) => a + b, 0),
      outages_with_exactly_one_message: counts.filter((c) => c === 1).length,
      outages_with_no_message: counts.filter((c) => c === 0).length,
      outages_with_more_than_one: counts.filter((c) => c > 1).length,
      repeated_webhook_ids: webhookIds.length - new Set(webhookIds).size,
      messages_about_other_monitors: strays,
      delay_p50_ms: percentile(delays, 50),
      delay_p95_ms: percentile(delays, 95),
      delay_max_ms: delays.at(-1) ?? Number.NaN,
      within_10s: delays.filter((d) => d <= ALERT_WITHIN_MS).length,
    },
  }
}

const loads = (process.env.ALERT_BENCH ?? 'burst:10000,steady:1000:10').split(',')
for (const entry of loads) {
  const [kind, count, interval] = entry.split(':') as ['burst' | 'steady', string, string | undefined]
  if (kind !== 'burst' && kind !== 'steady') fail(`unknown load ${entry} (burst:COUNT[:INTERVAL] or steady:COUNT:INTERVAL)`)
  const n = Number(count)
  await load(kind, n, Number(interval ?? (kind === 'burst' ? 30 : 10)), Number(process.env.ALERT_FAILING ?? Math.max(1, Math.round(n / 10))))
}
