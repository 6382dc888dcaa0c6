/**
 * A monitor as the owner defines it (name, type, target, numbers, the type's options), how API
 * input merges into it, how it is checked before it is stored (field-named 400s through the
 * engine's validateSpec) and the MonitorSpec the engine runs. Pure.
 */
import { counted } from '../../lib/words.ts'
import type { AddressGuard } from '../../lib/address-guard.ts'
import { badRequest } from '../../lib/errors.ts'
import { DEFAULTS, defaultTimeoutMs, DNS_RECORD_TYPES, PROBE_TYPES, toSpec, validateSpec, type DnsRecordType, type HttpMethod } from './kinds/index.ts'
import type { StoredMonitorType } from './tables.ts'
import { LOCAL_REGION, MAX_REGIONS, REGION_PATTERN } from './run/regions.ts'
import { DEFAULT_CRON_TIMEZONE, parseCron } from './run/cron-schedule.ts'

export const MONITOR_TYPES: readonly StoredMonitorType[] = [
  'http', 'keyword', 'json', 'tcp', 'dns', 'tls', 'push', 'ssl', 'dnsbl', 'email_auth', 'domain_expiry', 'ping',
  'redis', 'postgres', 'websocket', 'smtp',
]
export const MAX_MONITOR_NAME = 100
export const MAX_TARGET = 2048
/** No monitor runs more often than this, whatever the plan says (plans set their own floor above it). */
export const MIN_INTERVAL_SECONDS = 10
export const MAX_INTERVAL_SECONDS = 86_400
export const MAX_CONFIRM = 10
export const MAX_PUSH_GRACE_SECONDS = 86_400

/** The type's options, stored as JSON under the API's own names. */
export interface MonitorOptions {
  method?: HttpMethod
  headers?: Record<string, string>
  body?: string | null
  accepted_status?: string
  follow_redirects?: boolean
  keyword?: string | null
  keyword_present?: boolean
  keyword_case_sensitive?: boolean
  conditions?: string[]
  port?: number
  record_type?: DnsRecordType
  expected?: string[]
  resolver?: string | null
  tls_degraded_below_days?: number
  tls_fail_below_days?: number
  push_grace_seconds?: number
  dkim_selectors?: string[]
  /** ssl: speak SMTP STARTTLS first on another port; ports 25 and 587 always do. */
  starttls?: boolean
  /** dnsbl: the zones to query (default: DEFAULT_DNSBL_ZONES). */
  zones?: string[]
  /** ping: echo requests per run (default 3). */
  ping_count?: number
  /** push: a cron schedule (5 fields) the job follows, instead of the interval; null: none. */
  cron?: string | null
  /** push: the IANA time zone the cron expression is read in (default UTC). */
  cron_timezone?: string
  /** redis: the key to GET. */
  redis_key?: string | null
  /** postgres: one read-only query. */
  query?: string | null
  /** websocket: the message sent after the upgrade. */
  ws_message?: string | null
  /** redis: the key's value; postgres: the first column of the first row; websocket: text the reply contains. */
  expected_value?: string | null
}

export const OPTION_FIELDS = [
  'method', 'headers', 'body', 'accepted_status', 'follow_redirects', 'keyword', 'keyword_present', 'keyword_case_sensitive',
  'conditions', 'port', 'record_type', 'expected', 'resolver', 'tls_degraded_below_days', 'tls_fail_below_days', 'push_grace_seconds',
  'dkim_selectors',
  'starttls', 'zones',
  'ping_count',
  'cron', 'cron_timezone',
  'redis_key', 'query', 'ws_message', 'expected_value',
] as const satisfies ReadonlyArray<keyof MonitorOptions>

