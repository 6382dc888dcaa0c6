/**
 * `bun run bench apply`: configuration as code on a team of 500 monitors (10 pages of 50 components,
 * each monitor on a component, 5 channels), through the real service on a real SQLite file. The
 * file is written once by apply (500 creates in one transaction), then applied again unchanged
 * (what a CI pipeline does on every push) and planned. Every page also has its settings in the
 * file (an SLA target on each component, branding colours, automatic incidents on 5 components, a
 * one-off and a recurring maintenance) and the team 5 incident templates; APPLY_BENCH_SETTINGS=0
 * leaves them out (the file as it was before they were in it). Target (the issue): an apply of the
 * 500-monitor file with no changes ≤ 2 s. Printed: medians and maxima over APPLY_BENCH_ROUNDS
 * rounds (default 10) after 2 warm-up rounds.
 */
import { configText, parseConfigText } from '../../src/modules/config-as-code/file.ts'
import type { ConfigFile } from '../../src/modules/config-as-code/model.ts'
import { benchServices, median } from './lib.ts'

const MONITORS = 500
const PAGES = 10
const ROUNDS = Number(process.env.APPLY_BENCH_ROUNDS ?? 10)
const SETTINGS = process.env.APPLY_BENCH_SETTINGS !== '0'
const NOW = Date.UTC(2026, 11, 7, 6, 0, 0)

const fixture = await benchServices(NOW)
try {
  const { services } = fixture
  const owner = await services.accounts.personalTeamOwner(await services.accounts.createUser({ email: 'bench@example.com', password: 'a-long-password', plan: 'enterprise' }))
  const perPage = MONITORS / PAGES
  const file: ConfigFile = {
    version: 1,
    pages: Array.from({ length: PAGES }, (_, p) => ({
      slug: `bench-${p}`,
      name: `Bench ${p}`,
      components: Array.from({ length: perPage }, (_, c) => ({ name: `Service ${c}`, group: `Group ${c % 5}`, ...(SETTINGS ? { sla: { target_percent: 99.9, period: 'month' as const } } : {}) })),
      ...(SETTINGS
        ? {
            branding: { palette: { primary: '#aa3300' } },
            automatic_incidents: { auto_incidents: true, auto_resolve: true, components: Array.from({ length: 5 }, (_, c) => `Service ${c}`) },
            maintenance: [{ title: 'Upgrade', start_at: '2026-12-20T02:00:00Z', end_at: '2026-12-20T03:00:00Z', components: ['Service 0'] }],
            recurring_maintenance: [{ title: 'Patching', time_zone: 'Europe/Berlin', starts_on: '2026-12-08', start_time: '02:00', duration_minutes: 60, frequency: 'weekly' as const, weekdays: ['TU' as const] }],
          }
        : {}),
    })),
    channels: Array.from({ length: 5 }, (_, i) => ({ name: `Hook ${i}`, type: 'webhook' as const, url: `\${HOOK_${i}_URL}` })),
    // IP literals: a save resolves names (up to 3 s each), and the bench measures the configuration, not DNS.
    monitors: Array.from({ length: MONITORS }, (_, i) => ({
      name: `Monitor ${i}`,
      type: 'tcp' as const,
      target: `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}:443`,
      interval_seconds: 60,
      page: `bench-${i % PAGES}`,
      component: `Service ${Math.floor(i / PAGES)}`,
      alert_channels: [`Hook ${i % 5}`],
    })),
  }
  if (SETTINGS) file.templates = Array.from({ length: 5 }, (_, i) => ({ name: `Template ${i}`, title: `{{component}} problem ${i}`, message: 'We are looking into it.' }))
  const env = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`HOOK_${i}_URL`, `https://hooks.example.net/${i}?token=${i}`]))
  const text = configText(file)
  const options = { prune: true, env, address: null, client: 'bench' }

  let start = performance.now()
  const first = await services.configAsCode.apply(owner, parseConfigText(text), options)
  const seedMs = performance.now() - start
  console.log(`first apply: ${first.plan.changes.length} creates in one transaction, ${(seedMs / 1000).toFixed(2)} s; file ${(text.length / 1024).toFixed(0)} KiB`)
  // What export writes back (signing secrets Lantern made included) is what a pipeline keeps applying.
  const exported = await services.configAsCode.export(owner)
  const keptText = configText(exported.file)
  const keptEnv = { ...env, ...exported.secrets }

  const cases = [
    { name: 'apply, no change', run: async () => (await services.configAsCode.apply(owner, parseConfigText(keptText), { ...options, env: keptEnv })).plan.changes.length },
    { name: 'plan, no change', run: async () => (await services.configAsCode.plan(owner, parseConfigText(keptText), { prune: true, env: keptEnv })).changes.length },
    { name: 'export', run: async () => configText((await services.configAsCode.export(owner)).file).length * 0 },
  ]
  const times = new Map<string, number[]>(cases.map((c) => [c.name, []]))
  for (let round = 0; round < ROUNDS + 2; round++) {
    for (const c of cases) {
      start = performance.now()
      const changes = await c.run()
      if (changes !== 0) throw new Error(`${c.name}: ${changes} changes, expected none`)
      if (round >= 2) times.get(c.name)!.push(performance.now() - start)
    }
  }
  console.log('case                median ms   max ms   target')
  for (const c of cases) {
    const list = times.get(c.name)!
    const target = c.name.startsWith('apply') ? `≤ 2000 ms: ${median(list) <= 2000 ? 'met' : 'NOT met'}` : ''
    console.log(`${c.name.padEnd(18)} ${median(list).toFixed(1).padStart(10)} ${Math.max(...list).toFixed(1).padStart(8)}   ${target}`)
  }
} finally {
  await fixture.close()
}
