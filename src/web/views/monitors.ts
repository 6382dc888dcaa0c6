/**
 * The monitors screens (pure): the list with state in words, last check and pause/resume; the
 * type chooser and the create/edit form (common fields plus the type's options, errors next to the
 * field); the push URL shown once; the delete confirmation. The detail is in monitors-detail.ts.
 */
import { formatDateTime } from '../../lib/human-time.ts'
import { escapeHtml, html } from '../../lib/html.ts'
import { wrappable } from '../kit/text.ts'
import type { Monitor } from '../../modules/monitors/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { checkboxField, errorSummary, fieldErrorText, selectField, textArea, textField, type FormState } from '../kit/forms.ts'
import type { Crumb } from '../kit/layout.ts'
import { sectionNav } from './pages.ts'
import { maskTargetPassword, PROBE_TYPES } from '../../modules/monitors/kinds/index.ts'
import { DEFAULT_CRON_TIMEZONE, nextCronRuns, parseCron } from '../../modules/monitors/run/index.ts'
import type { StoredMonitorType } from '../../modules/monitors/tables.ts'

export const MONITOR_TYPE_LABELS: Record<string, string> = {
  http: 'HTTP(S)',
  keyword: 'Keyword',
  json: 'JSON conditions',
  tcp: 'TCP port',
  dns: 'DNS',
  tls: 'TLS certificate',
  push: 'Push (heartbeat)',
  ssl: 'SSL certificate health',
  dnsbl: 'DNS blocklists (DNSBL)',
  email_auth: 'Email authentication',
  domain_expiry: 'Domain expiry (RDAP)',
  ping: 'Ping (ICMP)',
  redis: 'Redis',
  postgres: 'PostgreSQL',
  websocket: 'WebSocket',
  smtp: 'SMTP server',
}
const TYPE_HINTS: Record<string, string> = {
  http: 'A URL answers with an accepted status code.',
  keyword: 'A URL answers, and its body holds (or lacks) a word.',
  json: 'A URL answers JSON that meets your conditions.',
  tcp: 'A host accepts connections on a port.',
  dns: 'A name resolves, optionally to the answer you expect.',
  tls: 'A TLS handshake succeeds and the certificate has days left.',
  push: 'Your job calls a secret URL; silence means down.',
  ssl: 'Validity, names, trust, key and protocol of a certificate, with mail at 30, 15 and 5 days left (HTTPS or SMTP STARTTLS).',
  dnsbl: 'An IP, or a domain’s mail servers, on spam blocklists; mail when listed and delisted.',
  email_auth: 'A domain’s SPF, DKIM and DMARC records stay valid; a change is announced.',
  domain_expiry: 'A domain’s registration expiry, read from its registry over RDAP; degraded at 30, 14 and 7 days left, down once expired.',
  ping: 'A host answers ICMP echo requests; round trip and loss over a few of them.',
  redis: 'Redis answers PING, and a key exists or holds the value you expect.',
  postgres: 'A PostgreSQL login succeeds, and a read-only query returns what you expect.',
  websocket: 'A WebSocket upgrade succeeds, and a message gets the reply you expect.',
  smtp: 'A mail server greets, accepts EHLO and, if you ask, STARTTLS with a trusted certificate.',
}

const STATE_LABELS: Record<string, string> = { up: 'Up', degraded: 'Degraded', down: 'Down', pending: 'Pending', paused: 'Paused', misconfigured: 'Misconfigured', unreachable: 'Unreachable' }
export const stateLabel = (state: string) => STATE_LABELS[state] ?? state
const OUTCOME_LABELS: Record<string, string> = { ok: 'passed', degraded: 'slow', fail: 'failed', misconfigured: 'misconfigured' }
export const outcomeLabel = (outcome: string) => OUTCOME_LABELS[outcome] ?? outcome

/** The state in words, with a class for its colour (never the colour alone). */
export const stateBadge = (state: string) => html`<span class="mon-state ${state}">${stateLabel(state)}</span>`

