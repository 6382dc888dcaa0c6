/** The analytics dashboard (owner and shared) and the access-revoked page, as server-rendered HTML. */
import { html, jsonScriptText } from '../../lib/html.ts'
import { duration, ms, num, pct, rangeLabel, summaryFigures } from '../../assets/analytics/format.js'
import type { Owner } from '../../modules/accounts/service.ts'
import type { AnalyticsReport } from '../../modules/analytics/report.ts'
import { layout } from '../views.ts'
import { pageCrumbs, sectionNav } from '../views/pages.ts'
import { PRESETS } from '../../modules/analytics/range.ts'

export interface DashboardOptions {
  page: { id: number; name: string }
  range: string
  from?: string
  to?: string
  /** Owner view: the token manager. Shared view: the token the API calls carry. */
  mode: { kind: 'owner'; user: Owner } | { kind: 'shared'; token: string; rangePicker: boolean }
  /**
   * The report of that range, when the server could make it: its figures and components are in the
   * HTML (shown before any script runs) and its data in a JSON element, so the charts are drawn
   * without a request of their own. Without it the script fetches the report, as for a new range.
   */
  report?: AnalyticsReport
}

const HEAD = '<link rel="stylesheet" href="/static/analytics/uplot.css"><link rel="stylesheet" href="/static/analytics/charts.css">'
/**
 * The chart scripts (uPlot, the dashboard and the modules it imports), asked for from the head, at
 * once, rather than when the parser reaches the end of the body and then one import after another.
 */
const SCRIPT_PRELOADS =
  '<link rel="preload" as="script" href="/static/analytics/uplot.js"><link rel="modulepreload" href="/static/analytics/dashboard.js">' +
  '<link rel="modulepreload" href="/static/analytics/format.js"><link rel="modulepreload" href="/static/analytics/scales.js"><link rel="modulepreload" href="/static/analytics/human-time.js">'
const SCRIPTS = ['/static/analytics/uplot.js']
const MODULES = ['/static/analytics/dashboard.js']

function rangePicker(options: DashboardOptions): string {
  const buttons = Object.keys(PRESETS).map(
    (key) =>
      html`<button type="button" class="range" data-range="${key}" aria-pressed="${String(options.range === key)}">${key.replace('d', ' days')}</button>`,
  )
  return html`<form id="range-form" class="range-picker" aria-label="Date range">
  !${buttons}
  <span class="custom">
    <label>From <input type="date" name="from" value="${options.from ?? ''}"></label>
    <label>To <input type="date" name="to" value="${options.to ?? ''}"></label>
    <button type="submit" data-range="custom">Apply</button>
  </span>
</form>`
}

const tokenManager = html`<section class="card" id="tokens">
  <h2>Share links</h2>
  <p>Anyone with a share link can read this dashboard (not change anything) until it expires or you revoke it.</p>
  <form id="token-form" class="token-form">
    <label>Label <input type="text" name="label" maxlength="100" value="Shared link"></label>
    <label>Expires <input type="datetime-local" name="expires_at"></label>
    <label class="check"><input type="checkbox" name="read_only" checked> Read-only (no range picker)</label>
    <button type="submit">Create link</button>
  </form>
  <div id="token-secret" class="notice" hidden>
    <p>Copy this link now, it is shown only once:</p>
    <input type="text" id="token-url" readonly>
  </div>
  <p id="token-error" class="error" role="alert" hidden></p>
  <section class="scroll" tabindex="0" aria-label="Share links"><table id="token-list"><thead><tr><th>Label</th><th>State</th><th>Created</th><th>Expires</th><th>Read-only</th><th>Opened</th><th>Last used</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody></tbody></table></section>
</section>`

/** The report the dashboard loads first, asked for by the page itself while the scripts load. */
function firstReportUrl(options: DashboardOptions, api: string): string {
  const params = new URLSearchParams()
  if (options.range === 'custom') {
    params.set('from', options.from ?? '')
    params.set('to', options.to ?? '')
  } else params.set('range', options.range)
  if (options.mode.kind === 'shared') params.set('token', options.mode.token)
  return `${api}?${params.toString()}`
}

// The figures and rows below are the ones dashboard.js writes for a new range (renderSummary,
// renderComponents), in the same markup, with the same formatters (format.js).
const metric = (label: string, value: string) => html`<div class="metric"><div class="value">${value}</div><div class="label">${label}</div></div>`

function summaryHtml(r: AnalyticsReport): string {
  return summaryFigures(r)
    .map(([label, value]) => metric(label, value))
    .join('')
}