export interface MonitorDefinition {
  name: string
  type: StoredMonitorType
  target: string | null
  intervalSeconds: number
  timeoutMs: number
  retries: number
  retryIntervalMs: number
  confirmFailures: number
  confirmSuccesses: number
  degradedAfterMs: number | null
  options: MonitorOptions
  /** Where it runs: `local` (the server) and probe regions (regions.ts); default ["local"]. */
  regions: string[]
  /** Down when at least this many of its regions are down (1 ≤ k ≤ regions). */
  regionsRequiredDown: number
}

/** What create and patch take (API names); every field optional here, create checks what it needs. */
export interface MonitorInput extends MonitorOptions {
  name?: string
  type?: StoredMonitorType
  target?: string | null
  interval_seconds?: number
  timeout_ms?: number | null
  retries?: number
  retry_interval_seconds?: number
  confirm_failures?: number
  confirm_successes?: number
  degraded_after_ms?: number | null
  regions?: string[]
  regions_required_down?: number
}

/** Where a monitor belongs: a component (its page follows) or only a page. */
export interface MonitorPlacement {
  component_id?: number | null
  status_page_id?: number | null
  /** The monitors it depends on (replaces the set): while one is down it is unreachable. */
  parents?: number[]
}

/** Engine field names → API field names, so a 400 names what the owner sent. */
const API_FIELD: Record<string, string> = {
  url: 'target',
  host: 'target',
  name: 'target',
  timeoutMs: 'timeout_ms',
  degradedAfterMs: 'degraded_after_ms',
  acceptedStatus: 'accepted_status',
  recordType: 'record_type',
  degradedBelowDays: 'tls_degraded_below_days',
  failBelowDays: 'tls_fail_below_days',
  domain: 'target',
  selectors: 'dkim_selectors',
  warnBelowDays: 'tls_degraded_below_days',
  target: 'target',
  zones: 'zones',
  count: 'ping_count',
  key: 'redis_key',
  query: 'query',
  message: 'ws_message',
  expectedValue: 'expected_value',
}

const isInt = (value: unknown, min: number, max: number): value is number => Number.isInteger(value) && (value as number) >= min && (value as number) <= max