/** A misconfigured run's message split into its reason and its fix (the engine writes "reason. Fix: fix."). */
export function reasonAndFix(message: string): { reason: string; fix: string | null } {
  const at = message.indexOf('. Fix: ')
  return at < 0 ? { reason: message, fix: null } : { reason: `${message.slice(0, at)}.`, fix: message.slice(at + 7) }
}

/** Why a misconfigured monitor's runs are refused and what to do, in words (empty for other states). */
export function misconfiguredNote(m: Monitor, id?: string): string {
  if (m.state !== 'misconfigured') return ''
  const { reason, fix } = reasonAndFix(m.stateReason ?? 'its runs are refused by the configuration.')
  const history =
    m.componentId !== null && m.pageId !== null
      ? html`<p>Did it show a false outage before? <a href="/user/pages/${String(m.pageId)}/components/${String(m.componentId)}/history">Correct the component's history</a>.</p>`
      : ''
  return html`<div class="mon-misconfigured"!${id ? html` id="${id}"` : ''}><p><strong>Not checked: this instance refuses its runs.</strong> It changes no component, opens no incident and counts in no uptime until it is fixed.</p>
<p>Reason: !${settingsAsCode(reason)}</p>!${fix ? html`<p>Fix: !${settingsAsCode(fix)}</p>` : ''}!${history}</div>`
}

/**
 * Why an unreachable monitor says nothing (its parents that are down, linked), or which parents a
 * failing monitor waits for before it is down; empty otherwise.
 */
export function dependencyNote(m: Monitor, id?: string): string {
  const links = (parents: ReadonlyArray<{ id: number; name: string }>) => parents.map((p) => html`<a href="${monitorPath(p.id)}">${p.name}</a>`).join(', ')
  const idAttribute = id ? html` id="${id}"` : ''
  if (m.state === 'unreachable') {
    const down = m.parents.filter((p) => p.state === 'down' || p.state === 'unreachable')
    const why = down.length > 0 ? html`because !${links(down)} ${down.length === 1 ? 'is' : 'are'} down` : html`: ${m.stateReason ?? 'its parents were down'}`
    return html`<p class="mon-dependency"!${idAttribute}><strong>Unreachable</strong> !${why}. It sends no alert, opens no incident and leaves its component as it is; its runs go on.</p>`
  }
  if (m.waitingFor.length > 0) {
    return html`<p class="mon-dependency"!${idAttribute}>Its last check failed; it waits for !${links(m.waitingFor)} (failing too, or not checked since) before it is down, so one outage alerts once.</p>`
  }
  return ''
}

/** Escaped text whose setting names (`MONITOR_PRIVATE_TARGETS=1`) read as code: one unit, never cut in two on a narrow screen. */
const settingsAsCode = (text: string): string => escapeHtml(text).replace(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?:=[A-Za-z0-9]+)?/g, (name) => `<code>${name}</code>`)

/** The type's own fields (option names of the API); the rest of the form is common to all types. */
export const TYPE_FIELDS: Record<string, readonly string[]> = {
  http: ['method', 'headers', 'body', 'accepted_status', 'follow_redirects'],
  keyword: ['method', 'headers', 'body', 'accepted_status', 'follow_redirects', 'keyword', 'keyword_present', 'keyword_case_sensitive'],
  json: ['method', 'headers', 'body', 'accepted_status', 'follow_redirects', 'conditions'],
  tcp: ['port'],
  dns: ['record_type', 'expected', 'resolver'],
  tls: ['port', 'tls_degraded_below_days', 'tls_fail_below_days'],
  push: ['cron', 'cron_timezone', 'push_grace_seconds'],
  ssl: ['port', 'starttls', 'tls_degraded_below_days', 'tls_fail_below_days'],
  dnsbl: ['zones'],
  email_auth: ['dkim_selectors', 'resolver'],
  domain_expiry: [],
  ping: ['ping_count'],
  redis: ['redis_key', 'expected_value'],
  postgres: ['query', 'expected_value'],
  websocket: ['ws_message', 'expected_value'],
  smtp: ['port', 'starttls'],
}
export const COMMON_FIELDS = ['name', 'target', 'interval_seconds', 'timeout_ms', 'retries', 'retry_interval_seconds', 'confirm_failures', 'confirm_successes', 'degraded_after_ms', 'component_id']

