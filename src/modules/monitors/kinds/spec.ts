/** What a check is asked to do (MonitorSpec), what it needs (CheckDeps) and what it answers (CheckResult). */
import type { AddressGuard } from '../../../lib/address-guard.ts'
import type { Clock } from '../../../lib/clock.ts'
import type { EmailAuthSpec } from './email-auth/check.ts'
import type { RdapBootstrap } from './rdap/bootstrap.ts'

/**
 * What one run found: the target answered well (`ok`), slowly or partly (`degraded`), or failed
 * (`fail`); or the configuration refused to run it (`misconfigured`: the address guard's rules, an
 * invalid host, a setting the engine cannot run). Only `fail` can make a monitor down.
 */
export type Outcome = 'ok' | 'degraded' | 'fail' | 'misconfigured'
export const OUTCOMES: readonly Outcome[] = ['ok', 'degraded', 'fail', 'misconfigured']

export interface CheckResult {
  outcome: Outcome
  /**
   * HTTP: start of the run (DNS included) to the final response's headers, redirects included.
   * TCP: to the connection. TLS: to the finished handshake. DNS: the query.
   * Null when nothing answered (refused by the guard, connection refused, timeout) or the run was misconfigured.
   */
  responseTimeMs: number | null
  statusCode?: number
  /** One line for the owner, at most 512 characters; never contains the response body. */
  message: string
  details?: Record<string, string | number | boolean | null>
  /** SSL and DNSBL checks: the full report (shown to the owner, and read by the recorder for events). */
  report?: ToolReport
}

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
export type HttpMethod = (typeof HTTP_METHODS)[number]

/** Fields every active check has. */
interface CommonSpec {
  /** Hard deadline of one attempt, in ms (DNS, connect, TLS, redirects and body read all inside it). */
  timeoutMs: number
  /** An ok attempt slower than this is `degraded`; null or absent: never. */
  degradedAfterMs?: number | null
}

export interface HttpSpec extends CommonSpec {
  type: 'http'
  url: string
  method?: HttpMethod
  headers?: Record<string, string>
  body?: string | null
  /** e.g. "200-299,301"; default "200-299". */
  acceptedStatus?: string
  /** Follow up to MAX_REDIRECTS redirects, re-checking every hop (default true). */
  followRedirects?: boolean
  /** Keyword in the body: must be present (default) or absent; case-sensitive unless caseSensitive is false. */
  keyword?: { text: string; present?: boolean; caseSensitive?: boolean } | null
  /** JSON conditions (conditions.ts), all must hold. */
  conditions?: string[]
}

export interface TcpSpec extends CommonSpec {
  type: 'tcp'
  host: string
  port: number
}

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT'] as const
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number]

export interface DnsSpec extends CommonSpec {
  type: 'dns'
  name: string
  recordType: DnsRecordType
  /** Every value here must be in the answer; absent or empty: any answer of the type will do. */
  expected?: string[]
  /** "ip" or "ip:port" ("[v6]:port"); absent: the instance's resolvers (CheckDeps.dnsServers). */
  resolver?: string | null
}

export interface TlsSpec extends CommonSpec {
  type: 'tls'
  host: string
  port?: number
  /** Degraded when fewer days are left (default DEFAULTS.tlsDegradedBelowDays). */
  degradedBelowDays?: number
  /** Failed when fewer days are left (default DEFAULTS.tlsFailBelowDays). */
  failBelowDays?: number
}

/** An SSL monitor: the certificate's health, on host:443 or an SMTP STARTTLS port. */
export interface SslSpec extends CommonSpec {
  type: 'ssl'
  host: string
  port: number
  /** Speak SMTP (EHLO, STARTTLS) before the handshake; absent: on for STARTTLS_PORTS (toSpec always sets it). */
  starttls?: boolean
  /** Warning when fewer days are left (default DEFAULTS.tlsDegradedBelowDays). */
  warnBelowDays?: number
  /** Fail when fewer days are left (default DEFAULTS.tlsFailBelowDays). */
  failBelowDays?: number
}

/** A DNSBL monitor: an IP, or a domain whose MX and A addresses are looked up in each zone. */
export interface DnsblSpec extends CommonSpec {
  type: 'dnsbl'
  target: string
  /** DNSBL zones; absent: DEFAULT_DNSBL_ZONES (dnsbl-zones.ts). */
  zones?: string[]
}

/** SMTP submission and relay ports: an SSL monitor speaks STARTTLS there (implicit TLS is port 465). */
export const STARTTLS_PORTS: readonly number[] = [25, 587]

/** A domain's registration expiry, read over RDAP from its TLD's registry. */
export interface DomainExpirySpec extends CommonSpec {
  type: 'domain_expiry'
  domain: string
}

/** ICMP echo requests to a host (the system's ping, given the guard-checked IP). */
export interface PingSpec extends CommonSpec {
  type: 'ping'
  host: string
  /** Echo requests per run (default 3, at most 10). */
  count?: number
}


/** Redis: PING, then optionally GET a key (its value must equal `expectedValue`, or only exist). */
export interface RedisSpec extends CommonSpec {
  type: 'redis'
  host: string
  port: number
  tls: boolean
  username?: string
  password?: string
  db?: number
  key?: string
  expectedValue?: string
}

