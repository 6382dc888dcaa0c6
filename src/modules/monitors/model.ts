/** The monitors API's schemas (named models of the OpenAPI document) and JSON shapes. */
import { t, type Static } from 'elysia'
import { modelRef, namedModels } from '../../http/schemas.ts'
import { toIso, toIsoOrNull } from '../../lib/time.ts'
import type { Availability } from './availability.ts'
import { MAX_CONFIRM, MAX_INTERVAL_SECONDS, MAX_MONITOR_NAME, MAX_PUSH_GRACE_SECONDS, MAX_TARGET, MIN_INTERVAL_SECONDS, MONITOR_TYPES } from './definition.ts'
import { PUSH_PATH, type Monitor } from './service.ts'
import { MAX_CRON_LENGTH } from './run/cron-schedule.ts'
import { DEFAULT_PING_COUNT, DEFAULTS, DNS_RECORD_TYPES, HTTP_METHODS, MAX_DNSBL_ZONES, MAX_PING_COUNT, MAX_QUERY_LENGTH, MAX_SELECTORS, MAX_WS_MESSAGE } from './kinds/index.ts'
import { LOCAL_REGION, MAX_REGIONS, REGION_PATTERN, type RegionView } from './run/regions.ts'
import { MAX_PARENTS } from './run/dependencies.ts'

const literals = <T extends string>(values: readonly T[], field: string) =>
  t.Unsafe<T>(t.Union(values.map((value) => t.Literal(value)), { error: `${field} must be one of ${values.join(', ')}` }))

const TypeSchema = literals(MONITOR_TYPES, 'type')
const int = (field: string, min: number, max: number, description?: string) =>
  t.Integer({ minimum: min, maximum: max, error: `${field} must be a whole number from ${min} to ${max}`, ...(description ? { description } : {}) })

const DkimSelectorsSchema = t.Array(t.String({ minLength: 1, maxLength: 253 }), {
  maxItems: MAX_SELECTORS,
  error: `dkim_selectors must be a list of at most ${MAX_SELECTORS} selectors`,
  description: 'email_auth monitors: DKIM selectors to check (e.g. ["google", "s1"]); none: only whether any DKIM keys exist',
})

