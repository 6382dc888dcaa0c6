/**
 * A monitor's detail screen (pure): state and since when, a response-time graph (server-rendered
 * SVG with min/median/max as text), 90 daily uptime bars from its confirmed state changes (like the
 * page list's), the availability periods (uptime %, downtime, MTTR, MTBF), the downtime log, the
 * recent results (paged) and the actions. Colour never carries a figure alone.
 */
import { counted } from '../../lib/words.ts'
import { html } from '../../lib/html.ts'
import { DAY_MS, utcDayStart } from '../../lib/time.ts'
import type { Availability } from '../../modules/monitors/service.ts'
import type { Monitor, MonitorResultRow } from '../../modules/monitors/service.ts'
import { dayLevel, formatPercent, uptimePercent, type DayUptime } from '../../modules/status-pipeline/uptime.ts'
import type { StoredToolReport } from '../../modules/monitors/service.ts'
import { toolReportSection } from './monitors-report.ts'
import { regionRuleText, STALE_INTERVALS, type RegionView } from '../../modules/monitors/run/index.ts'
import { maskTargetPassword } from '../../modules/monitors/kinds/index.ts'
import { dependencyNote, liveAttributes, type LiveScreen, formatTime, healthBreakdown, misconfiguredNote, monitorPath, MONITOR_TYPE_LABELS, outcomeLabel, stateBadge, stateLabel } from './monitors.ts'

export interface MonitorDetail {
  monitor: Monitor
  componentLabel: string | null
  changes: ReadonlyArray<{ state: string; at: number }>
  periods: ReadonlyArray<Availability>
  results: ReadonlyArray<MonitorResultRow>
  /** The `before` of the next (older) page of results, if any. */
  olderBefore: number | null
  now: number
  /** SSL and DNSBL monitors: the last full report (null: none yet). */
  toolReport?: StoredToolReport | null
  /** Monitors with regions besides local: each region's state (empty: only the server runs it). */
  regions?: ReadonlyArray<RegionView>
}

/** Each region's own state and last result, and the k-of-n rule in words. */
function regionsSection(d: MonitorDetail): string {
  const regions = d.regions ?? []
  if (regions.length === 0) return ''
  const def = d.monitor.definition
  const rows = regions.map((r) => {
    const last = r.lastCheckAt === null ? 'never' : formatTime(r.lastCheckAt)
    const freshness = r.lastCheckAt === null ? 'no result yet' : r.stale ? 'stale: no data' : 'fresh'
    return html`<tr class="${r.stale ? 'stale' : ''}"><th scope="row">${r.region}</th><td>!${stateBadge(r.state)}!${r.flapping ? ' (flapping)' : ''}</td><td>!${r.lastCheckAt === null ? 'never' : html`<time datetime="${new Date(r.lastCheckAt).toISOString()}">${last}</time>`}</td><td>${r.lastResponseMs === null ? '–' : `${r.lastResponseMs} ms`}</td><td class="message">${r.lastMessage ?? ''}</td><td>${freshness}</td></tr>`
  })
  return html`<section class="card" aria-labelledby="regions-heading"><h2 id="regions-heading">Regions</h2>
<p class="region-rule">${regionRuleText(def.regions, def.regionsRequiredDown)} A region with no result for ${String(STALE_INTERVALS)} intervals (${duration(STALE_INTERVALS * def.intervalSeconds * 1000)}) is stale and counts as no data.</p>
<section class="scroll" tabindex="0" aria-label="State of each region"><table class="regions"><caption class="visually-hidden">State of each region</caption>
<thead><tr><th scope="col">Region</th><th scope="col">State</th><th scope="col">Last result</th><th scope="col">Response</th><th scope="col">Message</th><th scope="col">Freshness</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table></section></section>`
}

export const UPTIME_DAYS = 90

/** Daily up/degraded/down time from the state changes (oldest first); pending and paused count as nothing. */
export function dailyFromChanges(changes: ReadonlyArray<{ state: string; at: number }>, now: number, days = UPTIME_DAYS): DayUptime[] {
  const first = utcDayStart(now) - (days - 1) * DAY_MS
  const out: DayUptime[] = Array.from({ length: days }, (_, i) => ({ day: first + i * DAY_MS, upMs: 0, degradedMs: 0, downMs: 0, maintenanceMs: 0 }))
  for (let i = 0; i < changes.length; i++) {
    const { state, at } = changes[i]!
    const key = state === 'up' ? 'upMs' : state === 'degraded' ? 'degradedMs' : state === 'down' ? 'downMs' : null
    if (!key) continue
    let start = Math.max(at, first)
    const end = Math.min(changes[i + 1]?.at ?? now, now)
    while (start < end) {
      const index = Math.floor((start - first) / DAY_MS)
      const dayEnd = Math.min(first + (index + 1) * DAY_MS, end)
      out[index]![key] += dayEnd - start
      start = dayEnd
    }
  }
  return out
}