export const LABELS: Record<string, string> = {
  name: 'Name', type: 'Type', target: 'Target', interval_seconds: 'Interval (seconds)', timeout_ms: 'Timeout (ms)', retries: 'Retries inside a run',
  retry_interval_seconds: 'Seconds between retries', confirm_failures: 'Failing runs before down', confirm_successes: 'Passing runs before up',
  degraded_after_ms: 'Degraded when slower than (ms)', component_id: 'Component', method: 'Method', headers: 'Headers', body: 'Request body',
  accepted_status: 'Accepted status codes', follow_redirects: 'Follow redirects', keyword: 'Keyword', keyword_present: 'The keyword must be present (unticked: absent)',
  keyword_case_sensitive: 'Case-sensitive', conditions: 'Conditions', port: 'Port', record_type: 'Record type', expected: 'Expected answers',
  resolver: 'Resolver', tls_degraded_below_days: 'Degraded below (days left)', tls_fail_below_days: 'Down below (days left)', push_grace_seconds: 'Grace (seconds)',
  starttls: 'SMTP STARTTLS first', zones: 'Zones', regions: 'Regions', regions_required_down: 'Regions that must fail before down',
  dkim_selectors: 'DKIM selectors', redis_key: 'Key', query: 'Query', ws_message: 'Message to send', expected_value: 'Expected value',
  ping_count: 'Echo requests per run',
  cron: 'Cron schedule', cron_timezone: 'Time zone of the schedule', parents: 'Depends on',
}

const TARGET_HINTS: Record<string, string> = {
  http: 'A URL, e.g. https://example.com/health', keyword: 'A URL, e.g. https://example.com/', json: 'A URL, e.g. https://example.com/api/health',
  tcp: 'host:port, e.g. db.example.com:5432', dns: 'A name, e.g. example.com', tls: 'host or host:port, e.g. example.com',
  ssl: 'host or host:port, e.g. example.com or mail.example.com:587', dnsbl: 'An IP address, or a domain whose MX and A addresses are checked',
  email_auth: 'A mail domain, e.g. example.com',
  domain_expiry: 'A registered domain, e.g. example.com or example.co.uk',
  ping: 'A host name or IP address (no port), e.g. router.example.com',
  redis: 'host[:port], or redis://:password@host:6379/0 (rediss:// for TLS)', postgres: 'postgres://user:password@host:5432/database, add ?sslmode=require for TLS',
  websocket: 'A ws:// or wss:// URL, e.g. wss://example.com/socket', smtp: 'host[:port], e.g. mail.example.com:587 (default port 25)',
}

export const monitorsPath = '/user/monitors'
export const monitorPath = (id: number) => `${monitorsPath}/${id}`
export const monitorsCrumbs = (...more: Crumb[]): Crumb[] => (more.length ? [{ label: 'Monitors', href: monitorsPath }, ...more] : [{ label: 'Monitors' }])

export function formatTime(ms: number | null): string {
  return ms === null ? 'never' : formatDateTime(ms)
}

function lastCheck(m: Monitor): string {
  if (m.lastCheckAt === null) return html`<span class="muted">Not checked yet</span>`
  const ms = m.lastResponseMs === null ? '' : `, ${m.lastResponseMs} ms`
  return html`<time datetime="${new Date(m.lastCheckAt).toISOString()}">${formatTime(m.lastCheckAt)}</time>: ${outcomeLabel(m.lastOutcome ?? '')}${ms}`
}

/** The health score alone (the list's column; its parts are on the monitor's page); null: paused or nothing measured in 24 h. */
export function healthText(m: Monitor): string {
  const h = m.health
  if (!h) return m.enabled ? 'not scored yet' : 'not scored while paused'
  return `${h.score} / 100`
}

/** "the last hour", "the last 12 hours". */
export function windowWords(ms: number): string {
  const hours = Math.round(ms / 3_600_000)
  return hours === 1 ? 'the last hour' : `the last ${hours} hours`
}