/** The definition after applying `input` to `current` (or to defaults when creating); throws a 400 naming the field. */
export function mergeDefinition(current: MonitorDefinition | undefined, input: MonitorInput): MonitorDefinition {
  const name = input.name !== undefined ? input.name.trim() : current?.name
  if (!name) throw badRequest('name is required')
  if (name.length > MAX_MONITOR_NAME) throw badRequest(`name must be at most ${MAX_MONITOR_NAME} characters`)
  const type = input.type ?? current?.type
  if (!type) throw badRequest('type is required')
  if (!MONITOR_TYPES.includes(type)) throw badRequest(`type must be one of ${MONITOR_TYPES.join(', ')}`)
  if (current && type !== current.type && (type === 'push' || current.type === 'push')) {
    throw badRequest('type: a monitor cannot change to or from push; create a new monitor instead')
  }
  const target = input.target !== undefined ? (input.target === null ? null : input.target.trim()) : current?.target ?? null
  if (type === 'push') {
    if (target) throw badRequest('target: a push monitor has no target; it is called at its push URL')
  } else if (!target) throw badRequest('target is required')
  else if (target.length > MAX_TARGET) throw badRequest(`target must be at most ${MAX_TARGET} characters`)

  const intervalSeconds = input.interval_seconds ?? current?.intervalSeconds ?? 60
  if (!isInt(intervalSeconds, MIN_INTERVAL_SECONDS, MAX_INTERVAL_SECONDS)) {
    throw badRequest(`interval_seconds must be a whole number from ${MIN_INTERVAL_SECONDS} to ${MAX_INTERVAL_SECONDS}`)
  }
  // A timeout follows the interval until the owner sets one; null goes back to following it.
  // A stored timeout equal to its interval's default is taken as following it (a 60 s monitor moved to 10 s gets 8 s).
  const following = current !== undefined && current.timeoutMs === defaultTimeoutMs(current.intervalSeconds)
  const timeoutMs =
    input.timeout_ms === null || (input.timeout_ms === undefined && (current === undefined || following))
      ? defaultTimeoutMs(intervalSeconds)
      : input.timeout_ms ?? current!.timeoutMs
  const retries = input.retries ?? current?.retries ?? DEFAULTS.retries
  if (!isInt(retries, 0, DEFAULTS.maxRetries)) throw badRequest(`retries must be from 0 to ${DEFAULTS.maxRetries}`)
  const retryIntervalMs = input.retry_interval_seconds !== undefined ? input.retry_interval_seconds * 1000 : current?.retryIntervalMs ?? DEFAULTS.retryDelayMs
  if (!isInt(retryIntervalMs, 0, 60_000)) throw badRequest('retry_interval_seconds must be from 0 to 60')
  const confirmFailures = input.confirm_failures ?? current?.confirmFailures ?? DEFAULTS.confirmFailures
  if (!isInt(confirmFailures, 1, MAX_CONFIRM)) throw badRequest(`confirm_failures must be from 1 to ${MAX_CONFIRM}`)
  const confirmSuccesses = input.confirm_successes ?? current?.confirmSuccesses ?? DEFAULTS.confirmSuccesses
  if (!isInt(confirmSuccesses, 1, MAX_CONFIRM)) throw badRequest(`confirm_successes must be from 1 to ${MAX_CONFIRM}`)
  const degradedAfterMs = input.degraded_after_ms !== undefined ? input.degraded_after_ms : current?.degradedAfterMs ?? null

  const options: MonitorOptions = { ...(current?.options ?? {}) }
  for (const field of OPTION_FIELDS) {
    if (input[field] !== undefined) (options as Record<string, unknown>)[field] = input[field]
  }
  if (type === 'keyword' && !options.keyword) throw badRequest('keyword is required for a keyword monitor')
  if (type === 'json' && !options.conditions?.length) throw badRequest('conditions: a json monitor needs at least one condition')
  if (options.record_type !== undefined && !DNS_RECORD_TYPES.includes(options.record_type)) {
    throw badRequest(`record_type must be one of ${DNS_RECORD_TYPES.join(', ')}`)
  }
  if (type === 'dnsbl' && intervalSeconds < DEFAULTS.dnsblMinIntervalSeconds) {
    throw badRequest(`interval_seconds: a dnsbl monitor runs at most hourly (${DEFAULTS.dnsblMinIntervalSeconds} s or more); zone operators ask for that`)
  }
  const grace = options.push_grace_seconds
  if (grace !== undefined && !isInt(grace, 0, MAX_PUSH_GRACE_SECONDS)) throw badRequest(`push_grace_seconds must be from 0 to ${MAX_PUSH_GRACE_SECONDS}`)
  if (options.cron === '') options.cron = null
  if (options.cron_timezone === '') delete options.cron_timezone
  if (type === 'push' && (options.cron || options.cron_timezone !== undefined)) {
    const checked = parseCron(options.cron ?? '* * * * *', options.cron_timezone ?? DEFAULT_CRON_TIMEZONE)
    if (!checked.ok) throw badRequest(`${checked.field}: ${checked.message}`)
  }
  const { regions, regionsRequiredDown } = mergeRegions(current, input, type)
  return { name, type, target, intervalSeconds, timeoutMs, retries, retryIntervalMs, confirmFailures, confirmSuccesses, degradedAfterMs, options, regions, regionsRequiredDown }
}

export { PROBE_TYPES, splitHostPort, toSpec } from './kinds/index.ts'