export function duration(ms: number | null): string {
  if (ms === null) return '–'
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2)
}

/**
 * One bar per shown result, oldest left, its height the response time (failed runs: a short red
 * bar); the summary is the picture's name and its caption.
 */
function responseGraph(results: ReadonlyArray<MonitorResultRow>): string {
  const shown = [...results].reverse()
  const ms = shown.filter((r) => r.response_ms !== null).map((r) => r.response_ms!)
  if (ms.length === 0) return html`<p class="muted">No response times yet.</p>`
  const max = Math.max(...ms, 1)
  const failed = shown.length - ms.length
  const summary = `Response time over the last ${counted(ms.length, 'check')}: min ${Math.min(...ms)} ms, median ${median(ms)} ms, max ${Math.max(...ms)} ms`
  const step = 300 / Math.max(shown.length, 10)
  const bars = shown
    .map((r, i) => {
      const height = r.response_ms === null ? 4 : Math.max(1, (r.response_ms / max) * 58)
      const kind = r.outcome === 'fail' ? 'fail' : r.outcome === 'degraded' ? 'slow' : 'ok'
      return `<rect class="${kind}" x="${(i * step).toFixed(1)}" y="${(60 - height).toFixed(1)}" width="${(step * 0.8).toFixed(1)}" height="${height.toFixed(1)}"></rect>`
    })
    .join('')
  const fails = failed ? ` ${failed} failed without a response (short red bars).` : ''
  return html`<figure class="rt-graph">
  <svg viewBox="0 0 300 60" preserveAspectRatio="none" role="img" aria-label="${summary}">!${bars}</svg>
  <figcaption>${summary}. Oldest left; top of the graph: ${String(max)} ms.${fails}</figcaption>
</figure>`
}

function uptimeBars(days: ReadonlyArray<DayUptime>): string {
  const pct = uptimePercent(days)
  const text = pct === null ? `No data over ${counted(days.length, 'day')}` : `${formatPercent(pct)} % over ${counted(days.length, 'day')}`
  const rects = days.map((day, i) => `<rect class="${dayLevel(day)}" x="${i * 3}" y="0" width="2" height="10"></rect>`).join('')
  return html`<p>${text}</p>
<svg class="uptime-bars" viewBox="0 0 ${String(days.length * 3 - 1)} 10" preserveAspectRatio="none" role="img" aria-label="Daily uptime, oldest first: ${text}">!${rects}</svg>`
}

function periodsTable(periods: ReadonlyArray<Availability>): string {
  const rows = periods.map(
    (a) => html`<tr><th scope="row">${a.period.replace('d', ' days')}</th><td>${a.uptimePercent === null ? 'no data' : `${formatPercent(a.uptimePercent)} %`}</td><td>${duration(a.downtimeMs)}</td><td>${String(a.incidents)}</td><td>${duration(a.mttrMs)}</td><td>${duration(a.mtbfMs)}</td></tr>`,
  )
  return html`<section class="scroll" tabindex="0" aria-label="Availability"><table><caption>Availability</caption>
<thead><tr><th scope="col">Period</th><th scope="col">Uptime</th><th scope="col">Downtime</th><th scope="col">Outages</th><th scope="col">MTTR</th><th scope="col">MTBF</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table></section>
<p class="hint">MTTR: mean time to recover from an outage. MTBF: mean time up between outages. Paused time does not count.</p>`
}

function downtimeLog(changes: ReadonlyArray<{ state: string; at: number }>, now: number): string {
  if (changes.length === 0) return html`<p class="muted">No state changes yet.</p>`
  const items = changes
    .map((c, i) => ({ ...c, until: changes[i + 1]?.at ?? null }))
    .reverse()
    .slice(0, 50)
    .map(
      (c) =>
        html`<li>!${stateBadge(c.state)} from <time datetime="${new Date(c.at).toISOString()}">${formatTime(c.at)}</time>, for ${c.until === null ? `${duration(now - c.at)} (now)` : duration(c.until - c.at)}</li>`,
    )
  return html`<ol class="mon-log">!${items.join('')}</ol>`
}

