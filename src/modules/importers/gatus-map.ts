/**
 * A Gatus configuration (parsed YAML) → an import plan (pure). The rules:
 * - The dashboard becomes one page (its title, custom CSS); each endpoint and external endpoint a
 *   component in its group, in the file's order.
 * - Endpoints become monitors: http(s) URLs http, keyword or json monitors, `tcp://` tcp, `tls://`
 *   tls, `icmp://` ping, `ws(s)://` websocket, a `dns:` block dns. Gatus marks an endpoint down on the first failed check and up on the
 *   first good one: confirm_failures = confirm_successes = 1, no quick retries.
 * - Conditions: `[STATUS]` comparisons become accepted status codes; `[BODY]` paths, `len()` and
 *   `has()` become Lantern conditions (a json monitor); `[BODY] == pat(*X*)` alone a keyword
 *   monitor; `[RESPONSE_TIME] < N` a condition on json monitors, else "degraded above N ms";
 *   `[CERTIFICATE_EXPIRATION] > Nh` on tls:// the days a certificate must have; `[CONNECTED] == true`
 *   and `[DNS_RCODE] == NOERROR` are what tcp, tls and dns monitors check anyway. Every other
 *   condition is listed as not brought, and the monitor comes without it.
 * - External endpoints become push monitors keeping their token.
 * - Alerting providers become channels on the page; group overrides and the rest are reported.
 */
import { badRequest } from '../../lib/errors.ts'
import type { ComponentType } from '../components/tables.ts'
import { parseSettings, type ChannelType } from '../channels/types.ts'
import { MAX_INTERVAL_SECONDS, MIN_INTERVAL_SECONDS, type MonitorInput } from '../monitors/definition.ts'
import { parseConditions } from '../monitors/kinds/conditions.ts'
import { MAX_PAGE_DESCRIPTION } from '../status-pages/types.ts'
import { importedDescription, type ImportPlan, type PlannedChannel, type PlannedComponent, type PlannedMonitor, type ReportLine } from './types.ts'

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {})
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null)

/** A Go duration (`30s`, `2m`, `1h30m`, `25h`) in milliseconds; null if it is not one. */
export function goDuration(raw: unknown): number | null {
  const text = str(raw)?.trim()
  if (!text || !/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) return null
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
  let total = 0
  for (const [, n, , u] of text.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g)) total += Number(n) * unit[u!]!
  return Math.round(total)
}

/** A Gatus literal as a Lantern one: numbers and booleans as they are, anything else a quoted string. */
const literal = (raw: string): string => {
  const v = raw.trim()
  if (v !== '' && Number.isFinite(Number(v))) return String(Number(v))
  if (v === 'true' || v === 'false') return v
  const unquoted = /^".*"$/.test(v) ? v.slice(1, -1) : v
  return JSON.stringify(unquoted)
}

export interface TranslatedConditions {
  acceptedStatus: string | null
  /** Lantern conditions (a json monitor when any reads the body). */
  conditions: string[]
  readsBody: boolean
  keyword: string | null
  responseTimeMs: number | null
  certificateDays: number | null
  expectedDns: string[]
  /** Conditions with no Lantern counterpart, with why. */
  untranslated: Array<{ condition: string; reason: string }>
}

const STATUS_RANGE: Record<string, (n: number) => string> = {
  '==': (n) => `${n}`,
  '<': (n) => `100-${n - 1}`,
  '<=': (n) => `100-${n}`,
  '>': (n) => `${n + 1}-599`,
  '>=': (n) => `${n}-599`,
}