/** The health score with each part, its window and its figures (the monitor's page). */
export function healthBreakdown(m: Monitor): string {
  const h = m.health
  if (!h) return html`${healthText(m)}`
  const recent = windowWords(h.recentMs)
  const latency =
    h.p95RecentMs !== null
      ? `p95 ${h.p95RecentMs} ms over ${recent} against ${h.p95BaselineMs ?? h.p95RecentMs} ms over 24 hours`
      : h.answeredRecent > 0
        ? `answers without a response time over ${recent}`
        : `no answer over ${recent}`
  const passed = (total: number, failed: number) => `${total - failed} of ${total} result${total === 1 ? '' : 's'} did not fail`
  const errors = h.resultsRecent === 0 ? `no result over ${recent}` : `${passed(h.resultsRecent, h.failedRecent)} over ${recent}`
  return html`<strong>${healthText(m)}</strong>
<ul class="health-parts">
  <li>Uptime ${String(h.uptime)} of 60: ${passed(h.results24h, h.failed24h)} over the last 24 hours</li>
  <li>Latency ${String(h.latency)} of 20: ${latency}</li>
  <li>Errors ${String(h.errors)} of 20: ${errors}</li>
</ul>
<p class="hint">Scored again after each new result${m.healthAt === null ? '' : `; last at ${formatTime(m.healthAt)}`}. Runs refused by the configuration count nowhere.</p>`
}

function pauseButton(m: Monitor): string {
  const action = m.enabled ? 'pause' : 'resume'
  return html`<form method="post" action="${monitorPath(m.id)}/${action}" class="inline"><button type="submit" class="secondary">${m.enabled ? 'Pause' : 'Resume'}<span class="visually-hidden"> ${m.definition.name}</span></button></form>`
}

export function monitorsTable(monitors: ReadonlyArray<Monitor>, caption: string): string {
  if (monitors.length === 0) return html`<p>No monitors yet.</p>`
  const rows = monitors.map(
    (m) => html`<tr id="m-${String(m.id)}">
  <td data-label="Name"><a href="${monitorPath(m.id)}">${m.definition.name}</a></td>
  <td data-label="Type">${MONITOR_TYPE_LABELS[m.definition.type] ?? m.definition.type}</td>
  <td data-label="Target" class="target">!${m.definition.target == null ? 'push URL' : wrappable(maskTargetPassword(m.definition.target))}</td>
  <td data-label="State">!${stateBadge(m.state)}!${m.flapping ? html` <span class="muted">(flapping)</span>` : ''}!${m.state === 'unreachable' && m.stateReason ? html` <span class="muted mon-why">${m.stateReason}</span>` : ''}</td>
  <td data-label="Last check">!${lastCheck(m)}</td>
  <td data-label="Health" class="health">${healthText(m)}</td>
  <td data-label="Actions">!${pauseButton(m)}</td>
</tr>!${m.state === 'misconfigured' ? html`<tr class="mon-reason-row"><td colspan="7" data-label="Misconfigured">!${misconfiguredNote(m, `m-${m.id}-why`)}</td></tr>` : ''}`,
  )
  return html`<div class="monitors-wrap"><table class="monitors"><caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Target</th><th scope="col">State</th><th scope="col">Last check</th><th scope="col">Health</th><th scope="col">Actions</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table></div>`
}

/** Where a live screen polls (monitors.js) and the tag of what it shows now (its ETag). */
export interface LiveScreen {
  url: string
  etag: string
}

/** The attributes that make a screen follow changes without a reload (monitors.js polls `url` with the ETag). */
export const liveAttributes = (live: LiveScreen | undefined): string => (live ? html` data-live-url="${live.url}" data-live-etag="${live.etag}"` : '')

/** The list's table as the live list replaces it (`data-live="list"`). */
export const liveMonitorsList = (monitors: ReadonlyArray<Monitor>): string => html`<div data-live="list">!${monitorsTable(monitors, 'Your monitors')}</div>`

