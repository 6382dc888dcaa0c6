/**
 * `bun run bench transfer`: the accept transaction of a page transfer (issue 14 item 5, R5's budget
 * ≤ 50 ms) for a page with 100 monitors on 20 components and a year of incidents. The page goes back
 * and forth between two accounts; each accept is timed alone (the offer is made outside the timing).
 * Owner columns change, nothing is copied, so subscribers (counted only on the offer screen) add
 * nothing to it. TRANSFER_BENCH_MONITORS and TRANSFER_BENCH_ROUNDS set the sizes.
 */
import { benchServices, median } from './lib.ts'

const MONITORS = Number(process.env.TRANSFER_BENCH_MONITORS ?? 100)
const ROUNDS = Number(process.env.TRANSFER_BENCH_ROUNDS ?? 40)
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

const fixture = await benchServices(NOW)
try {
  const { services, clock } = fixture
  const alice = await services.accounts.personalTeamOwner(await services.accounts.createUser({ email: 'alice@example.com', password: 'a-long-password', plan: 'enterprise' }))
  const bob = await services.accounts.personalTeamOwner(await services.accounts.createUser({ email: 'bob@example.com', password: 'a-long-password', plan: 'enterprise' }))
  const page = await services.pages.create(alice, { slug: 'bench-moving', name: 'Bench moving' })
  const components = []
  for (let i = 0; i < 20; i++) components.push(await services.components.create(alice, page.id, { name: `c${i}` }))
  for (let i = 0; i < MONITORS; i++) {
    await services.monitors.create(alice, { name: `m${i}`, type: 'http', target: `https://h${i}.example.com/`, interval_seconds: 60, component_id: components[i % components.length]!.id })
  }
  for (let i = 0; i < 50; i++) await services.incidents.create(alice, { title: `incident ${i}`, status_page_id: page.id, message: 'down' })

  const times: number[] = []
  let from = alice
  let to = bob
  for (let round = 0; round < ROUNDS; round++) {
    await services.transfers.startAsAdministrator(from, page.id, to.email)
    const start = performance.now()
    await services.transfers.acceptForPage(to, page.id)
    times.push(performance.now() - start)
    ;[from, to] = [to, from]
  }
  const moved = (await services.monitors.list(from)).filter((m) => m.pageId === page.id).length
  if (moved !== MONITORS) throw new Error(`expected ${MONITORS} monitors with the page, found ${moved}`)
  const sorted = [...times].sort((a, b) => a - b)
  console.log(
    `transfer accept, page with ${MONITORS} monitors / 20 components / 50 incidents: median ${median(times).toFixed(2)} ms, ` +
      `p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(2)} ms, slowest ${sorted[sorted.length - 1]!.toFixed(2)} ms over ${ROUNDS} accepts (budget 50 ms)`,
  )
} finally {
  await fixture.close()
}
