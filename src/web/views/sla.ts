/**
 * The SLA screens' views: the report of a page (range form, downloads, policy, per-component
 * figures with a strip, incidents, excluded maintenance), the targets list, the monthly mail
 * setting, and the target form of one component.
 */
import { formatDate, formatDayRange } from '../../lib/human-time.ts'
import { html } from '../../lib/html.ts'
import { formatDuration, formatPpm, type SlaBucket, type SlaComponentReport } from '../../modules/sla/compute.ts'
import { dayString } from '../../modules/sla/period.ts'
import type { SlaReport } from '../../modules/sla/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { checkboxField, errorSummary, formError, selectField, textField, type FormState } from '../kit/forms.ts'
import type { Crumb } from '../kit/layout.ts'
import { pageCrumbs, sectionNav } from './pages.ts'

export const SLA_STYLES = '<link rel="stylesheet" href="/static/user/sla.css">'

export const slaCrumbs = (page: StatusPage, current?: string): Crumb[] =>
  current ? [...pageCrumbs(page, 'SLA').slice(0, -1), { label: 'SLA', href: `/user/pages/${page.id}/sla` }, { label: current }] : pageCrumbs(page, 'SLA')

const LEVEL_LABELS: Record<SlaBucket['level'], string> = {
  ok: 'up',
  minor: 'degraded or briefly down',
  major: '5 % or more down',
  maintenance: 'maintenance only',
  none: 'no data',
}

/** The strip as coloured bars with one text summary for screen readers (not 30 to 92 items read out). */
function strip(component: SlaComponentReport, bucketDays: number): string {
  const counts = new Map<string, number>()
  for (const bucket of component.strip) counts.set(bucket.level, (counts.get(bucket.level) ?? 0) + 1)
  const unit = bucketDays === 1 ? 'days' : `${bucketDays}-day bars`
  const summary = [...counts].map(([level, n]) => `${n} ${LEVEL_LABELS[level as SlaBucket['level']]}`).join(', ')
  const bars = component.strip.map((bucket) => {
    const pct = bucket.percent === null ? 'no data' : `${bucket.percent.toFixed(4)} %`
    return html`<span class="bar lvl-${bucket.level}" title="${formatDate(bucket.start)}: ${pct}"></span>`
  })
  return html`<div class="sla-strip" role="img" aria-label="${component.name}, ${unit}: ${summary}">!${bars.join('')}</div>`
}

const percentOf = (ppm: number | null) => (ppm === null ? 'no data' : `${formatPpm(ppm)} %`)

function componentRow(page: StatusPage, c: SlaComponentReport, bucketDays: number): string {
  const met = c.met === null ? '–' : c.met ? 'Met' : 'Missed'
  const used = c.budget ? (Number.isFinite(c.budget.usedPct) ? `${c.budget.usedPct.toFixed(2)} %` : 'over') : '–'
  const left = c.budget ? formatDuration(c.budget.leftMs) : '–'
  return html`<tr>
  <th scope="row">${c.name}</th>
  <td>${c.target ? `${formatPpm(c.target.targetPpm)} % / ${c.target.period}` : 'none'} <a href="/user/pages/${String(page.id)}/components/${String(c.id)}/sla">${c.target ? 'Edit target' : 'Set target'}<span class="visually-hidden"> of ${c.name}</span></a></td>
  <td>${percentOf(c.actualPpm)}</td>
  <td class="${c.met === false ? 'error' : ''}">${met}</td>
  <td>${formatDuration(c.downtimeMs)}</td>
  <td>${used}</td>
  <td>${left}</td>
  <td>${String(c.outages.count)}${c.outages.ignoredShort > 0 ? ` (+${c.outages.ignoredShort} short)` : ''}</td>
  <td>${formatDuration(c.outages.longestMs)}</td>
  <td>${String(c.incidents.count)}</td>
  <td>${c.incidents.mttrMs === null ? '–' : formatDuration(c.incidents.mttrMs)}</td>
  <td>${formatDuration(c.totals.maintenanceMs)}</td>
</tr>
<tr class="strip-row"><td colspan="12">!${strip(c, bucketDays)}</td></tr>`
}

export interface SlaPageOptions {
  range: FormState
  settings: FormState
  mailEnabled: boolean
}