/** Regions and k after applying `input` (names checked here; which regions exist is the service's question). */
function mergeRegions(current: MonitorDefinition | undefined, input: MonitorInput, type: StoredMonitorType): { regions: string[]; regionsRequiredDown: number } {
  let regions = current?.regions ?? [LOCAL_REGION]
  if (input.regions !== undefined) {
    if (!Array.isArray(input.regions) || input.regions.length === 0) throw badRequest('regions must list at least one region, e.g. ["local"]')
    const names = input.regions.map((r) => (typeof r === 'string' ? r.trim() : ''))
    const bad = names.find((r) => !REGION_PATTERN.test(r))
    if (bad !== undefined) throw badRequest(`regions: ${JSON.stringify(bad)} is not a region name (lower-case letters, digits and dashes, at most 32)`)
    regions = [...new Set(names)]
    if (regions.length > MAX_REGIONS) throw badRequest(`regions must list at most ${MAX_REGIONS} regions`)
  }
  const k = input.regions_required_down ?? current?.regionsRequiredDown ?? 1
  if (!isInt(k, 1, MAX_REGIONS)) throw badRequest(`regions_required_down must be a whole number from 1 to the number of regions`)
  if (k > regions.length) throw badRequest(`regions_required_down ${k} is more than the ${counted(regions.length, 'region')} listed`)
  const remote = regions.find((r) => r !== LOCAL_REGION)
  if (remote !== undefined && !PROBE_TYPES.includes(type)) {
    throw badRequest(`regions: monitors of type ${type} run on the server only (region local); probes run ${PROBE_TYPES.join(', ')}`)
  }
  return { regions, regionsRequiredDown: k }
}

/** Checks the definition as the engine will run it: a 400 naming the first bad field. */
export function assertRunnable(definition: MonitorDefinition, guard: AddressGuard): void {
  const spec = toSpec(definition)
  if (!spec) return
  const problem = validateSpec(spec, guard)[0]
  if (problem) throw badRequest(`${API_FIELD[problem.field] ?? problem.field}: ${problem.message}`)
}


/** The host a run connects to through the address guard (null: its queries go to resolvers, or push). */
export function connectedHost(definition: MonitorDefinition): string | null {
  const spec = toSpec(definition)
  if (!spec) return null
  switch (spec.type) {
    case 'http':
      return URL.canParse(spec.url) ? new URL(spec.url).hostname : null
    case 'tcp':
    case 'tls':
    case 'ssl':
    case 'ping':
    case 'redis':
    case 'postgres':
    case 'smtp':
      return spec.host
    case 'websocket':
      return URL.canParse(spec.url) ? new URL(spec.url).hostname : null
    default:
      return null
  }
}

/** Which host a run talks to, for the per-host cap (null: none, e.g. push). */
export function hostKey(definition: MonitorDefinition): string | null {
  const spec = toSpec(definition)
  if (!spec) return null
  switch (spec.type) {
    case 'http':
      try {
        return new URL(spec.url).hostname.toLowerCase()
      } catch {
        return spec.url
      }
    case 'tcp':
    case 'tls':
    case 'ssl':
    case 'ping':
    case 'redis':
    case 'postgres':
    case 'smtp':
      return spec.host.toLowerCase()
    case 'websocket':
      return URL.canParse(spec.url) ? new URL(spec.url).hostname.toLowerCase() : spec.url
    case 'dnsbl':
      // Its queries go to the instance's resolver: one key for all, so the per-host cap bounds them.
      return 'dnsbl'
    case 'dns':
    case 'email_auth':
      return spec.resolver ?? 'dns'
    case 'domain_expiry':
      // Its queries go to the registries' RDAP services: one key, so the per-host cap bounds them.
      return 'rdap'
  }
}

/** A certificate changes rarely (6 h, the reference's cadence); DNSBL zones ask for hourly at most; a registration twice a day; others 60 s. */
export function defaultIntervalSeconds(type: StoredMonitorType | undefined, planMinimum: number): number {
  const base = type === 'ssl' || type === 'email_auth' ? 21_600 : type === 'dnsbl' ? DEFAULTS.dnsblMinIntervalSeconds : type === 'domain_expiry' ? 43_200 : 60
  return Math.max(base, planMinimum)
}

export const pushGraceSeconds = (definition: MonitorDefinition): number => definition.options.push_grace_seconds ?? DEFAULTS.pushGraceSeconds