/** Options of the monitor's type (ignored by types they do not concern). */
const optionFields = {
  method: t.Optional(literals(HTTP_METHODS, 'method')),
  headers: t.Optional(t.Record(t.String({ maxLength: 100 }), t.String({ maxLength: 4096 }), { error: 'headers must be an object of header names to strings' })),
  body: t.Optional(t.Nullable(t.String({ maxLength: 65_536 }), { error: 'body must be a string of at most 65536 characters or null' })),
  accepted_status: t.Optional(t.String({ maxLength: 200, error: 'accepted_status must be codes and ranges such as "200-299,301"', description: 'default "200-299"' })),
  follow_redirects: t.Optional(t.Boolean({ error: 'follow_redirects must be true or false', description: 'default true, at most 5 hops' })),
  keyword: t.Optional(t.Nullable(t.String({ maxLength: 200 }), { error: 'keyword must be a string of at most 200 characters or null' })),
  keyword_present: t.Optional(t.Boolean({ error: 'keyword_present must be true or false', description: 'default true; false: the keyword must be absent' })),
  keyword_case_sensitive: t.Optional(t.Boolean({ error: 'keyword_case_sensitive must be true or false', description: 'default true' })),
  conditions: t.Optional(t.Array(t.String({ maxLength: 512 }), { maxItems: 20, error: 'conditions must be a list of at most 20 strings of at most 512 characters' })),
  port: t.Optional(int('port', 1, 65535, 'tcp, tls and smtp: the port, unless the target says host:port')),
  record_type: t.Optional(literals(DNS_RECORD_TYPES, 'record_type')),
  expected: t.Optional(t.Array(t.String({ maxLength: 2048 }), { maxItems: 20, error: 'expected must be a list of at most 20 strings' })),
  resolver: t.Optional(t.Nullable(t.String({ maxLength: 100 }), { error: 'resolver must be an IP address with an optional port, or null' })),
  dkim_selectors: t.Optional(DkimSelectorsSchema),
  tls_degraded_below_days: t.Optional(int('tls_degraded_below_days', 0, 365, 'tls: degraded, ssl: warning under this many days left (default 14)')),
  tls_fail_below_days: t.Optional(int('tls_fail_below_days', 0, 365, 'tls and ssl: fail under this many days left (default 3)')),
  push_grace_seconds: t.Optional(int('push_grace_seconds', 0, MAX_PUSH_GRACE_SECONDS, `default ${DEFAULTS.pushGraceSeconds}`)),
  starttls: t.Optional(t.Boolean({ error: 'starttls must be true or false', description: 'ssl: speak SMTP EHLO/STARTTLS before the handshake on another port (e.g. 2525); ports 25 and 587 always do' })),
  zones: t.Optional(
    t.Array(t.String({ maxLength: 253 }), { maxItems: MAX_DNSBL_ZONES, error: `zones must be a list of at most ${MAX_DNSBL_ZONES} zone names`, description: 'dnsbl: the zones to query; default the documented list (src/content/docs/monitors.md)' }),
  ),
  ping_count: t.Optional(int('ping_count', 1, MAX_PING_COUNT, `ping: echo requests per run (default ${DEFAULT_PING_COUNT})`)),
  cron: t.Optional(t.Nullable(t.String({ maxLength: MAX_CRON_LENGTH }), { error: `cron must be a cron expression of at most ${MAX_CRON_LENGTH} characters, or null`, description: 'push: the job\'s cron schedule (minute hour day-of-month month day-of-week, e.g. "0 3 * * *"); late when no push by the scheduled time plus push_grace_seconds. Null: the interval instead' })),
  cron_timezone: t.Optional(t.String({ maxLength: 64, error: 'cron_timezone must be an IANA time zone name', description: 'push: the time zone the cron expression is read in, e.g. Europe/Berlin (default UTC)' })),
  redis_key: t.Optional(t.Nullable(t.String({ maxLength: 512 }), { error: 'redis_key must be a string of at most 512 characters or null', description: 'redis: a key to GET after PING; it must exist (and equal expected_value when set)' })),
  query: t.Optional(t.Nullable(t.String({ maxLength: MAX_QUERY_LENGTH }), { error: `query must be one SQL statement of at most ${MAX_QUERY_LENGTH} characters or null`, description: 'postgres: one statement run in a read-only transaction, rolled back' })),
  ws_message: t.Optional(t.Nullable(t.String({ maxLength: MAX_WS_MESSAGE }), { error: `ws_message must be a string of at most ${MAX_WS_MESSAGE} characters or null`, description: 'websocket: a text message sent after the upgrade; the first reply is awaited' })),
  expected_value: t.Optional(
    t.Nullable(t.String({ maxLength: 1024 }), { error: 'expected_value must be a string of at most 1024 characters or null', description: "redis: the key's exact value; postgres: the first column of the query's first row, as text; websocket: text the reply contains" }),
  ),
}