function componentRows(r: AnalyticsReport): string {
  if (r.components.length === 0) return '<tr><td colspan="9">This page has no components yet.</td></tr>'
  return r.components
    .map((c) => {
      const cells = [
        c.group ? `${c.group} / ${c.name}` : c.name,
        pct(c.uptime_percent),
        `${duration(c.up_s)} (${pct(c.up_percent)})`,
        `${duration(c.degraded_s)} (${pct(c.degraded_percent)})`,
        `${duration(c.down_s)} (${pct(c.down_percent)})`,
        num(c.incidents),
        duration(c.mttr_s),
        duration(c.mtbf_s),
        `${ms(c.avg_response_ms)} / ${ms(c.p95_response_ms)}`,
      ]
      return html`<tr>!${cells.map((cell) => html`<td>${cell}</td>`).join('')}</tr>`
    })
    .join('')
}

export function dashboardPage(options: DashboardOptions): string {
  const shared = options.mode.kind === 'shared'
  const api = `/api/analytics/status-pages/${options.page.id}`
  const report = firstReportUrl(options, api)
  const first = options.report
  // Without the report in the page, the script's first request starts with the page's.
  // crossorigin="anonymous": credentials "same-origin", as the script's fetch asks, so it takes this answer.
  const head = HEAD + SCRIPT_PRELOADS + (first ? '' : html`<link rel="preload" as="fetch" href="${report}" crossorigin="anonymous">`)
  const body = html`<div id="dashboard" data-api="${api}" data-report="${report}" data-page-id="${String(options.page.id)}" data-range="${options.range}"
  data-from="${options.from ?? ''}" data-to="${options.to ?? ''}" data-token="${shared && options.mode.kind === 'shared' ? options.mode.token : ''}"
  data-mode="${options.mode.kind}">
<h1>Analytics: ${options.page.name}</h1>
!${options.mode.kind === 'owner' ? sectionNav(options.page, 'Analytics') : ''}
<section class="card" aria-label="Summary">
  !${shared ? '<p class="muted">Shared read-only view.</p>' : ''}
  !${options.mode.kind === 'owner' || (options.mode.kind === 'shared' && options.mode.rangePicker) ? rangePicker(options) : ''}
  <p id="range-label" class="muted" aria-live="polite">${first ? rangeLabel(first.range) : 'Loading…'}</p>
  <p id="load-error" class="error" role="alert" hidden></p>
  <div id="summary" class="summary">!${first ? summaryHtml(first) : ''}</div>
</section>
<section class="card charts">
  <h2>Uptime per day</h2><div id="chart-uptime" class="chart"></div>
  <h2>Views per day</h2><div id="chart-views" class="chart"></div>
  <h2>Response time per day</h2><div id="chart-response" class="chart"></div>
</section>
<section class="card">
  <h2>Components</h2>
  <section class="scroll" tabindex="0" aria-label="Components"><table id="components"><thead><tr><th>Component</th><th>Uptime</th><th>Up</th><th>Degraded</th><th>Down</th><th>Outage periods</th><th>MTTR</th><th>MTBF</th><th>Avg / p95 response</th></tr></thead><tbody>!${first ? componentRows(first) : ''}</tbody></table></section>
</section>
!${options.mode.kind === 'owner' ? tokenManager : ''}
!${first ? html`<script type="application/json" id="first-report">!${jsonScriptText(first)}</script>` : ''}
</div>`
  return layout(
    {
      title: `Analytics: ${options.page.name}`,
      user: options.mode.kind === 'owner' ? options.mode.user : undefined,
      // The owner's dashboard is one of the page's screens: its breadcrumbs and sub-navigation.
      crumbs: options.mode.kind === 'owner' ? pageCrumbs(options.page, 'Analytics') : undefined,
      path: options.mode.kind === 'owner' ? `/user/analytics/${options.page.id}` : undefined,
      head,
      scripts: SCRIPTS,
      modules: MODULES,
      noindex: shared,
      noReferrer: true,
    },
    body,
  )
}

export function accessRevokedPage(): string {
  return layout(
    { title: 'Access revoked', noindex: true, noReferrer: true },
    html`<section class="card narrow" id="access-revoked">
  <h1>Access revoked</h1>
  <p>This analytics link was revoked or has expired. Ask the owner of the status page for a new link.</p>
</section>`,
  )
}

export function noPagesPage(user: Owner): string {
  return layout(
    { title: 'Analytics', user },
    html`<section class="card narrow">
  <h1>Analytics</h1>
  <p>You have no active status page yet. Create one with the management API (<code>POST /user/api/v1/status-pages</code> with <code>{"slug": "acme", "name": "Acme"}</code>, see <a href="/swagger">the API docs</a>); its analytics appear here.</p>
</section>`,
  )
}