function resultsTable(d: MonitorDetail): string {
  if (d.results.length === 0) return html`<p class="muted">No results yet. Raw results are kept 24 hours.</p>`
  // With probes, each result says where it was taken.
  const regional = (d.regions ?? []).length > 0
  const rows = d.results.map(
    (r) => html`<tr><td><time datetime="${new Date(r.at).toISOString()}">${formatTime(r.at)}</time></td>!${regional ? html`<td>${r.region ?? 'local'}</td>` : ''}<td>${outcomeLabel(r.outcome)}</td><td>${r.response_ms === null ? '–' : `${r.response_ms} ms`}</td><td>${r.status_code === null ? '–' : String(r.status_code)}</td><td>${String(r.attempts)}</td><td class="message">${r.message}</td></tr>`,
  )
  const older = d.olderBefore === null ? '' : html`<p><a href="${monitorPath(d.monitor.id)}?before=${String(d.olderBefore)}#results-heading">Older results</a></p>`
  return html`<section class="scroll" tabindex="0" aria-label="Recent results, newest first"><table><caption class="visually-hidden">Recent results, newest first</caption>
<thead><tr><th scope="col">Time</th>!${regional ? '<th scope="col">Region</th>' : ''}<th scope="col">Result</th><th scope="col">Response</th><th scope="col">Status code</th><th scope="col">Attempts</th><th scope="col">Message</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table></section>!${older}`
}

export function monitorDetailView(d: MonitorDetail, pushNotice: string, typeSection = '', live?: LiveScreen): string {
  const m = d.monitor
  const def = m.definition
  const action = m.enabled ? 'pause' : 'resume'
  const tokenButton =
    def.type === 'push'
      ? html`<form method="post" action="${monitorPath(m.id)}/push-token" class="inline"><button type="submit" class="secondary">New push URL</button></form>`
      : ''
  // Parts marked data-live are replaced when a poll finds a change (monitors.js); the heading is read out when it changes.
  return html`<h1>${def.name}</h1>
!${pushNotice}
<section class="card" aria-labelledby="state-heading"!${liveAttributes(live)}>
  <h2 id="state-heading" data-live="state-heading" aria-live="polite">State: ${stateLabel(m.state)}</h2>
  <div data-live="state">
  <p>!${stateBadge(m.state)} since <time datetime="${new Date(m.stateSince).toISOString()}">${formatTime(m.stateSince)}</time> (${duration(d.now - m.stateSince)})!${m.flapping ? ' · flapping: changes are damped' : ''}</p>
  !${misconfiguredNote(m)}
  !${dependencyNote(m)}
  <dl class="mon-facts">
    <dt>Type</dt><dd>${MONITOR_TYPE_LABELS[def.type] ?? def.type}</dd>
    <dt>Target</dt><dd class="target">${def.target === null ? 'its push URL' : maskTargetPassword(def.target)}</dd>
    <dt>Interval</dt><dd>${String(def.intervalSeconds)} s</dd>
    <dt>Component</dt><dd>${d.componentLabel ?? 'none'}</dd>
    <dt>Depends on</dt><dd>!${m.parents.length === 0 ? 'nothing' : m.parents.map((p) => html`<a href="${monitorPath(p.id)}">${p.name}</a> (${stateLabel(p.state).toLowerCase()})`).join(', ')}</dd>
    <dt>Health score</dt><dd class="health">!${healthBreakdown(m)}</dd>
    <dt>Last check</dt><dd>${m.lastCheckAt === null ? 'not yet' : `${formatTime(m.lastCheckAt)}: ${outcomeLabel(m.lastOutcome ?? '')}${m.lastMessage && m.state !== 'misconfigured' ? ` (${m.lastMessage})` : ''}`}</dd>
  </dl>
  </div>
  <div class="actions">
    <a class="button secondary" href="${monitorPath(m.id)}/edit">Edit</a>
    <form method="post" action="${monitorPath(m.id)}/${action}" class="inline"><button type="submit" class="secondary">${m.enabled ? 'Pause' : 'Resume'}</button></form>
    !${tokenButton}
    <a class="button danger" href="${monitorPath(m.id)}/delete">Delete</a>
  </div>
  !${live ? html`<p class="hint">This screen follows new results and state changes as they come.</p>` : ''}
</section>
<div data-live="regions">!${regionsSection(d)}</div>
!${toolReportSection(def.type, d.toolReport ?? null)}
!${typeSection}
<section class="card" aria-labelledby="rt-heading"><h2 id="rt-heading">Response time</h2><div data-live="response-time">!${responseGraph(d.results)}</div></section>
<section class="card" aria-labelledby="uptime-heading"><h2 id="uptime-heading">Uptime</h2><div data-live="uptime">!${uptimeBars(dailyFromChanges(d.changes, d.now))}!${periodsTable(d.periods)}</div></section>
<section class="card" aria-labelledby="log-heading"><h2 id="log-heading">Downtime log</h2><div data-live="log">!${downtimeLog(d.changes, d.now)}</div></section>
<section class="card" aria-labelledby="results-heading"><h2 id="results-heading">Recent results</h2><div data-live="results">!${resultsTable(d)}</div></section>`
}