export function monitorsListView(monitors: ReadonlyArray<Monitor>, live?: LiveScreen): string {
  return html`<h1>Monitors</h1>
<section class="card" aria-labelledby="list-heading"!${liveAttributes(live)}>
  <h2 id="list-heading" class="visually-hidden">Your monitors</h2>
  <p><a class="button" href="${monitorsPath}/new">Add monitor</a> <a href="/user/import">Move in from Uptime Kuma or Gatus</a></p>
  !${liveMonitorsList(monitors)}
  !${live ? html`<p class="hint">This list follows new results and state changes as they come.</p>` : ''}
</section>`
}

/** The page's section: the monitors placed on this page. */
export function pageMonitorsView(page: StatusPage, monitors: ReadonlyArray<Monitor>): string {
  return html`<h1>Monitors of ${page.name}</h1>
!${sectionNav(page, 'Monitors')}
<section class="card" aria-labelledby="list-heading">
  <h2 id="list-heading" class="visually-hidden">Monitors on this page</h2>
  <p>Monitors placed on a component of this page set its status. <a href="${monitorsPath}/new">Add monitor</a></p>
  !${monitorsTable(monitors, `Monitors of ${page.name}`)}
</section>`
}

export function chooseTypeView(): string {
  const items = Object.entries(MONITOR_TYPE_LABELS).map(
    ([type, label]) => html`<li><a href="${monitorsPath}/new?type=${type}">${label}</a>: ${TYPE_HINTS[type]!}</li>`,
  )
  return html`<h1>Add a monitor</h1>
<section class="card narrow" aria-labelledby="types-heading"><h2 id="types-heading">What should it check?</h2><ul class="mon-types">!${items.join('')}</ul></section>`
}

export interface ComponentChoice {
  value: string
  label: string
}

/** Another monitor of the owner the monitor may depend on. */
export interface ParentChoice {
  id: number
  name: string
  type: string
}

/** "Depends on": the owner's other monitors as checkboxes (a hidden field says the set was shown, so none ticked is none). */
function parentsField(form: FormState, choices: ReadonlyArray<ParentChoice>): string {
  const error = fieldErrorText(form, 'parents', LABELS.parents)
  if (choices.length === 0 && !error) return html`<input type="hidden" name="parents_shown" value="1"><p class="hint">Depends on: no other monitor yet. A monitor can depend on others (a router, a database): while one is down it is unreachable and says nothing.</p>`
  const ticked = new Set((form.values.parents ?? '').split(',').filter(Boolean))
  const rows = choices.map(
    (c) => html`<li><input type="checkbox" id="f-parent-${String(c.id)}" name="parents" value="${String(c.id)}"!${ticked.has(String(c.id)) ? ' checked' : ''}> <label for="f-parent-${String(c.id)}">${c.name} <span class="muted">(${MONITOR_TYPE_LABELS[c.type] ?? c.type})</span></label></li>`,
  )
  return html`<fieldset class="field mon-parents!${error ? ' has-error' : ''}" id="f-parents"!${error ? ' aria-describedby="f-parents-error"' : ''}>
  <legend>${LABELS.parents!}</legend>
  <input type="hidden" name="parents_shown" value="1">
  <p class="hint">While one of these is down (the router in front of it, the database behind it), this monitor is unreachable: no alert, no incident, its component left as it is. One outage of a parent is one alert.</p>
  <ul class="plain">!${rows.join('')}</ul>
  !${error ? html`<p class="field-error" id="f-parents-error">${error}</p>` : ''}
</fieldset>`
}

const EXPECTED_VALUE_HINTS: Record<string, string> = {
  redis: 'Empty: any value. The key’s exact value.',
  postgres: 'Empty: any answer. The first column of the first row, as text, e.g. 42 or true.',
  websocket: 'Empty: any reply. Text the first reply must contain.',
}