export function slaPageView(page: StatusPage, report: SlaReport | undefined, options: SlaPageOptions): string {
  const query = report ? `?from=${dayString(report.from)}&to=${dayString(report.to - 86_400_000)}` : ''
  const api = `/user/api/v1/status-pages/${page.id}/sla`
  const rows = report ? report.components.map((c) => componentRow(page, c, report.bucketDays)).join('') : ''
  const figures = !report
    ? ''
    : report.components.length === 0
      ? html`<p>This page has no components yet. <a href="/user/pages/${String(page.id)}/components">Add components</a> to report on them.</p>`
      : html`<section class="scroll" tabindex="0" aria-label="Target versus actual per component"><table class="sla-table">
<caption class="visually-hidden">Target versus actual per component</caption>
<thead><tr><th scope="col">Component</th><th scope="col">Target</th><th scope="col">Actual</th><th scope="col">Result</th><th scope="col">Downtime</th><th scope="col">Budget used</th><th scope="col">Budget left</th><th scope="col">Outages</th><th scope="col">Longest</th><th scope="col">Incidents</th><th scope="col">MTTR</th><th scope="col">Maintenance</th></tr></thead>
<tbody>!${rows}</tbody></table></section>
<p class="hint">Strip: ${report.bucketDays === 1 ? 'one bar per day' : `one bar per ${report.bucketDays} days`}; green up, amber degraded or briefly down, red 5 % or more down, blue maintenance only, grey no data. Times are h:mm:ss.</p>`
  const incidents = report && report.incidents.length > 0
    ? html`<ul class="plain">!${report.incidents
        .map((i) => html`<li><strong>${i.title}</strong> <span class="muted">${formatDate(i.startedAt)}, ${i.resolvedAt === null ? 'unresolved' : `resolved in ${formatDuration(i.durationMs)}`}${i.components.length > 0 ? `; ${i.components.join(', ')}` : ''}</span></li>`)
        .join('')}</ul>`
    : html`<p class="muted">None in this range.</p>`
  const maintenance = report && report.maintenance.length > 0
    ? html`<ul class="plain">!${report.maintenance
        .map((m) => html`<li><strong>${m.title}</strong> <span class="muted">${formatDate(m.start)}, ${formatDuration(m.excludedMs)} in range; ${m.components.join(', ')}</span></li>`)
        .join('')}</ul>`
    : html`<p class="muted">None in this range.</p>`
  return html`!${sectionNav(page, 'SLA')}
<h1>SLA: ${page.name}</h1>
<section class="card" aria-labelledby="range-heading">
<h2 id="range-heading">Range</h2>
<form method="get" action="/user/pages/${String(page.id)}/sla" class="range-picker" novalidate>
!${errorSummary(options.range, { from: 'From', to: 'To' })}
<div class="custom">
!${textField({ name: 'from', label: 'From (UTC day)', type: 'date', state: options.range })}
!${textField({ name: 'to', label: 'To (UTC day, inclusive)', type: 'date', state: options.range })}
<button type="submit">Show report</button>
</div>
</form>
<p class="hint">Whole UTC days, at most 366. Empty: this calendar month.</p>
!${report ? html`<p class="downloads">Download: <a href="${api}.pdf${query}" download>PDF</a> · <a href="${api}.csv${query}" download>CSV (one row per component per day)</a> · <a href="${api}${query}">JSON</a></p>` : ''}
</section>
!${report ? html`<section class="card" aria-labelledby="figures-heading">
<h2 id="figures-heading">${formatDayRange(report.from, report.to - 86_400_000)}</h2>
!${figures}
<h3>Accounting policy</h3>
<ul>!${report.policies.map((p) => html`<li>${p}</li>`).join('')}</ul>
</section>
<section class="card" aria-labelledby="incidents-heading"><h2 id="incidents-heading">Incidents</h2>!${incidents}</section>
<section class="card" aria-labelledby="maintenance-heading"><h2 id="maintenance-heading">Excluded maintenance</h2>!${maintenance}</section>` : ''}
<section class="card" aria-labelledby="mail-heading">
<h2 id="mail-heading">Mails</h2>
!${options.mailEnabled ? '' : html`<p class="error">Mail is off on this instance (no SMTP server configured): breach and monthly mails are not sent.</p>`}
<p>Breach alerts go to your notification channels at 50, 80 and 100 % of a period's error budget, once each per period (per target: see "Edit target").</p>
<form method="post" action="/user/pages/${String(page.id)}/sla/settings">
!${formError(options.settings)}
!${checkboxField({ name: 'monthly_report', label: 'Mail me the previous month’s report as a PDF on the 1st of each month', state: options.settings })}
<button type="submit">Save</button>
</form>
</section>`
}

const PERIODS = [
  { value: 'month', label: 'Calendar month' },
  { value: 'quarter', label: 'Calendar quarter' },
  { value: 'year', label: 'Calendar year' },
]
const DEGRADED = [
  { value: 'up', label: 'As up (the service answered)' },
  { value: 'half', label: 'Half as down' },
  { value: 'down', label: 'As down' },
]

export const TARGET_LABELS: Record<string, string> = {
  target_percent: 'Target',
  period: 'Budget period',
  degraded_counts_as: 'Degraded time counts',
  exclude_maintenance: 'Exclude maintenance',
  min_outage_seconds: 'Shortest outage counted',
  breach_alerts: 'Breach alerts',
  public_budget: 'Show the error budget',
}

export function slaTargetView(page: StatusPage, component: { id: number; name: string }, hasTarget: boolean, form: FormState): string {
  const base = `/user/pages/${page.id}/components/${component.id}/sla`
  return html`<h1>SLA target: ${component.name}</h1>
<section class="card">
<form method="post" action="${base}" novalidate>
!${errorSummary(form, TARGET_LABELS)}
!${textField({ name: 'target_percent', label: 'Target (%)', hint: 'From 50 to 99.9999, e.g. 99.9 (43 min 12 s of downtime in 30 days).', state: form, required: true, placeholder: '99.9' })}
!${selectField({ name: 'period', label: 'Budget period', hint: 'The error budget the breach alerts measure.', options: PERIODS, state: form })}
!${selectField({ name: 'degraded_counts_as', label: 'Degraded time counts', options: DEGRADED, state: form })}
!${checkboxField({ name: 'exclude_maintenance', label: 'Exclude time inside maintenance windows', state: form })}
!${textField({ name: 'min_outage_seconds', label: 'Shortest outage counted (seconds)', hint: '0 counts every recorded outage; 60 ignores outages under a minute.', state: form, fallback: '0' })}
!${checkboxField({ name: 'breach_alerts', label: 'Alert at 50, 80 and 100 % of the budget', state: form })}
!${checkboxField({ name: 'public_budget', label: 'Show the error budget on the public page', hint: 'Visitors see what is left of this period\'s budget ("43 min of 43 min 12 s error budget left this month"); the status JSON carries it too.', state: form })}
<button type="submit">Save target</button>
</form>
</section>
!${hasTarget ? html`<section class="card danger"><h2>Remove</h2><form method="post" action="${base}/remove"><button type="submit" class="secondary">Remove the target of ${component.name}</button></form></section>` : ''}`
}