const settingFields = {
  target: t.Optional(t.Nullable(t.String({ maxLength: MAX_TARGET }), { error: `target must be a string of at most ${MAX_TARGET} characters`, description: 'URL (http, keyword, json), host:port (tcp), host[:port] (tls, ssl, smtp), name (dns), IP or domain (dnsbl), domain (email_auth, domain_expiry), host (ping), host[:port] or redis[s]://[user:password@]host[:port][/db] (redis), postgres://user:password@host[:port]/database[?sslmode=require] (postgres), ws(s):// URL (websocket); none for push' })),
  interval_seconds: t.Optional(int('interval_seconds', MIN_INTERVAL_SECONDS, MAX_INTERVAL_SECONDS, 'the plan sets the shortest (Free 300, Pro and Growth 30, Business, OSS Hero and Enterprise 10); below it answers 403; default 60 or the plan minimum')),
  timeout_ms: t.Optional(t.Nullable(int('timeout_ms', 100, DEFAULTS.maxTimeoutMs), { error: `timeout_ms must be a whole number from 100 to ${DEFAULTS.maxTimeoutMs} or null (default: min(10 s, 0.8 × interval))` })),
  retries: t.Optional(int('retries', 0, DEFAULTS.maxRetries, `retries inside a run; default ${DEFAULTS.retries}`)),
  retry_interval_seconds: t.Optional(int('retry_interval_seconds', 0, 60)),
  confirm_failures: t.Optional(int('confirm_failures', 1, MAX_CONFIRM, `failing runs in a row before down; default ${DEFAULTS.confirmFailures}`)),
  confirm_successes: t.Optional(int('confirm_successes', 1, MAX_CONFIRM, `passing runs in a row before up; default ${DEFAULTS.confirmSuccesses}`)),
  degraded_after_ms: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: DEFAULTS.maxTimeoutMs }), { error: 'degraded_after_ms must be a whole number of ms below the timeout, or null' })),
  component_id: t.Optional(t.Nullable(t.Integer({ minimum: 1 }), { error: 'component_id must be a component id or null', description: "the component whose status follows this monitor (its page becomes the monitor's page)" })),
  status_page_id: t.Optional(t.Nullable(t.Integer({ minimum: 1 }), { error: 'status_page_id must be a status page id or null' })),
  regions: t.Optional(
    t.Array(t.String({ pattern: REGION_PATTERN.source, maxLength: 32, error: 'regions: each region name is lower-case letters, digits and dashes, at most 32' }), {
      minItems: 1,
      maxItems: MAX_REGIONS,
      error: `regions must be a list of 1 to ${MAX_REGIONS} region names`,
      description: 'where it runs: "local" (this server) and regions with a live probe token (`lantern probe-token create --region NAME`); default ["local"]. Probes run http, keyword, json, tcp, dns and tls monitors.',
    }),
  ),
  parents: t.Optional(
    t.Array(t.Integer({ minimum: 1, error: 'parents must list monitor ids' }), {
      maxItems: MAX_PARENTS,
      error: `parents must be a list of at most ${MAX_PARENTS} monitor ids`,
      description:
        'The monitors this one depends on (the router in front of it, the database behind it); replaces the set, [] for none. While one of them is down (or unreachable itself) this monitor is `unreachable`: no alert, no incident, its component left as it is. Each must be one of your monitors (404 otherwise); one that depends on this monitor, directly or through its own parents, is refused with 400 (a cycle).',
      examples: [[12]],
    }),
  ),
  regions_required_down: t.Optional(int('regions_required_down', 1, MAX_REGIONS, 'k: down when at least k of its regions are down (default 1, at most the number of regions); a region silent for 3 intervals counts as no data')),
  ...optionFields,
}

const name = t.String({ minLength: 1, maxLength: MAX_MONITOR_NAME, error: `name must be a string of 1 to ${MAX_MONITOR_NAME} characters` })

export const CreateMonitorBody = t.Object({
  name,
  type: TypeSchema,
  enabled: t.Optional(t.Boolean({ error: 'enabled must be true or false' })),
  ...settingFields,
})

export const UpdateMonitorBody = t.Object({ name: t.Optional(name), type: t.Optional(TypeSchema), ...settingFields })

export const ResultsQuery = t.Object({
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 500, multipleOf: 1, error: 'limit must be an integer from 1 to 500' })),
  before: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: 'before must be a result id' })),
})

export const AvailabilityQuery = t.Object({
  period: t.Optional(t.Union([t.Literal('7d'), t.Literal('30d'), t.Literal('90d'), t.Literal('365d')], { error: 'period must be one of 7d, 30d, 90d, 365d' })),
})

const StateSchema = t.Union([t.Literal('pending'), t.Literal('up'), t.Literal('degraded'), t.Literal('down'), t.Literal('misconfigured'), t.Literal('unreachable'), t.Literal('paused')], {
  description:
    'misconfigured: the configuration refused its runs (an address the instance does not reach, an invalid host or setting); it never changes a component, never opens an incident and never counts in uptime. `state_reason` says why and how to fix it. unreachable: one of its `parents` is down; it sends no alert, opens no incident, leaves its component as it is and counts in no uptime; `state_reason` names the parents.',
})