function typeFields(type: string, form: FormState, now: number): string {
  const f = TYPE_FIELDS[type] ?? []
  const has = (name: string) => f.includes(name)
  const parts: string[] = []
  if (has('method')) parts.push(selectField({ name: 'method', label: LABELS.method!, options: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((v) => ({ value: v, label: v })), state: form, fallback: 'GET' }))
  if (has('accepted_status')) parts.push(textField({ name: 'accepted_status', label: LABELS.accepted_status!, hint: 'Codes and ranges, e.g. 200-299,301. Empty: 200-299.', state: form }))
  if (has('follow_redirects')) parts.push(checkboxField({ name: 'follow_redirects', label: LABELS.follow_redirects!, hint: 'At most 5 hops; each hop is checked like the target.', state: form }))
  if (has('headers')) parts.push(textArea({ name: 'headers', label: LABELS.headers!, hint: 'One per line: Name: value', rows: 3, state: form }))
  if (has('body')) parts.push(textArea({ name: 'body', label: LABELS.body!, rows: 3, state: form }))
  if (has('keyword')) {
    parts.push(textField({ name: 'keyword', label: LABELS.keyword!, hint: 'Looked for in the first part of the body.', required: true, state: form }))
    parts.push(checkboxField({ name: 'keyword_present', label: LABELS.keyword_present!, state: form }))
    parts.push(checkboxField({ name: 'keyword_case_sensitive', label: LABELS.keyword_case_sensitive!, state: form }))
  }
  if (has('conditions')) parts.push(textArea({ name: 'conditions', label: LABELS.conditions!, hint: 'One per line, all must hold, e.g. [STATUS] == 200, [BODY].status == "ok", [RESPONSE_TIME] < 500, len([BODY].items) > 0.', rows: 4, state: form }))
  if (has('port')) parts.push(textField({ name: 'port', label: LABELS.port!, type: 'number', hint: type === 'tls' ? 'Empty: from the target, else 443.' : type === 'smtp' ? 'Empty: from the target, else 25.' : 'Empty: from the target (host:port).', state: form }))
  if (has('record_type')) parts.push(selectField({ name: 'record_type', label: LABELS.record_type!, options: ['A', 'AAAA', 'CNAME', 'MX', 'TXT'].map((v) => ({ value: v, label: v })), state: form, fallback: 'A' }))
  if (has('expected')) parts.push(textArea({ name: 'expected', label: LABELS.expected!, hint: 'One per line; empty: any answer will do.', rows: 3, state: form }))
  if (has('dkim_selectors')) parts.push(textArea({ name: 'dkim_selectors', label: LABELS.dkim_selectors!, hint: 'One per line, e.g. google. Empty: only whether any DKIM keys exist.', rows: 2, state: form }))
  if (has('resolver')) parts.push(textField({ name: 'resolver', label: LABELS.resolver!, hint: 'An IP address with an optional port; empty: the system resolver.', state: form }))
  if (has('tls_degraded_below_days')) parts.push(textField({ name: 'tls_degraded_below_days', label: LABELS.tls_degraded_below_days!, type: 'number', state: form }))
  if (has('tls_fail_below_days')) parts.push(textField({ name: 'tls_fail_below_days', label: LABELS.tls_fail_below_days!, type: 'number', state: form }))
  if (has('starttls')) parts.push(checkboxField({ name: 'starttls', label: LABELS.starttls!, hint: type === 'smtp' ? 'The server must offer STARTTLS and finish a handshake with a trusted certificate naming the host.' : 'EHLO and STARTTLS before the handshake, for a mail port other than 25 and 587 (those always use it).', state: form }))
  if (has('zones')) parts.push(textArea({ name: 'zones', label: LABELS.zones!, hint: 'One zone a line; empty: the default list of free zones (see the monitors guide). Spamhaus, Barracuda and Abusix only when you name them.', rows: 4, state: form }))
  if (has('redis_key')) parts.push(textField({ name: 'redis_key', label: LABELS.redis_key!, hint: 'Empty: PING only. A key read with GET; it must exist.', autocomplete: 'off', state: form }))
  if (has('query')) parts.push(textArea({ name: 'query', label: LABELS.query!, hint: 'Empty: the login only. One statement, run in a read-only transaction and rolled back, e.g. SELECT count(*) FROM jobs WHERE failed.', rows: 2, state: form }))
  if (has('ws_message')) parts.push(textField({ name: 'ws_message', label: LABELS.ws_message!, hint: 'Empty: the upgrade only. Sent as text; the first reply is awaited.', autocomplete: 'off', state: form }))
  if (has('expected_value')) parts.push(textField({ name: 'expected_value', label: LABELS.expected_value!, hint: EXPECTED_VALUE_HINTS[type], autocomplete: 'off', state: form }))
  if (has('ping_count')) parts.push(textField({ name: 'ping_count', label: LABELS.ping_count!, type: 'number', hint: 'Empty: 3 (at most 10). Some lost: degraded; all lost: down.', state: form }))
  if (has('cron')) {
    parts.push(textField({ name: 'cron', label: LABELS.cron!, hint: 'Optional: when the job runs, as crontab writes it (minute hour day month weekday), e.g. 0 3 * * *. Late when no push by each run plus the grace. Empty: the interval instead.', autocomplete: 'off', maxLength: 100, state: form }))
    parts.push(textField({ name: 'cron_timezone', label: LABELS.cron_timezone!, hint: 'An IANA name, e.g. Europe/Berlin. Empty: UTC.', autocomplete: 'off', maxLength: 64, state: form }))
    parts.push(cronPreview(form.values.cron ?? '', form.values.cron_timezone ?? '', now))
  }
  if (has('push_grace_seconds')) parts.push(textField({ name: 'push_grace_seconds', label: LABELS.push_grace_seconds!, type: 'number', hint: 'Down when no push came within the interval (or after a scheduled run) plus this; also the longest a run begun with /start may take.', state: form }))
  return parts.join('')
}