/** PostgreSQL: connect and log in, then optionally one read-only query (first column of first row vs `expectedValue`). */
export interface PostgresSpec extends CommonSpec {
  type: 'postgres'
  host: string
  port: number
  user: string
  password?: string
  database: string
  /** disable (default), require (encrypted, any certificate) or verify-full (trusted and naming the host). */
  sslmode: 'disable' | 'require' | 'verify-full'
  query?: string
  expectedValue?: string
}

/** WebSocket: the upgrade succeeds; optionally a message is sent and the first reply must contain `expectedValue`. */
export interface WebSocketSpec extends CommonSpec {
  type: 'websocket'
  url: string
  message?: string
  expectedValue?: string
}

/** SMTP: a 220 banner and a 250 EHLO; with `starttls` the server must offer STARTTLS and finish a trusted handshake. */
export interface SmtpSpec extends CommonSpec {
  type: 'smtp'
  host: string
  port: number
  starttls: boolean
}


export type MonitorSpec =
  | HttpSpec
  | TcpSpec
  | DnsSpec
  | TlsSpec
  | SslSpec
  | DnsblSpec
  | EmailAuthSpec
  | DomainExpirySpec
  | PingSpec
  | RedisSpec
  | PostgresSpec
  | WebSocketSpec
  | SmtpSpec

export type Verdict = 'pass' | 'warning' | 'fail'

export interface SslReport {
  kind: 'ssl'
  verdict: Verdict
  /** Why the verdict is not pass (empty when it is). */
  reasons: string[]
  host: string
  port: number
  starttls: boolean
  protocol: string
  subject: string
  issuer: string
  validFrom: string
  validTo: string
  daysLeft: number
  sans: string[]
  hostCovered: boolean
  trusted: boolean
  trustError: string | null
  keyType: string
  /** RSA/DSA modulus bits, or the EC curve's size. */
  keyBits: number | null
  curve: string | null
  signatureAlgorithm: string
  fingerprint256: string
  /** Paid plans see these two (the API hides them for free plans). */
  chain: { complete: boolean; certificates: Array<{ subject: string; issuer: string; validTo: string }>; note: string } | null
  ocsp: { status: 'stapled' | 'unavailable'; note: string } | null
}

export type DnsblStatus = 'listed' | 'clear' | 'error'

export interface DnsblReport {
  kind: 'dnsbl'
  verdict: Verdict
  reasons: string[]
  target: string
  /** The addresses looked up and where each came from. */
  addresses: Array<{ address: string; source: string }>
  /** One row per (address, zone). `codes`: the 127.x answers of a listing; `error`: why a zone gave no verdict. */
  results: Array<{ address: string; zone: string; status: DnsblStatus; codes: string[]; error: string | null }>
}

export type ToolReport = SslReport | DnsblReport
export type MonitorType = MonitorSpec['type'] | 'push'

export interface CheckDeps {
  /** Resolves once, checks every address, and names the address to connect to. */
  guard: AddressGuard
  /** Wall time: certificate days left. */
  clock: Clock
  /** Monotonic milliseconds for response times (default performance.now). */
  elapsed?: () => number
  /** PEM of the CAs to trust instead of the system's (tests, private PKI). */
  trustedCa?: string
  /** The instance's own DNS resolvers ("ip" or "ip:port"), trusted; used when a DNS spec names none. */
  dnsServers?: string[]
  userAgent?: string
  /** domain_expiry: IANA's RDAP bootstrap data (default: the copy shipped with the program). */
  rdapBootstrap?: () => Promise<RdapBootstrap>
  /** ping: the system's ping command (default `ping` on the PATH; PING_COMMAND). */
  pingCommand?: string
}

/** Numbers the engine uses when a spec or setting leaves them out (see src/content/docs/monitors.md). */
export const DEFAULTS = {
  /** Body bytes read for keyword and JSON checks; the rest is never read. */
  bodyLimitBytes: 1024 * 1024,
  maxRedirects: 5,
  maxMessageLength: 512,
  /** timeout = min(10 s, 0.8 × interval) unless set. */
  timeoutMs: 10_000,
  timeoutShareOfInterval: 0.8,
  maxTimeoutMs: 60_000,
  retries: 2,
  retryDelayMs: 2_000,
  maxRetries: 5,
  confirmFailures: 2,
  confirmSuccesses: 2,
  flapWindow: 21,
  flapHighPercent: 50,
  flapLowPercent: 25,
  tlsDegradedBelowDays: 14,
  tlsFailBelowDays: 3,
  /** SSL monitors mail at these days left, once each per certificate. */
  certificateExpiryDays: [30, 15, 5],
  /** DNSBL: queries at once, and the longest one query waits. */
  dnsblConcurrency: 10,
  dnsblQueryTimeoutMs: 2_000,
  /** DNSBL zone operators ask for hourly checks at most. */
  dnsblMinIntervalSeconds: 3_600,
  pushGraceSeconds: 60,
  /** domain_expiry: degraded under each of these days left (the message names the one crossed). */
  domainExpiryWarnDays: [30, 14, 7],
} as const

/** The default timeout for a monitor run every `intervalSeconds`. */
export function defaultTimeoutMs(intervalSeconds: number): number {
  return Math.min(DEFAULTS.timeoutMs, Math.floor(intervalSeconds * 1000 * DEFAULTS.timeoutShareOfInterval))
}

/** Cuts a message to the limit; messages are single lines. */
export function clipMessage(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > DEFAULTS.maxMessageLength ? `${line.slice(0, DEFAULTS.maxMessageLength - 1)}…` : line
}