const MonitorJson = t.Object({
  id: t.Integer(),
  name: t.String(),
  type: t.String({ enum: [...MONITOR_TYPES] }),
  target: t.Nullable(t.String()),
  interval_seconds: t.Integer(),
  enabled: t.Boolean(),
  component_id: t.Nullable(t.Integer()),
  status_page_id: t.Nullable(t.Integer()),
  status_page_slug: t.Nullable(t.String()),
  timeout_ms: t.Integer(),
  retries: t.Integer(),
  retry_interval_seconds: t.Number(),
  confirm_failures: t.Integer(),
  confirm_successes: t.Integer(),
  degraded_after_ms: t.Nullable(t.Integer()),
  options: t.Record(t.String(), t.Unknown(), { description: "the type's options as set (method, headers, keyword, conditions, port, record_type, …)" }),
  state: StateSchema,
  state_reason: t.Nullable(t.String({ description: 'while misconfigured: why its runs are refused and the fix; while unreachable: which parents are down; otherwise null' })),
  parents: t.Array(t.Integer(), { description: 'the ids of the monitors it depends on' }),
  waiting_for: t.Array(t.Integer(), { description: 'its last run failed, and it waits for these parents (failing too, or not checked since) before it is down: one outage of a parent is one alert' }),
  state_since: t.String({ description: 'RFC 3339' }),
  flapping: t.Boolean(),
  next_run_at: t.Nullable(t.String({ description: 'RFC 3339' })),
  last_check_at: t.Nullable(t.String({ description: 'RFC 3339' })),
  last_outcome: t.Nullable(t.String()),
  last_response_ms: t.Nullable(t.Integer()),
  last_message: t.Nullable(t.String()),
  regions: t.Array(t.String(), { description: 'where it runs ("local": this server)' }),
  regions_required_down: t.Integer({ description: 'k: down when at least k of its regions are down' }),
  health_score: t.Nullable(
    t.Integer({
      minimum: 0,
      maximum: 100,
      description:
        '0–100, scored again after each new result (and at least every minute): uptime 60 (last 24 h) + p95 latency 20 (recent window vs the 24 h p95) + error rate 20 (recent window); the recent window is the last hour, or two intervals of a monitor that runs less often. No answer in the recent window earns no latency points, no result there no error points; misconfigured runs count nowhere. Null while paused, with no measured result in 24 h, or not yet reached by the per-request recompute bound',
    }),
  ),
  health_parts: t.Nullable(
    t.Object(
      {
        uptime: t.Number({ description: 'of 60, over the last 24 h' }),
        latency: t.Number({ description: 'of 20, over the recent window' }),
        errors: t.Number({ description: 'of 20, over the recent window' }),
        recent_window_seconds: t.Integer({ description: 'the recent window the latency and error parts cover' }),
        p95_recent_ms: t.Nullable(t.Integer({ description: 'p95 response time in the recent window' })),
        p95_baseline_ms: t.Nullable(t.Integer({ description: 'p95 response time over 24 h: the baseline' })),
        computed_at: t.String({ description: 'RFC 3339' }),
      },
      { description: 'the three parts of health_score, their windows and figures' },
    ),
  ),
  push_url: t.Optional(t.String({ description: 'push monitors, on creation and token rotation only: the secret URL to call' })),
  created_at: t.String({ description: 'RFC 3339' }),
  updated_at: t.String({ description: 'RFC 3339' }),
})

const MonitorResultJson = t.Object({
  id: t.Integer(),
  at: t.String({ description: 'RFC 3339' }),
  outcome: t.Union([t.Literal('ok'), t.Literal('degraded'), t.Literal('fail'), t.Literal('misconfigured')], { description: 'misconfigured: the configuration refused the run (the message says why and how to fix it); it never counts as a failure' }),
  response_ms: t.Nullable(t.Integer()),
  status_code: t.Nullable(t.Integer()),
  attempts: t.Integer(),
  message: t.String(),
  region: t.String({ description: '"local" (this server) or the probe\'s region' }),
})

const MonitorAvailabilityJson = t.Object({
  period: t.String(),
  from: t.String({ description: 'RFC 3339' }),
  to: t.String({ description: 'RFC 3339' }),
  uptime_percent: t.Nullable(t.Number({ description: 'null when nothing was watched in the period' })),
  monitored_seconds: t.Integer(),
  downtime_seconds: t.Integer(),
  incidents: t.Integer({ description: 'down spells that began in the period' }),
  mttr_seconds: t.Nullable(t.Integer()),
  mtbf_seconds: t.Nullable(t.Integer()),
})

const MonitorRegionJson = t.Object({
  region: t.String(),
  state: t.Union([t.Literal('pending'), t.Literal('up'), t.Literal('degraded'), t.Literal('down'), t.Literal('misconfigured'), t.Literal('unreachable')], { description: "the region's own confirmed state (pending: no result yet; misconfigured: its runs are refused by the configuration, counted as no data; unreachable: a monitor run only here whose parent is down)" }),
  state_since: t.Nullable(t.String({ description: 'RFC 3339' })),
  flapping: t.Boolean(),
  stale: t.Boolean({ description: 'no result for 3 intervals: counts as no data in the k-of-n rule' }),
  last_check_at: t.Nullable(t.String({ description: 'RFC 3339' })),
  last_outcome: t.Nullable(t.String()),
  last_response_ms: t.Nullable(t.Integer()),
  last_message: t.Nullable(t.String()),
})