/** What a cron schedule means, for the form: its next runs in its zone and in UTC, or why it is refused. */
export function cronPreviewLines(cron: string, timezone: string, now: number): { ok: boolean; lines: string[] } {
  if (!cron.trim()) return { ok: true, lines: ['No schedule: the interval is used.'] }
  const zone = timezone.trim() || DEFAULT_CRON_TIMEZONE
  const parsed = parseCron(cron, zone)
  if (!parsed.ok) return { ok: false, lines: [`Not saved like this: ${parsed.field === 'cron' ? 'the schedule' : 'the time zone'} ${parsed.message}`] }
  const local = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  const utc = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  return { ok: true, lines: nextCronRuns(cron, zone, now, 5).map((at) => `${local.format(at)} ${zone}${zone === 'UTC' ? '' : ` (${utc.format(at)} UTC)`}`) }
}

/** The next runs under the cron field; /static/user/monitors.js refreshes it as the owner types. */
function cronPreview(cron: string, timezone: string, now: number): string {
  const { ok, lines } = cronPreviewLines(cron, timezone, now)
  const body = cron.trim() && ok ? html`<p>Next runs:</p><ol>!${lines.map((line) => html`<li>${line}</li>`).join('')}</ol>` : html`<p>${lines[0]!}</p>`
  return html`<div id="cron-next" class="hint cron-next" role="status" aria-live="polite" data-preview="${monitorsPath}/cron-preview">!${body}</div>`
}

/** The create (monitor undefined) or edit form of a monitor of `type`. */
/** Where it runs (types a probe runs): regions as one line, and k. */
function regionFields(type: string, form: FormState, available: readonly string[]): string {
  if (!PROBE_TYPES.includes(type as StoredMonitorType)) return ''
  return html`<fieldset class="mon-regions"><legend>Regions</legend>
  !${textField({ name: 'regions', label: LABELS.regions!, hint: `Where it runs, separated by commas: local (this server) and regions with a probe. Available: ${available.join(', ')}.`, autocomplete: 'off', state: form })}
  !${textField({ name: 'regions_required_down', label: LABELS.regions_required_down!, type: 'number', hint: 'Down when at least this many of its regions are down (1: any). A region silent for 3 intervals counts as no data.', state: form })}
</fieldset>`
}

