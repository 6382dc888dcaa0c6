/**
 * `bun run bench import`: `lantern import uptime-kuma` (the CLI, `bun src/cli.ts import …` in a
 * process of its own, as an operator runs it) of the Uptime Kuma 2.5 fixture scaled to 1,000 monitors
 * and a year of heartbeats. The fixture's 14 check monitors are cloned round-robin to 1,000 (names
 * numbered, each on the fixture's status page in its group) and given one heartbeat an hour for 365
 * days (8,760 a monitor, 8.76 million rows; a beat down in 2 of every 97, in runs, so the history has
 * changes to carry). Kuma itself beats every 20–60 s and keeps 180 days by default: a year at that
 * rate is 50–150 times the rows, which no bench on this machine can seed; what grows with the rows is
 * the read of the heartbeats, measured here as the peak memory of the importing process too.
 * Target (the issue): the import in ≤ 60 s. Run with IMPORT_BENCH_MONITORS / IMPORT_BENCH_DAYS to
 * scale it.
 */
import { Database } from 'bun:sqlite'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { seedDatabase, tempDir } from './lib.ts'

const MONITORS = Number(process.env.IMPORT_BENCH_MONITORS ?? 1000)
const DAYS = Number(process.env.IMPORT_BENCH_DAYS ?? 365)
const FIXTURE = join(import.meta.dir, '..', '..', '..', 'shared', 'fixtures', 'importers', 'uptime-kuma-2.5.3.db')
const ROOT = join(import.meta.dir, '..', '..')

const temp = tempDir()
try {
  const kuma = join(temp.dir, 'kuma.db')
  copyFileSync(FIXTURE, kuma)
  let start = performance.now()
  const db = new Database(kuma)
  const columns = (db.query("SELECT name FROM pragma_table_info('monitor')").all() as { name: string }[]).map((c) => c.name).filter((c) => c !== 'id' && c !== 'name' && c !== 'parent')
  const templates = db.query("SELECT id FROM monitor WHERE type NOT IN ('group', 'docker') AND active = 1 ORDER BY id").all() as { id: number }[]
  const group = db.query('SELECT id FROM "group" ORDER BY id LIMIT 1').get() as { id: number }
  const existing = (db.query("SELECT COUNT(*) AS n FROM monitor WHERE type <> 'group'").get() as { n: number }).n
  db.transaction(() => {
    const clone = db.prepare(`INSERT INTO monitor (name, ${columns.join(', ')}) SELECT name || ' ' || ?, ${columns.join(', ')} FROM monitor WHERE id = ?`)
    const link = db.prepare('INSERT INTO monitor_group (monitor_id, group_id, weight) VALUES (?, ?, ?)')
    for (let n = existing; n < MONITORS; n++) {
      const made = clone.run(n, templates[n % templates.length]!.id)
      link.run(Number(made.lastInsertRowid), group.id, n)
    }
    db.run('DELETE FROM heartbeat')
  })()
  // Kuma writes times as UTC 'YYYY-MM-DD HH:MM:SS.SSS'; the year ends an hour before the import runs.
  const from = Math.floor(Date.now() / 3_600_000) * 3600 - DAYS * 86_400
  db.run(
    `WITH RECURSIVE h(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM h WHERE n < ?)
     INSERT INTO heartbeat (monitor_id, status, time, msg, ping, important, duration)
     SELECT m.id, CASE WHEN (n + m.id * 7) % 97 < 2 THEN 0 ELSE 1 END, strftime('%Y-%m-%d %H:%M:%f', ? + n * 3600, 'unixepoch'), '', 42, 0, 3600
     FROM monitor m, h WHERE m.type <> 'group'`,
    [DAYS * 24 - 1, from],
  )
  const counts = db.query("SELECT (SELECT COUNT(*) FROM monitor WHERE type <> 'group') AS monitors, (SELECT COUNT(*) FROM heartbeat) AS beats").get() as { monitors: number; beats: number }
  db.close()
  const seedSeconds = (performance.now() - start) / 1000
  const size = Bun.file(kuma).size
  console.log(`Kuma database: ${counts.monitors.toLocaleString('en')} monitors, ${counts.beats.toLocaleString('en')} heartbeats, ${(size / 2 ** 20).toFixed(0)} MiB (seeded in ${seedSeconds.toFixed(1)} s)`)

  const lantern = join(temp.dir, 'lantern.sqlite')
  // The fixture's targets are on 127.0.0.1 (its README says why): allowed, as on a private network.
  const env = { DATABASE_PATH: lantern, BASE_URL: 'http://bench.test', MONITOR_PRIVATE_TARGETS: '1' }
  await seedDatabase(loadConfig(env), 'enterprise', async () => undefined)

  start = performance.now()
  // /usr/bin/time is not everywhere: the peak resident size comes from the process's own status.
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src', 'cli.ts'), 'import', 'uptime-kuma', '--email', 'bench@example.com', '--db', kuma, '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: 'error' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let peakKiB = 0
  const sampler = setInterval(async () => {
    const status = await Bun.file(`/proc/${proc.pid}/status`).text().catch(() => '')
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status)
    if (hwm) peakKiB = Math.max(peakKiB, Number(hwm[1]))
  }, 100)
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  clearInterval(sampler)
  const seconds = (performance.now() - start) / 1000
  if (code !== 0) throw new Error(`import failed (${code}): ${err.slice(0, 2000)}`)
  const report = JSON.parse(out) as { created?: Record<string, number> }
  const check = new Database(lantern, { readonly: true })
  const made = check.query('SELECT (SELECT COUNT(*) FROM monitors) AS monitors, (SELECT COUNT(*) FROM components) AS components, (SELECT COUNT(*) FROM component_status_history) AS history').get() as Record<string, number>
  check.close()
  console.log(`created: ${JSON.stringify(report.created ?? {})}; in the database: ${made.monitors} monitors, ${made.components} components, ${made.history!.toLocaleString('en')} status changes`)
  console.log(
    JSON.stringify({ bench: 'import uptime-kuma', monitors: counts.monitors, heartbeats: counts.beats, seconds: Number(seconds.toFixed(1)), peak_rss_mib: Math.round(peakKiB / 1024), target: '≤ 60 s', verdict: seconds <= 60 ? 'met' : 'NOT met' }),
  )
} finally {
  temp.remove()
}
