/**
 * A cold render of an incident's page whose 50 updates are Markdown (links, emphasis, lists, code,
 * raw HTML to escape): every render has text never rendered before, so no cache can answer it. The
 * process is warmed first on other text (a server renders many pages); the first render in a fresh
 * process (module compilation included) is reported beside it. Target: median under 10 ms of CPU
 * time (the process's, so that other programs on a shared machine do not count), wall time beside
 * it. The same page with plain-text updates shows what the Markdown adds.
 */
import { renderIncidentPage } from '../../src/modules/status-site/render/incident.ts'
import { bareAssets } from '../../src/modules/status-site/render/shared.ts'
import type { PublicIncident } from '../../src/modules/status-site/events.ts'
import { median } from './lib.ts'

const TARGET_MS = 10
const NOW = Date.UTC(2026, 10, 28, 12)
const STATES = ['investigating', 'identified', 'monitoring'] as const

function incident(round: number): PublicIncident {
  const updates = Array.from({ length: 50 }, (_, i) => ({
    id: round * 100 + i,
    state: STATES[i % 3]!,
    at: NOW - (50 - i) * 60_000,
    message:
      `Update ${round}.${i}: we **found** the cause in the \`queue-${i}\` worker; see [the post](https://example.com/posts/${round}/${i}) ` +
      `or write to ops@example.com.\n\n- payments *retried* (${i} left)\n- webhooks delayed\n- <b>raw ${i}</b> stays text\n\n` +
      '```\nerror: connection reset by peer\n```',
  }))
  return {
    id: round,
    title: `Payments failing ${round}`,
    state: 'monitoring',
    startedAt: NOW - 3_600_000,
    resolvedAt: null,
    createdAt: NOW - 3_600_000,
    updatedAt: NOW,
    components: [{ id: 1, name: 'Payments' }],
    updates,
  } as unknown as PublicIncident
}

const view = (round: number) => ({ name: 'Acme', incident: incident(round), noindex: false, canonicalUrl: 'https://status.acme.example', now: NOW, assets: bareAssets('/page.css') })

const plainView = (round: number) => {
  const v = view(round)
  v.incident.updates = v.incident.updates.map((u) => ({ ...u, message: `Update ${round}.${u.id}: we found the cause in the queue worker and are retrying payments.` }))
  return v
}

/** Wall and CPU milliseconds of one render each, sorted. */
function measure(make: (round: number) => ReturnType<typeof view>, from: number): { wall: number[]; cpu: number[] } {
  const wall: number[] = []
  const cpu: number[] = []
  for (let round = from; round < from + 50; round++) {
    const v = make(round)
    const c = process.cpuUsage()
    const t = performance.now()
    renderIncidentPage(v)
    wall.push(performance.now() - t)
    const used = process.cpuUsage(c)
    cpu.push((used.user + used.system) / 1000)
  }
  return { wall: wall.sort((a, b) => a - b), cpu: cpu.sort((a, b) => a - b) }
}

const firstView = view(0)
const started = performance.now()
const first = renderIncidentPage(firstView)
const firstMs = performance.now() - started
if (!first.includes('<strong>found</strong>') || first.includes('<b>raw')) throw new Error('the page did not render the Markdown')

measure(view, 1_000) // warm-up on other text
const markdown = measure(view, 2_000)
const plain = measure(plainView, 3_000)
const med = median(markdown.cpu)
const fmt = (ms: number) => `${ms.toFixed(2)} ms`
console.log(
  `markdown: incident page, 50 Markdown updates, cold (text never rendered before): CPU median ${fmt(med)}, p90 ${fmt(markdown.cpu[44]!)}; ` +
    `wall median ${fmt(median(markdown.wall))}, fastest ${fmt(markdown.wall[0]!)} (target: CPU median < ${TARGET_MS} ms); ` +
    `plain-text updates: CPU median ${fmt(median(plain.cpu))}; first render in a fresh process ${fmt(firstMs)} wall`,
)
if (med >= TARGET_MS) {
  console.error(`markdown: the cold render took ${fmt(med)} of CPU, over ${TARGET_MS} ms`)
  process.exitCode = 1
}