/** `unavailable`: why this server cannot run the type (ping without ICMP), shown above the form. */
export function monitorFormView(
  type: string,
  form: FormState,
  components: ReadonlyArray<ComponentChoice>,
  monitor?: Monitor,
  availableRegions: readonly string[] = ['local'],
  unavailable: string | null = null,
  now = 0,
  minIntervalSeconds?: number,
  parentChoices: ReadonlyArray<ParentChoice> = [],
): string {
  const action = monitor ? monitorPath(monitor.id) : monitorsPath
  const title = monitor ? `Edit ${monitor.definition.name}` : `New ${MONITOR_TYPE_LABELS[type] ?? type} monitor`
  const target =
    type === 'push'
      ? ''
      : textField({ name: 'target', label: LABELS.target!, hint: TARGET_HINTS[type], required: true, autocomplete: 'off', maxLength: 2048, state: form })
  return html`<h1>${title}</h1>
<section class="card" aria-labelledby="form-heading">
  <h2 id="form-heading" class="visually-hidden">Settings</h2>
  !${errorSummary(form, LABELS)}
  !${unavailable ? html`<div class="mon-misconfigured" id="type-unavailable"><p><strong>This server cannot run this check.</strong> ${unavailable}.</p></div>` : ''}
  <form method="post" action="${action}" class="stack" novalidate>
    <input type="hidden" name="type" value="${type}">
    <p>Type: <strong>${MONITOR_TYPE_LABELS[type] ?? type}</strong></p>
    !${textField({ name: 'name', label: LABELS.name!, required: true, maxLength: 100, state: form })}
    !${target}
    !${textField({ name: 'interval_seconds', label: LABELS.interval_seconds!, type: 'number', hint: minIntervalSeconds === undefined ? 'How often it runs; your plan sets the shortest.' : `How often it runs; your plan's shortest is ${minIntervalSeconds} s.`, state: form })}
    !${selectField({ name: 'component_id', label: LABELS.component_id!, hint: 'Its status follows this monitor (the worst of its monitors).', options: [{ value: '', label: 'None' }, ...components], state: form })}
    !${parentsField(form, parentChoices)}
    <fieldset class="mon-options"><legend>${MONITOR_TYPE_LABELS[type] ?? type} options</legend>!${typeFields(type, form, now)}</fieldset>
    !${regionFields(type, form, availableRegions)}
    <details class="mon-advanced"><summary>Timing and confirmation</summary>
      !${textField({ name: 'timeout_ms', label: LABELS.timeout_ms!, type: 'number', hint: 'Empty: 10 s or 0.8 × the interval, whichever is shorter.', state: form })}
      !${textField({ name: 'retries', label: LABELS.retries!, type: 'number', state: form })}
      !${textField({ name: 'retry_interval_seconds', label: LABELS.retry_interval_seconds!, type: 'number', state: form })}
      !${textField({ name: 'confirm_failures', label: LABELS.confirm_failures!, type: 'number', state: form })}
      !${textField({ name: 'confirm_successes', label: LABELS.confirm_successes!, type: 'number', state: form })}
      !${textField({ name: 'degraded_after_ms', label: LABELS.degraded_after_ms!, type: 'number', hint: 'Empty: never degraded for slowness.', state: form })}
    </details>
    <button type="submit">${monitor ? 'Save monitor' : 'Create monitor'}</button>
  </form>
</section>`
}

/** A push monitor's secret URL, shown once (on creation or a new token); only its hash is stored. */
export function pushUrlNotice(url: string): string {
  return html`<section class="card push-url" aria-labelledby="push-heading">
  <h2 id="push-heading">Your push URL</h2>
  <p>Call it with GET or POST from your job, e.g. <code>?status=up&amp;msg=OK&amp;ping=42</code>. <strong>It is shown only now</strong>: copy it; Lantern keeps only its hash.</p>
  <p><code class="secret">${url}</code></p>
  <p>For a job with runs: call <code>…/start</code> when it begins (its duration is measured, and a run that has not ended within the grace time is late) and <code>…/fail</code> when it fails; the plain URL ends a run that went well.</p>
</section>`
}

export function deleteMonitorView(m: Monitor): string {
  return html`<h1>Delete ${m.definition.name}?</h1>
<section class="card narrow danger">
  <p>This removes the monitor <strong>${m.definition.name}</strong> with its results and state history. It cannot be undone.</p>
  <form method="post" action="${monitorPath(m.id)}/delete" class="stack">
    <button type="submit" class="danger">Delete monitor</button>
    <a href="${monitorPath(m.id)}">Cancel</a>
  </form>
</section>`
}
