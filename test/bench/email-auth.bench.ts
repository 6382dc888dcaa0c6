/**
 * `bun run bench email-auth`: one email-authentication check (SPF with a mx term and 10 nested
 * includes, DKIM with a split 2048-bit key, DMARC with an external rua and its authorisation) of a
 * domain against an in-process DNS server on 127.0.0.1: the first run, then the median and p95 of
 * 50 runs. Bound: p95 ≤ 200 ms (issue 16). Loopback only; no result is cached between runs.
 */
import { runEmailAuthCheck } from '../../src/modules/monitors/kinds/email-auth/check.ts'
import { createAddressGuard } from '../../src/lib/address-guard.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { dkimRecord, emailAuthZone, startZoneServer } from '../modules/email-auth/zone.ts'

const RUNS = 50
const LIMIT_MS = 200
const zone = emailAuthZone({ k2048: dkimRecord(2048), k1024: dkimRecord(1024), k512: dkimRecord(512) })
// The heaviest realistic domain: 10 nested includes (the limit), a split 2048-bit key, an external rua.
const renamed = (name: string) => zone[name]!.map((a) => (a.type === 'TXT' ? { ...a, data: a.data.map((d) => d.replaceAll('ten.test', 'bench.test')) } : a))
zone['bench.test'] = renamed('ten.test')
for (let i = 1; i <= 10; i++) zone[`i${i}.bench.test`] = renamed(`i${i}.ten.test`)
zone['_dmarc.bench.test'] = [{ type: 'TXT', data: ['v=DMARC1; p=reject; rua=mailto:agg@reports.example'] }]
zone['bench.test._report._dmarc.reports.example'] = [{ type: 'TXT', data: ['v=DMARC1'] }]
zone['s2048._domainkey.bench.test'] = zone['s2048._domainkey.good.test']!

const server = await startZoneServer(zone)
const deps = { guard: createAddressGuard({ resolve: async () => [], allowPrivate: false }), clock: systemClock, dnsServers: [server.address] }
const spec = { type: 'email_auth' as const, domain: 'bench.test', selectors: ['s2048'], timeoutMs: 5_000 }
try {
  const timed = async () => {
    const start = performance.now()
    const result = await runEmailAuthCheck(spec, deps)
    const ms = performance.now() - start
    if (result.outcome !== 'ok') throw new Error(`unexpected result: ${result.message}`)
    return ms
  }
  const cold = await timed()
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) times.push(await timed())
  times.sort((a, b) => a - b)
  const median = times[Math.floor(times.length / 2)]!
  const p95 = times[Math.floor(times.length * 0.95)]!
  console.log(`email-auth check (SPF 10 includes, DKIM 2048 split, DMARC external rua): first ${cold.toFixed(1)} ms, median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${times[times.length - 1]!.toFixed(1)} ms over ${RUNS} runs; ${server.queries} DNS queries in all`)
  if (p95 > LIMIT_MS) {
    console.error(`FAIL: p95 ${p95.toFixed(1)} ms is over ${LIMIT_MS} ms`)
    process.exitCode = 1
  } else console.log(`ok: median and p95 within ${LIMIT_MS} ms`)
} finally {
  await server.close()
}