/** Gatus conditions → Lantern's, for an endpoint of `kind`. */
export function translateConditions(raw: readonly unknown[], kind: 'http' | 'tcp' | 'tls' | 'dns'): TranslatedConditions {
  const out: TranslatedConditions = { acceptedStatus: null, conditions: [], readsBody: false, keyword: null, responseTimeMs: null, certificateDays: null, expectedDns: [], untranslated: [] }
  const status: string[] = []
  const keywords: string[] = []
  const no = (condition: string, reason: string) => out.untranslated.push({ condition, reason })
  for (const item of raw) {
    const text = typeof item === 'string' ? item.trim() : String(item)
    let m: RegExpExecArray | null
    if ((m = /^\[STATUS\]\s*(==|<=|>=|<|>)\s*(\d{3})$/.exec(text))) {
      if (kind !== 'http') no(text, 'only HTTP checks have a status')
      else status.push(STATUS_RANGE[m[1]!]!(Number(m[2])))
    } else if ((m = /^\[STATUS\]\s*==\s*any\(([\d\s,]+)\)$/.exec(text))) {
      status.push(...m[1]!.split(',').map((s) => s.trim()).filter(Boolean))
    } else if ((m = /^\[RESPONSE_TIME\]\s*(<|<=)\s*(\d+)$/.exec(text))) {
      out.responseTimeMs = Number(m[2]) + (m[1] === '<=' ? 1 : 0)
    } else if (/^\[CONNECTED\]\s*==\s*true$/.test(text) && (kind === 'tcp' || kind === 'tls')) {
      // What a tcp or tls check is.
    } else if (/^\[DNS_RCODE\]\s*==\s*NOERROR$/.test(text) && kind === 'dns') {
      // A dns check fails on any other answer code.
    } else if ((m = /^\[BODY\]\s*==\s*([^\s()]+)$/.exec(text)) && kind === 'dns') {
      out.expectedDns.push(m[1]!)
    } else if ((m = /^\[CERTIFICATE_EXPIRATION\]\s*>\s*(\S+)$/.exec(text))) {
      const ms = goDuration(m[1])
      if (kind !== 'tls' || ms === null) no(text, 'certificate expiry is checked by a separate tls (or ssl) monitor in Lantern; add one for this host')
      else out.certificateDays = Math.max(1, Math.ceil(ms / 86_400_000))
    } else if ((m = /^\[BODY\]\s*==\s*pat\(\*([^*]+)\*\)$/.exec(text)) && kind === 'http') {
      keywords.push(m[1]!)
    } else if (kind === 'http' && /^(\[BODY\]|len\(\[BODY\]|has\(\[BODY\])/.test(text)) {
      const translated = bodyCondition(text)
      if ('reason' in translated) no(text, translated.reason)
      else {
        out.conditions.push(translated.condition)
        out.readsBody = true
      }
    } else {
      no(text, 'Lantern has no counterpart for this condition')
    }
  }
  if (status.length > 0) out.acceptedStatus = status.join(',')
  if (keywords.length === 1 && !out.readsBody) out.keyword = keywords[0]!
  else for (const k of keywords) {
    out.conditions.push(`[BODY] contains ${JSON.stringify(k)}`)
    out.readsBody = true
  }
  return out
}

/** One `[BODY]…`, `len([BODY]…)` or `has([BODY]…)` condition in Lantern's language, checked by its parser. */
function bodyCondition(text: string): { condition: string } | { reason: string } {
  let condition: string
  let m: RegExpExecArray | null
  if ((m = /^has\((\[BODY\][^)]*)\)\s*==\s*(true|false)$/.exec(text))) {
    if (m[2] === 'false') return { reason: 'Lantern conditions cannot test that a key is absent' }
    condition = `has(${m[1]})`
  } else if (/any\(|pat\(/.test(text)) {
    return { reason: 'any() and pat() on a body value have no Lantern counterpart' }
  } else if ((m = /^((?:len\()?\[BODY\][^\s]*?\)?)\s*(==|!=|<=|>=|<|>)\s*(.+)$/.exec(text))) {
    condition = `${m[1]} ${m[2]} ${literal(m[3]!)}`
  } else return { reason: 'Lantern has no counterpart for this condition' }
  const parsed = parseConditions([condition])
  return parsed.ok ? { condition } : { reason: `not a Lantern condition (${parsed.errors[0]?.message})` }
}

const slugOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50) || 'status'

export function planFromGatus(config: unknown): ImportPlan {
  const root = obj(config)
  if (!Array.isArray(root.endpoints) && !Array.isArray(root['external-endpoints'])) {
    throw badRequest('this is not a Gatus configuration: it has no "endpoints" or "external-endpoints" list')
  }
  const skipped: ReportLine[] = []
  const changed: ReportLine[] = []
  const ui = obj(root.ui)
  const title = (str(ui.title) ?? 'Status').slice(0, 100)
  const pageKey = 'page'
  const description = importedDescription(str(ui.description), MAX_PAGE_DESCRIPTION)
  if (description.cut) changed.push({ kind: 'ui setting', name: 'description', reason: `cut to ${MAX_PAGE_DESCRIPTION} characters` })
  const pages = [{ key: pageKey, slug: slugOf(str(ui.title)?.split('|')[0] ?? 'status'), name: title, customDomain: null, customCss: str(ui['custom-css']), description: description.text }]
  const uiLeft = ['header', 'logo', 'link', 'buttons', 'dashboard-heading', 'dashboard-subheading'].filter((k) => ui[k] !== undefined)
  if (uiLeft.length > 0) skipped.push({ kind: 'ui setting', name: uiLeft.join(', '), reason: 'Lantern pages have no such fields (set the page text, logo and colours in the web app)' })
  for (const key of ['security', 'announcements', 'maintenance', 'storage', 'web', 'metrics', 'remote', 'connectivity']) {
    if (root[key] === undefined) continue
    const reason: Record<string, string> = {
      security: 'Lantern has its own accounts; make the page private with a password if it was behind basic auth',
      announcements: 'announcements are not brought; post current ones as incidents',
      maintenance: 'the global maintenance window repeats; Lantern maintenances are single windows',
      storage: 'Lantern keeps its own database', web: 'Lantern has its own server settings', metrics: 'Lantern serves /metrics on its own',
      remote: 'no counterpart', connectivity: 'no counterpart',
    }
    skipped.push({ kind: 'setting', name: key, reason: reason[key]! })
  }

  const components: PlannedComponent[] = []
  const monitors: PlannedMonitor[] = []
  let position = 0
  const groupOrder: string[] = []
  const entries = [...list(root.endpoints).map((e) => ({ e: obj(e), external: false })), ...list(root['external-endpoints']).map((e) => ({ e: obj(e), external: true }))]
  for (const { e } of entries) {
    const g = str(e.group) ?? ''
    if (!groupOrder.includes(g)) groupOrder.push(g)
  }
  entries.sort((a, b) => groupOrder.indexOf(str(a.e.group) ?? '') - groupOrder.indexOf(str(b.e.group) ?? ''))
  for (const { e, external } of entries) {
    const name = (str(e.name) ?? 'endpoint').slice(0, 100)
    const group = str(e.group)
    const key = `${external ? 'external-endpoint' : 'endpoint'}:${group ?? ''}/${name}`
    const note = (reason: string) => changed.push({ kind: external ? 'external endpoint' : 'endpoint', name, reason })
    const url = str(e.url) ?? ''
    const kind: 'http' | 'tcp' | 'tls' | 'dns' | 'push' | 'ping' | 'websocket' | null = external
      ? 'push'
      : e.dns
        ? 'dns'
        : /^https?:\/\//i.test(url)
          ? 'http'
          : url.startsWith('tcp://')
            ? 'tcp'
            : url.startsWith('tls://')
              ? 'tls'
              : url.startsWith('icmp://')
                ? 'ping'
                : /^wss?:\/\//i.test(url)
                  ? 'websocket'
                  : null
    if (kind === null) {
      skipped.push({ kind: 'endpoint', name, reason: `Lantern has no check for ${url.split('://')[0] || 'this'}:// endpoints` })
      continue
    }
    const componentType: ComponentType = kind === 'dns' ? 'dns' : kind === 'http' ? 'site' : 'api'
    const componentKey = `${key}:component`
    components.push({ key: componentKey, pageKey, name, type: componentType, groupName: group, position: position++, description: '', history: [] })
    if (list(e['maintenance-windows']).length > 0) skipped.push({ kind: 'maintenance window', name, reason: 'it repeats; Lantern maintenances are single windows' })
    for (const alert of list(e.alerts)) {
      const a = obj(alert)
      if (a['failure-threshold'] !== undefined || a['success-threshold'] !== undefined || a['minimum-reminder-interval'] !== undefined) {
        note(`the ${str(a.type)} alert's thresholds are not kept; the channel hears the component's status changes`)
        break
      }
    }
    const intervalMs = external ? goDuration(obj(e.heartbeat).interval) : goDuration(e.interval) ?? 60_000
    const wanted = Math.round((intervalMs ?? 3_600_000) / 1000)
    const interval = Math.min(MAX_INTERVAL_SECONDS, Math.max(MIN_INTERVAL_SECONDS, wanted))
    if (interval !== wanted) note(`interval ${wanted} s became ${interval} s (Lantern checks every ${MIN_INTERVAL_SECONDS} to ${MAX_INTERVAL_SECONDS} s)`)
    const base: MonitorInput = { name, interval_seconds: interval, retries: 0, confirm_failures: 1, confirm_successes: 1 }
    const timeout = goDuration(obj(e.client).timeout)
    if (timeout !== null) base.timeout_ms = Math.min(60_000, Math.max(100, timeout))
    if (obj(e.client).oauth2 || obj(e.client)['identity-aware-proxy']) note('its client credentials (OAuth2) are not kept: add an Authorization header by hand, or the check will be refused')
    let input: MonitorInput
    if (kind === 'push') {
      input = { ...base, type: 'push', push_grace_seconds: 0 }
    } else {
      // A ping or WebSocket check, like a TCP one, has only [CONNECTED] and [RESPONSE_TIME] to compare.
      const t = translateConditions(list(e.conditions), kind === 'ping' || kind === 'websocket' ? 'tcp' : kind)
      for (const u of t.untranslated) skipped.push({ kind: 'condition', name: `${name}: ${u.condition}`, reason: u.reason })
      if (kind === 'http') {
        const headers = Object.fromEntries(Object.entries(obj(e.headers)).map(([k, v]) => [k, String(v)]))
        let body = str(e.body)
        if (e.graphql === true && body) {
          body = JSON.stringify({ query: body })
          headers['Content-Type'] ??= 'application/json'
        }
        if (body && /\[(RANDOM_STRING_\d+|ENDPOINT_\w+|CONTEXT_\w+)\]/.test(body)) note('its body placeholders ([RANDOM_STRING_8], [ENDPOINT_NAME]…) are sent as written')
        input = { ...base, type: t.readsBody ? 'json' : t.keyword ? 'keyword' : 'http', target: url, method: (str(e.method) ?? 'GET').toUpperCase() as MonitorInput['method'] }
        if (Object.keys(headers).length > 0) input.headers = headers
        if (body) input.body = body
        if (t.acceptedStatus) input.accepted_status = t.acceptedStatus
        if (t.readsBody) {
          input.conditions = [...t.conditions, ...(t.responseTimeMs !== null ? [`[RESPONSE_TIME] < ${t.responseTimeMs}`] : [])]
        } else if (t.keyword) {
          input.keyword = t.keyword
          input.keyword_present = true
          input.keyword_case_sensitive = true
        }
        if (!t.readsBody && t.responseTimeMs !== null) {
          input.degraded_after_ms = Math.min(t.responseTimeMs, (input.timeout_ms ?? 10_000) - 1)
          note(`[RESPONSE_TIME] < ${t.responseTimeMs} became "degraded above ${input.degraded_after_ms} ms" (a plain HTTP monitor has no conditions)`)
        }
      } else if (kind === 'ping' || kind === 'websocket') {
        input = { ...base, type: kind, target: kind === 'ping' ? url.replace(/^icmp:\/\//, '') : url }
        if (t.responseTimeMs !== null) {
          input.degraded_after_ms = Math.min(t.responseTimeMs, (input.timeout_ms ?? 10_000) - 1)
          note(`[RESPONSE_TIME] < ${t.responseTimeMs} became "degraded above ${input.degraded_after_ms} ms"`)
        }
      } else if (kind === 'tcp' || kind === 'tls') {
        const hostPort = url.replace(/^\w+:\/\//, '')
        input = { ...base, type: kind, target: hostPort }
        if (kind === 'tls' && t.certificateDays !== null) input.tls_fail_below_days = t.certificateDays
        if (t.responseTimeMs !== null) input.degraded_after_ms = Math.min(t.responseTimeMs, (input.timeout_ms ?? 10_000) - 1)
        if (t.responseTimeMs !== null) note(`[RESPONSE_TIME] < ${t.responseTimeMs} became "degraded above ${input.degraded_after_ms} ms"`)
        if (str(e.body)) skipped.push({ kind: 'condition', name: `${name}: body ${JSON.stringify(str(e.body))}`, reason: 'Lantern tcp checks connect only; they send nothing' })
      } else {
        const dns = obj(e.dns)
        input = { ...base, type: 'dns', target: str(dns['query-name']) ?? '', record_type: (str(dns['query-type']) ?? 'A').toUpperCase() as MonitorInput['record_type'] }
        if (url) input.resolver = url.replace(/^\w+:\/\//, '')
        if (t.expectedDns.length > 0) input.expected = t.expectedDns
        if (t.responseTimeMs !== null) input.degraded_after_ms = Math.min(t.responseTimeMs, (input.timeout_ms ?? 10_000) - 1)
      }
    }
    monitors.push({ key, input, enabled: e.enabled !== false, componentKey, pageKey, pushToken: external ? str(e.token) : null })
  }

  const channels: PlannedChannel[] = []
  for (const [provider, rawSettings] of Object.entries(obj(root.alerting))) {
    const p = obj(rawSettings)
    const name = `Gatus ${provider}`
    const noteC = (reason: string) => changed.push({ kind: 'alerting provider', name: provider, reason })
    let type: ChannelType
    let input: Record<string, string | undefined>
    switch (provider) {
      case 'slack':
      case 'discord':
      case 'teams':
        type = provider
        input = { url: str(p['webhook-url']) ?? undefined }
        break
      case 'email': {
        const to = (str(p.to) ?? '').split(',').map((s) => s.trim()).filter(Boolean)
        if (to.length > 1) noteC(`only the first recipient (${to[0]}) is kept; add a channel for each other address`)
        noteC('Lantern sends from its own mail server and asks the address to confirm before mailing it')
        type = 'email'
        input = { address: to[0] }
        break
      }
      case 'pagerduty':
        type = 'pagerduty'
        input = { routing_key: str(p['integration-key']) ?? undefined }
        break
      case 'ntfy': {
        const server = str(p.url)
        if (server && !/^https:\/\/ntfy\.sh\/?$/.test(server)) {
          skipped.push({ kind: 'alerting provider', name: provider, reason: `it posts to the ntfy server ${server}; Lantern's ntfy channels post to ntfy.sh` })
          continue
        }
        type = 'ntfy'
        input = { topic: str(p.topic) ?? undefined, access_token: str(p.token) ?? undefined }
        break
      }
      case 'custom':
        type = 'webhook'
        input = { url: str(p.url) ?? undefined }
        noteC('its method, headers, body and placeholders are not kept; Lantern posts its own signed JSON (Standard Webhooks)')
        break
      default:
        skipped.push({ kind: 'alerting provider', name: provider, reason: `Lantern has no "${provider}" channel type` })
        continue
    }
    for (const o of list(p.overrides)) skipped.push({ kind: 'alerting override', name: `${provider} for group ${str(obj(o).group) ?? '?'}`, reason: 'Lantern channels follow pages, not groups: add a channel by hand if this group needs its own' })
    try {
      channels.push({ key: `alerting:${provider}`, type, name, settings: parseSettings(type, input), enabled: true, allPages: false, pageKeys: [pageKey] })
    } catch (error) {
      skipped.push({ kind: 'alerting provider', name: provider, reason: error instanceof Error ? error.message : String(error) })
    }
  }
  return { source: 'gatus', sourceVersion: 'v5', pages, components, monitors, channels, maintenances: [], skipped, changed }
}
