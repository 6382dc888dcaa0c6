/**
 * The process and runtime figures: prom-client's default metrics, those that give real values under
 * Bun. prom-client is imported only here and only when metrics are on (METRICS_TOKEN), so a server
 * without metrics never loads it. The figures are the process's, so one collector serves every app
 * the process builds; its values are written by our own writer, with the app's constant labels.
 */
// Types only: erased at build time, so this line loads nothing.
import type { MetricObjectWithValues, MetricValue } from 'prom-client'
import { labelText, type ExpositionWriter, type MetricType } from './exposition.ts'

/**
 * Default metrics left out, and why: under Bun they are constant or describe something else.
 * Kept: process CPU, start time, resident and virtual memory, open and maximum file descriptors,
 * event loop lag (and its min, max, mean, stddev, p50, p90, p99), heap size and use, external memory.
 */
export const LEFT_OUT_DEFAULT_METRICS: Readonly<Record<string, string>> = {
  process_heap_bytes: "the kernel's data segment size: Bun reserves gigabytes of address space there, so it says nothing about memory in use",
  nodejs_active_resources: 'Bun reports no active resources: always empty',
  nodejs_active_resources_total: 'Bun reports no active resources: always 0',
  nodejs_active_handles: 'Bun reports no active handles: always empty',
  nodejs_active_handles_total: 'Bun reports no active handles: always 0',
  nodejs_active_requests: 'Bun reports no active requests: always empty',
  nodejs_active_requests_total: 'Bun reports no active requests: always 0',
  nodejs_heap_space_size_total_bytes: 'Bun reports a single heap space; the heap totals are in nodejs_heap_size_total_bytes',
  nodejs_heap_space_size_used_bytes: 'Bun reports a single heap space; the heap use is in nodejs_heap_size_used_bytes',
  nodejs_heap_space_size_available_bytes: 'Bun reports a single heap space with no meaningful room left figure',
  nodejs_version_info: 'the Node.js version Bun imitates, not the runtime that runs; lantern_build_info carries the Bun version',
  nodejs_gc_duration_seconds: 'Bun emits no garbage-collection performance entries: always empty',
}

type RuntimeMetric = MetricObjectWithValues<MetricValue<string> & { metricName?: string }>

interface RuntimeCollector {
  read(): Promise<RuntimeMetric[]>
}

/** The Bun that runs this process (lantern_build_info). */
export const RUNTIME_VERSION: string = process.versions.bun ?? 'unknown'

let collector: Promise<RuntimeCollector> | undefined

/** Starts the process's collector once (event loop lag is sampled from then on); later calls share it. */
export function startRuntimeMetrics(): Promise<RuntimeCollector> {
  collector ??= (async () => {
    const { Registry, collectDefaultMetrics } = await import('prom-client')
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })
    for (const name of Object.keys(LEFT_OUT_DEFAULT_METRICS)) registry.removeSingleMetric(name)
    return { read: () => registry.getMetricsAsJSON() }
  })()
  return collector
}

const WRITABLE_TYPES: ReadonlySet<string> = new Set<MetricType>(['counter', 'gauge', 'histogram'])

/** Writes the runtime figures into an exposition. */
export async function writeRuntimeMetrics(out: ExpositionWriter): Promise<void> {
  const metrics = await (await startRuntimeMetrics()).read()
  for (const metric of metrics) {
    const type = String(metric.type)
    // Kept defaults are counters and gauges; anything else would need its own writer.
    if (!WRITABLE_TYPES.has(type)) continue
    out.family(metric.name, type as MetricType, metric.help)
    for (const value of metric.values) {
      const labels: Record<string, string> = {}
      for (const [name, label] of Object.entries(value.labels)) if (label !== undefined) labels[name] = String(label)
      out.sample(value.metricName ?? metric.name, labelText(labels), value.value)
    }
  }
}
