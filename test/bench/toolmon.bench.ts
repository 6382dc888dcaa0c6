/**
 * `bun run bench toolmon`: the SSL and DNSBL monitors (issue 16) against loopback servers.
 * - One SSL check (resolve through the guard, handshake, read and judge the chain) against a local
 *   TLS server with a three-level openssl PKI, directly and behind SMTP STARTTLS: target ≤ 300 ms.
 * - A 20-zone DNSBL sweep of one IP against a local DNS server (concurrency 10), with the answers
 *   instant and with 50 ms each (a resolver's latency): target ≤ 1 s; and no "listed" from the
 *   zones answering 127.255.255.254 / 127.255.255.255.
 * Exits 1 when a target is missed.
 */
import { DAY_MS } from '../../src/lib/time.ts'
import { runCheck } from '../../src/modules/monitors/kinds/index.ts'
import type { DnsblReport, DnsblSpec, SslSpec } from '../../src/modules/monitors/kinds/spec.ts'
import { ManualClock } from '../helpers/clock.ts'
import { startDnsServer, testDeps, type DnsAnswer } from '../modules/monitors/fixtures.ts'
import { makeChainPki, startSmtpStartTls, startTlsServer } from '../modules/monitors/tool-fixtures.ts'

const RUNS = 40
const HOST = 'bench-ssl.test'
let failed = false
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return { median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1]! }
}
const show = (label: string, values: number[], target: number) => {
  const s = stats(values)
  const ok = s.p95 <= target
  if (!ok) failed = true
  console.log(`${label}: median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms over ${values.length} runs (target ≤ ${target} ms at p95) ${ok ? 'OK' : 'MISSED'}`)
}

// ── SSL ───────────────────────────────────────────────────────────────────────────────────────
const pki = makeChainPki(HOST)
const direct = await startTlsServer(pki.valid.cert + pki.intermediate, pki.valid.key)
const smtp = await startSmtpStartTls(pki.valid.cert + pki.intermediate, pki.valid.key)
const sslDeps = testDeps({ allowPrivate: ['127.0.0.1/32'], names: { [HOST]: ['127.0.0.1'] }, clock: new ManualClock(pki.valid.notAfter - 20 * DAY_MS), trustedCa: pki.root })
for (const [label, port, starttls] of [['SSL check, direct TLS', direct.port, false], ['SSL check, SMTP STARTTLS', smtp.port, true]] as const) {
  const spec: SslSpec = { type: 'ssl', host: HOST, port, starttls, timeoutMs: 5_000 }
  await runCheck(spec, sslDeps) // warm-up
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    const result = await runCheck(spec, sslDeps)
    times.push(performance.now() - started)
    if (result.outcome !== 'ok') throw new Error(`${label}: ${result.message}`)
  }
  show(label, times, 300)
}
await Promise.all([direct.close(), smtp.close()])

// ── DNSBL ─────────────────────────────────────────────────────────────────────────────────────
const IP = '192.0.2.99'
const zones = Array.from({ length: 20 }, (_, i) => `z${i}.bench.test`)
const zone: Record<string, DnsAnswer[]> = {}
// 3 zones list the IP, 2 answer error codes, the rest NXDOMAIN.
for (const [i, address] of [[0, '127.0.0.2'], [1, '127.0.0.4'], [2, '127.0.0.10'], [3, '127.255.255.254'], [4, '127.255.255.255']] as const) {
  zone[`99.2.0.192.${zones[i]}`] = [{ type: 'A', address }]
}
for (const delayMs of [0, 50]) {
  const dns = await startDnsServer(zone, { delayMs })
  const deps = { ...testDeps({ allowPrivate: false }), dnsServers: [dns.address] }
  const spec: DnsblSpec = { type: 'dnsbl', target: IP, zones, timeoutMs: 5_000 }
  await runCheck(spec, deps)
  const times: number[] = []
  let falseListed = 0
  for (let i = 0; i < (delayMs ? 10 : RUNS); i++) {
    const started = performance.now()
    const result = await runCheck(spec, deps)
    times.push(performance.now() - started)
    const report = result.report as DnsblReport
    const listed = report.results.filter((r) => r.status === 'listed').map((r) => r.zone)
    falseListed += listed.filter((z) => z === zones[3] || z === zones[4]).length
    if (listed.length !== 3) throw new Error(`expected 3 listings, got ${listed.join(', ')}`)
  }
  show(`DNSBL sweep, 20 zones, answers after ${delayMs} ms`, times, 1_000)
  console.log(`  false "listed" on 127.255.255.x answers: ${falseListed}`)
  if (falseListed > 0) failed = true
  await dns.close()
}
process.exit(failed ? 1 : 0)
