/**
 * Semantic checks of a MonitorSpec for the API (shape is the route schema's job): every problem
 * comes back with its field, so a bad monitor is a 400 that names what to fix. Pure.
 */
import type { AddressGuard } from '../../../lib/address-guard.ts'
import { MAX_CONDITIONS, parseConditions } from './conditions.ts'
import { parseResolver } from './dns.ts'
import { DEAD_DNSBL_ZONES, dnsblTargetAddress, MAX_DNSBL_ZONES } from './dnsbl-zones.ts'
import { DEFAULTS, DNS_RECORD_TYPES, HTTP_METHODS, type MonitorSpec } from './spec.ts'
import { parseAcceptedStatus } from './status-codes.ts'
import { validateEmailAuthSpec } from './email-auth/monitor.ts'

export interface SpecProblem {
  field: string
  message: string
  /** For conditions: which one and the 0-based offset of the fault. */
  index?: number
  position?: number
}

export const MAX_REQUEST_BODY = 64 * 1024
export const MAX_HEADERS = 32
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/
const DNS_NAME = /^(?=.{1,253}\.?$)(?:(?!-)[A-Za-z0-9_-]{1,63}(?<!-)\.)*(?!-)[A-Za-z0-9_-]{1,63}(?<!-)\.?$/

export function validateSpec(spec: MonitorSpec, guard: AddressGuard): SpecProblem[] {
  const problems: SpecProblem[] = []
  const problem = (field: string, message: string) => problems.push({ field, message })
  if (!Number.isInteger(spec.timeoutMs) || spec.timeoutMs < 100 || spec.timeoutMs > DEFAULTS.maxTimeoutMs) {
    problem('timeoutMs', `timeout must be from 100 to ${DEFAULTS.maxTimeoutMs} ms`)
  }
  if (spec.degradedAfterMs != null && (!Number.isInteger(spec.degradedAfterMs) || spec.degradedAfterMs < 1 || spec.degradedAfterMs >= spec.timeoutMs)) {
    problem('degradedAfterMs', 'the degraded threshold must be a whole number of ms below the timeout')
  }
  const host = (field: string, value: string) => {
    const refusal = guard.refusesLiteral(value)
    if (refusal) problem(field, refusal)
  }
  const port = (field: string, value: number | undefined) => {
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > 65535)) problem(field, 'port must be from 1 to 65535')
  }

  switch (spec.type) {
    case 'http': {
      let url: URL | undefined
      try {
        url = new URL(spec.url)
      } catch {
        problem('url', 'must be an absolute http(s) URL')
      }
      if (url) {
        if (url.protocol !== 'http:' && url.protocol !== 'https:') problem('url', 'must use http or https')
        else if (url.username || url.password) problem('url', 'must not carry credentials; use an Authorization header')
        else host('url', url.hostname)
      }
      if (spec.method !== undefined && !HTTP_METHODS.includes(spec.method)) problem('method', `must be one of ${HTTP_METHODS.join(', ')}`)
      const headers = Object.entries(spec.headers ?? {})
      if (headers.length > MAX_HEADERS) problem('headers', `at most ${MAX_HEADERS} headers`)
      for (const [name, value] of headers) {
        if (!HEADER_NAME.test(name)) problem('headers', `"${name.slice(0, 100)}" is not a header name`)
        else if (typeof value !== 'string' || /[\r\n\0]/.test(value) || value.length > 4096) problem('headers', `${name} must be one line of at most 4096 characters`)
      }
      if (spec.body != null && new TextEncoder().encode(spec.body).byteLength > MAX_REQUEST_BODY) problem('body', `at most ${MAX_REQUEST_BODY} bytes`)
      const accepted = parseAcceptedStatus(spec.acceptedStatus ?? '200-299')
      if (!accepted.ok) problem('acceptedStatus', accepted.message)
      if (spec.keyword && (typeof spec.keyword.text !== 'string' || spec.keyword.text.length < 1 || spec.keyword.text.length > 200)) {
        problem('keyword', 'the keyword must be 1 to 200 characters')
      }
      if (spec.method === 'HEAD' && (spec.keyword || spec.conditions?.some((condition) => condition.includes('[BODY]')))) {
        problem('method', 'a HEAD request has no body for a keyword or a [BODY] condition')
      }
      const conditions = parseConditions(spec.conditions ?? [])
      if (!conditions.ok) {
        for (const error of conditions.errors) problems.push({ field: 'conditions', message: `condition ${error.index + 1}: ${error.message}`, index: error.index, position: error.position })
      } else if ((spec.conditions?.length ?? 0) > MAX_CONDITIONS) problem('conditions', `at most ${MAX_CONDITIONS}`)
      break
    }
    case 'tcp':
      host('host', spec.host)
      if (spec.port === undefined) problem('port', 'port is required')
      port('port', spec.port)
      break
    case 'tls':
      host('host', spec.host)
      port('port', spec.port)
      for (const field of ['degradedBelowDays', 'failBelowDays'] as const) {
        const value = spec[field]
        if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > 365)) problem(field, 'must be 0 to 365 days')
      }
      if ((spec.failBelowDays ?? DEFAULTS.tlsFailBelowDays) > (spec.degradedBelowDays ?? DEFAULTS.tlsDegradedBelowDays)) {
        problem('failBelowDays', 'must not be above degradedBelowDays')
      }
      break
    case 'dns': {
      if (typeof spec.name !== 'string' || !DNS_NAME.test(spec.name)) problem('name', 'must be a DNS name')
      if (!DNS_RECORD_TYPES.includes(spec.recordType)) problem('recordType', `must be one of ${DNS_RECORD_TYPES.join(', ')}`)
      if ((spec.expected?.length ?? 0) > 20 || spec.expected?.some((value) => typeof value !== 'string' || value.length > 2048)) {
        problem('expected', 'at most 20 values of at most 2048 characters')
      }
      if (spec.resolver) {
        const resolver = parseResolver(spec.resolver)
        if (!resolver) problem('resolver', 'must be an IP address with an optional port, e.g. 9.9.9.9 or [2620:fe::fe]:53')
        else host('resolver', resolver.address)
      }
      break
    }
    case 'email_auth':
      problems.push(...validateEmailAuthSpec(spec, guard))
      break
    case 'ssl':
      host('host', spec.host)
      port('port', spec.port)
      for (const field of ['warnBelowDays', 'failBelowDays'] as const) {
        const value = spec[field]
        if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > 365)) problem(field, 'must be 0 to 365 days')
      }
      if ((spec.failBelowDays ?? DEFAULTS.tlsFailBelowDays) > (spec.warnBelowDays ?? DEFAULTS.tlsDegradedBelowDays)) {
        problem('failBelowDays', 'must not be above the warning threshold')
      }
      break
    case 'dnsbl': {
      const address = dnsblTargetAddress(spec.target)
      if (address === undefined || (address === 'not-ip' && (!DNS_NAME.test(spec.target) || !spec.target.includes('.')))) {
        problem('target', 'must be an IP address or a domain name')
      }
      const zones = spec.zones ?? []
      if (zones.length > MAX_DNSBL_ZONES) problem('zones', `at most ${MAX_DNSBL_ZONES} zones`)
      for (const zone of zones) {
        if (typeof zone !== 'string' || !DNS_NAME.test(zone) || !zone.includes('.')) problem('zones', `"${String(zone).slice(0, 100)}" is not a zone name`)
        else if (DEAD_DNSBL_ZONES.includes(zone.toLowerCase().replace(/\.$/, ''))) problem('zones', `${zone} is decommissioned; it would report nothing or everything`)
      }
      break
    }
    default:
      problem('type', 'unknown monitor type')
  }
  return problems
}