export const monitorModels = namedModels({ Monitor: MonitorJson, MonitorResult: MonitorResultJson, MonitorAvailability: MonitorAvailabilityJson, MonitorRegion: MonitorRegionJson })
export const MonitorRegionRef = modelRef(monitorModels, 'MonitorRegion')

export function monitorRegionJson(r: RegionView): Static<typeof MonitorRegionJson> {
  return {
    region: r.region,
    state: r.state,
    state_since: toIsoOrNull(r.since),
    flapping: r.flapping,
    stale: r.stale,
    last_check_at: toIsoOrNull(r.lastCheckAt),
    last_outcome: r.lastOutcome,
    last_response_ms: r.lastResponseMs,
    last_message: r.lastMessage,
  }
}
export const MonitorRef = modelRef(monitorModels, 'Monitor')
export const MonitorResultRef = modelRef(monitorModels, 'MonitorResult')
export const MonitorAvailabilityRef = modelRef(monitorModels, 'MonitorAvailability')

export function monitorJson(monitor: Monitor, baseUrl: string, pushToken?: string): Static<typeof MonitorJson> {
  const d = monitor.definition
  return {
    id: monitor.id,
    name: d.name,
    type: d.type,
    target: d.target,
    interval_seconds: d.intervalSeconds,
    enabled: monitor.enabled,
    component_id: monitor.componentId,
    status_page_id: monitor.pageId,
    status_page_slug: monitor.pageSlug,
    timeout_ms: d.timeoutMs,
    retries: d.retries,
    retry_interval_seconds: d.retryIntervalMs / 1000,
    confirm_failures: d.confirmFailures,
    confirm_successes: d.confirmSuccesses,
    degraded_after_ms: d.degradedAfterMs,
    options: { ...d.options },
    state: monitor.state,
    state_reason: monitor.stateReason,
    parents: monitor.parents.map((parent) => parent.id),
    waiting_for: monitor.waitingFor.map((parent) => parent.id),
    state_since: toIso(monitor.stateSince),
    flapping: monitor.flapping,
    next_run_at: toIsoOrNull(monitor.nextRunAt),
    last_check_at: toIsoOrNull(monitor.lastCheckAt),
    last_outcome: monitor.lastOutcome,
    last_response_ms: monitor.lastResponseMs,
    last_message: monitor.lastMessage,
    regions: [...d.regions],
    regions_required_down: d.regionsRequiredDown,
    health_score: monitor.health?.score ?? null,
    health_parts: monitor.health
      ? {
          uptime: monitor.health.uptime,
          latency: monitor.health.latency,
          errors: monitor.health.errors,
          recent_window_seconds: Math.round(monitor.health.recentMs / 1000),
          p95_recent_ms: monitor.health.p95RecentMs,
          p95_baseline_ms: monitor.health.p95BaselineMs,
          computed_at: toIso(monitor.healthAt ?? monitor.updatedAt),
        }
      : null,
    ...(pushToken ? { push_url: `${baseUrl}${PUSH_PATH}${pushToken}` } : {}),
    created_at: toIso(monitor.createdAt),
    updated_at: toIso(monitor.updatedAt),
  }
}

export function monitorResultJson(row: { id: number; at: number; outcome: string; response_ms: number | null; status_code: number | null; attempts: number; message: string; region?: string | null }): Static<typeof MonitorResultJson> {
  return { id: row.id, at: toIso(row.at), outcome: row.outcome as 'ok', response_ms: row.response_ms, status_code: row.status_code, attempts: row.attempts, message: row.message, region: row.region ?? LOCAL_REGION }
}

export function availabilityJson(a: Availability): Static<typeof MonitorAvailabilityJson> {
  const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 1000))
  return {
    period: a.period,
    from: toIso(a.from),
    to: toIso(a.to),
    uptime_percent: a.uptimePercent,
    monitored_seconds: Math.round(a.monitoredMs / 1000),
    downtime_seconds: Math.round(a.downtimeMs / 1000),
    incidents: a.incidents,
    mttr_seconds: seconds(a.mttrMs),
    mtbf_seconds: seconds(a.mtbfMs),
  }
}
