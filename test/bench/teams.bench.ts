/**
 * `bun run bench teams`: what the team's role guard and audit log cost, against targets of the Teams
 * issue. Two parts, each through real servers (`bun src/main.ts` in processes of their own):
 *
 * 1. A warm owner API read (`GET /user/api/v1/components/:id`) and write (`PATCH` of the same
 *    component's name) by an owner's API key, on the real build (role guard, audit row per write)
 *    against the same build with both skipped (`unguarded-build.ts`: a copy of the tree with
 *    `auth.ts` rewritten; nothing in the application can switch them off). wrk, 16 connections, the two servers
 *    alternating round after round; printed: r/s ratio and server CPU ratio per request (target:
 *    ≤ 10 % slower, i.e. both ≥ 0.90). The guarded server's database holds the million audit rows
 *    of part 2, so its audit insert lands in a full table.
 * 2. The audit list filtered by page over 1,000,000 rows of the team (`GET /user/api/v1/team/audit
 *    ?page_id=…`, one client, one request at a time): p50/p95/max over N requests for a busy page
 *    (10 % of the rows), a quiet page (0.1 %), the busy page 5,000 rows deep (by `cursor`) and the
 *    unfiltered list, with SQLite's query plan of each (target: p95 ≤ 50 ms).
 *
 * BENCH_ROUNDS (3), BENCH_SECONDS (3), BENCH_REQUESTS (200), AUDIT_ROWS (1,000,000) tune it.
 */
import { copyFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { loadConfig } from '../../src/config.ts'
import { writeUnguardedTree } from './unguarded-build.ts'
import { alternate, median, seedDatabase, startListeningProcess, startServerProcess, tempDir, type ServerProcess } from './lib.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200)
const AUDIT_ROWS = Number(process.env.AUDIT_ROWS ?? 1_000_000)
const BASE_URL = 'http://127.0.0.1'
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

const temp = tempDir()
const guardedPath = join(temp.dir, 'guarded.sqlite')
const unguardedPath = join(temp.dir, 'unguarded.sqlite')
const env = (path: string) => ({ DATABASE_PATH: path, BASE_URL, RATE_LIMIT: '0', })

const seeded = await seedDatabase(loadConfig(env(guardedPath)), 'enterprise', async (services, owner) => {
  const busy = await services.pages.create(owner, { slug: 'busy', name: 'Busy' })
  const quiet = await services.pages.create(owner, { slug: 'quiet', name: 'Quiet' })
  const component = await services.components.create(owner, busy.id, { name: 'Component 1' })
  const { key } = await services.accounts.createApiKey(owner, 'bench')
  const { key: viewerKey } = await services.accounts.createApiKey(owner, 'viewer', 'viewer')
  return { viewerKey, teamId: owner.id, userId: owner.userId, busyPageId: busy.id, quietPageId: quiet.id, componentId: component.id, key }
})

// The unguarded server's database: the same rows but the audit log (it never writes one).
{
  const db = new Database(guardedPath)
  db.run('PRAGMA wal_checkpoint(TRUNCATE)')
  db.close()
  copyFileSync(guardedPath, unguardedPath)
}

// A million rows of the team in one statement: every tenth on the busy page, every thousandth on
// the quiet one, the rest on 50 other pages or none, one every 2.6 s up to now.
{
  const started = performance.now()
  const db = new Database(guardedPath)
  const now = Date.now()
  db.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
     INSERT INTO audit_log (team_id, actor_kind, actor_user_id, actor_label, page_id, action, object_type, object_id, summary, address, client, created_at)
     SELECT ?2, CASE WHEN i % 3 = 0 THEN 'api_key' ELSE 'person' END, ?3,
       CASE WHEN i % 3 = 0 THEN 'bench@example.com (API key deploy)' ELSE 'bench@example.com' END,
       CASE WHEN i % 1000 = 0 THEN ?4 WHEN i % 10 = 0 THEN ?5 WHEN i % 10 < 6 THEN 100000 + i % 50 ELSE NULL END,
       'components.patch', '/user/api/v1/components/:id', CAST(i % 500 AS TEXT), '{"fields":["name"]}', '203.0.113.7', 'Firefox on Linux',
       ?6 - (?1 - i) * 2600
     FROM n`,
    [AUDIT_ROWS, seeded.teamId, seeded.userId, seeded.quietPageId, seeded.busyPageId, now],
  )
  db.run('ANALYZE')
  db.run('PRAGMA wal_checkpoint(TRUNCATE)')
  db.close()
  console.log(`seeded ${AUDIT_ROWS.toLocaleString('en')} audit rows in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

const auth = { authorization: `Bearer ${seeded.key}` }
const writeScript = join(temp.dir, 'write.lua')
await Bun.write(
  writeScript,
  `wrk.method = "PATCH"\nwrk.body = '{"name":"Component 1"}'\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Authorization"] = "Bearer ${seeded.key}"\n`,
)

const auditCount = (path: string) => {
  const db = new Database(path, { readonly: true })
  try {
    return (db.query('SELECT COUNT(*) AS n FROM audit_log').get() as { n: number }).n
  } finally {
    db.close()
  }
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)] ?? 0

let guarded: ServerProcess | undefined
let unguarded: ServerProcess | undefined
try {
  guarded = await startServerProcess(env(guardedPath))
  unguarded = await startListeningProcess([writeUnguardedTree(join(temp.dir, 'unguarded-tree'))], env(unguardedPath))
  const component = `/user/api/v1/components/${seeded.componentId}`
  for (const server of [guarded, unguarded]) {
    const answer = await fetch(`${server.url}${component}`, { headers: auth })
    if (answer.status !== 200) throw new Error(`${server.url}${component} answered ${answer.status}: ${await answer.text()}`)
  }
  // The baseline really skips the guard: a viewer's key may write there, not through the guard.
  const viewerWrite = (server: ServerProcess) =>
    fetch(`${server.url}${component}`, { method: 'PATCH', headers: { authorization: `Bearer ${seeded.viewerKey}`, 'content-type': 'application/json' }, body: '{"name":"Component 1"}' }).then((r) => r.status)
  const statuses = { guarded: await viewerWrite(guarded), unguarded: await viewerWrite(unguarded) }
  if (statuses.guarded !== 403 || statuses.unguarded !== 200) throw new Error(`a viewer's write answered ${JSON.stringify(statuses)}: expected 403 guarded, 200 unguarded`)
  const auditBefore = { guarded: auditCount(guardedPath), unguarded: auditCount(unguardedPath) }

  console.log(`\n## 1. warm owner API read and write, guarded / unguarded (load average ${loadAverage()})`)
  const options = { seconds: SECONDS, connections: 16 }
  const results = await alternate(
    [
      { name: 'read  GET /components/:id', subjectUrl: `${guarded.url}${component}`, baselineUrl: `${unguarded.url}${component}`, options: { ...options, headers: auth }, subjectCpu: guarded.cpuSeconds, baselineCpu: unguarded.cpuSeconds },
      { name: 'write PATCH /components/:id', subjectUrl: `${guarded.url}${component}`, baselineUrl: `${unguarded.url}${component}`, options: { ...options, script: writeScript }, subjectCpu: guarded.cpuSeconds, baselineCpu: unguarded.cpuSeconds },
    ],
    {
      rounds: ROUNDS,
      onRound: (pair, round, r) =>
        console.log(
          `${pair.name}  round ${round}: ${r.subject.rps.toFixed(0)} / ${r.baseline.rps.toFixed(0)} r/s (${r.ratio.toFixed(2)}), CPU ${r.subject.cpuUsPerRequest.toFixed(1)} / ${r.baseline.cpuUsPerRequest.toFixed(1)} µs/req (${r.cpuRatio.toFixed(2)}), p99 ${r.subject.p99Ms.toFixed(2)} / ${r.baseline.p99Ms.toFixed(2)} ms`,
        ),
    },
  )
  const auditAfter = { guarded: auditCount(guardedPath), unguarded: auditCount(unguardedPath) }
  const writes = results[1]!.rounds.reduce((sum, r) => sum + r.subject.requests, 0)
  console.log(`audit rows written during the writes: guarded ${auditAfter.guarded - auditBefore.guarded} (writes measured ${writes}, plus warm-up), unguarded ${auditAfter.unguarded - auditBefore.unguarded}`)
  if (auditAfter.unguarded !== auditBefore.unguarded || auditAfter.guarded - auditBefore.guarded < writes) throw new Error('the audit rows do not match the two builds')
  for (const r of results) {
    const cpu = (side: 'subject' | 'baseline') => median(r.rounds.map((round) => round[side].cpuUsPerRequest)).toFixed(1)
    const met = r.ratio >= 0.9 && r.cpuRatio >= 0.9 ? 'met' : r.cpuRatio >= 0.9 ? 'met by CPU, not by r/s' : 'NOT met'
    console.log(
      JSON.stringify({ request: r.pair.name, rps_guarded: Math.round(r.subjectRps), rps_unguarded: Math.round(r.baselineRps), rps_ratio: Number(r.ratio.toFixed(3)), cpu_us_guarded: Number(cpu('subject')), cpu_us_unguarded: Number(cpu('baseline')), cpu_ratio: Number(r.cpuRatio.toFixed(3)), target: '≥ 0.90', verdict: met }),
    )
  }

  console.log(`\n## 2. the audit list over ${AUDIT_ROWS.toLocaleString('en')} rows, ${REQUESTS} requests each (load average ${loadAverage()})`)
  const deepCursor = await (async () => {
    // The id 5,000 rows of the busy page down: what a reader paging back reaches.
    const db = new Database(guardedPath, { readonly: true })
    try {
      return (db.query('SELECT id FROM audit_log WHERE team_id = ? AND page_id = ? ORDER BY id DESC LIMIT 1 OFFSET 5000').get(seeded.teamId, seeded.busyPageId) as { id: number }).id
    } finally {
      db.close()
    }
  })()
  const reads = [
    { name: 'busy page (10 %)', query: `page_id=${seeded.busyPageId}`, sql: ['page_id = ?', seeded.busyPageId] },
    { name: 'quiet page (0.1 %)', query: `page_id=${seeded.quietPageId}`, sql: ['page_id = ?', seeded.quietPageId] },
    { name: 'busy page, 5,000 rows deep', query: `page_id=${seeded.busyPageId}&cursor=${deepCursor}`, sql: ['page_id = ? AND id < ?', seeded.busyPageId, deepCursor] },
    { name: 'unfiltered', query: '', sql: ['1 = 1'] },
  ] as const
  const planDb = new Database(guardedPath, { readonly: true })
  for (const read of reads) {
    const url = `${guarded.url}/user/api/v1/team/audit?${read.query}`
    for (let i = 0; i < 10; i++) await (await fetch(url, { headers: auth })).arrayBuffer()
    const times: number[] = []
    let rows = 0
    const deadline = performance.now() + 120_000
    for (let i = 0; i < REQUESTS && performance.now() < deadline; i++) {
      const started = performance.now()
      const answer = await fetch(url, { headers: auth })
      const body = (await answer.json()) as { data: unknown[] }
      times.push(performance.now() - started)
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`)
      rows = body.data.length
    }
    times.sort((a, b) => a - b)
    const [where, ...args] = read.sql
    const plan = (planDb.query(`EXPLAIN QUERY PLAN SELECT * FROM audit_log WHERE team_id = ? AND ${where} ORDER BY id DESC LIMIT 51`).all(seeded.teamId, ...args) as Array<{ detail: string }>).map((step) => step.detail).join('; ')
    const p95 = percentile(times, 95)
    console.log(
      JSON.stringify({ read: read.name, requests: times.length, rows_per_page: rows, p50_ms: Number(percentile(times, 50).toFixed(2)), p95_ms: Number(p95.toFixed(2)), max_ms: Number(times[times.length - 1]!.toFixed(2)), target: 'p95 ≤ 50 ms', verdict: p95 <= 50 ? 'met' : 'NOT met', plan }),
    )
  }
  planDb.close()
  console.log(`load average at the end: ${loadAverage()}`)
} finally {
  await guarded?.stop()
  await unguarded?.stop()
  temp.remove()
}
