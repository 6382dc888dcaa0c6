/**
 * Configuration from the environment: pure, validated, frozen. A bad value throws a
 * ConfigError whose message is the one line `main.ts` prints before it exits.
 */
import { ipText, ipValue, normalizeIp } from './lib/ip.ts'
import { isPlan, PLANS, type Plan } from './lib/plans.ts'
import { readPrivateTargets, type PrivateTargets } from './lib/address-guard.ts'

export interface Config {
  readonly port: number
  readonly host: string
  readonly databasePath: string
  /** DATABASE_URL=postgres://…: PostgreSQL instead of the SQLite file (src/db/postgres.ts). */
  readonly databaseUrl?: string | undefined
  /** The service host's origin, without a trailing slash, e.g. `https://status.example.com`. */
  readonly baseUrl: string
  /** `https:` or `http:`, taken from BASE_URL; status page URLs use it too. */
  readonly scheme: 'http' | 'https'
  /** Host (and optional port) under which `<slug>.<statusDomain>` status pages live. */
  readonly statusDomain: string
  readonly defaultPlan: Plan
  /** `open`: anyone may create an account at /user/signup; `closed` (default): the CLI creates users. */
  readonly signup: 'open' | 'closed'
  /** METRICS_TOKEN: set, `GET /metrics` answers to `Authorization: Bearer <token>`; unset, it is 404. */
  readonly metricsToken?: string | undefined
  /** METRICS_MONITOR_SERIES, METRICS_MONITOR_SERIES_MAX: the per-monitor series of `/metrics` (readMetricsConfig below). */
  readonly metrics: MetricsConfig
  /** WORKERS, REQUEST_LOG, RATE_LIMIT, TRUST_PROXY (readOperationsConfig below). */
  readonly operations: OperationsConfig
  /** MONITOR_PRIVATE_TARGETS (src/lib/address-guard.ts): private monitor targets allowed, all or some networks. */
  readonly monitorPrivateTargets: PrivateTargets
  /** RDAP_BOOTSTRAP_PATH: domain_expiry monitors' stored copy of IANA's RDAP bootstrap data (absent: db/rdap-dns.json). */
  readonly rdapBootstrapPath?: string
  /** PING_COMMAND: the system's ping for ping monitors (absent: `ping` on the PATH). */
  readonly pingCommand?: string
  /** SMTP_* and MAIL_FROM, DKIM_* (readMailConfig below); `enabled` is false without SMTP_HOST. */
  readonly mail: MailConfig
  /** TELEGRAM_API_URL, SLACK_API_URL, NTFY_URL, PAGERDUTY_EVENTS_URL (readChannelsConfig below). */
  readonly channels: ChannelsConfig
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_NAME: single sign-on (readOidcConfig below); undefined when not set. */
  readonly oidc?: OidcConfig | undefined
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

type Env = Record<string, string | undefined>

function readPort(env: Env): number {
  const raw = env.PORT?.trim()
  if (raw === undefined || raw === '') return 3000
  const port = Number(raw)
  if (!/^\d+$/.test(raw) || !Number.isInteger(port) || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535 (0 picks a free port), got "${raw}"`)
  }
  return port
}

function readBaseUrl(env: Env, port: number): { baseUrl: string; scheme: 'http' | 'https' } {
  const raw = env.BASE_URL?.trim() || `http://localhost:${port}`
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`BASE_URL must be an absolute http(s) URL, got "${raw}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`BASE_URL must use http or https, got "${raw}"`)
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`BASE_URL must be an origin without path, query or credentials, got "${raw}"`)
  }
  return { baseUrl: url.origin, scheme: url.protocol === 'https:' ? 'https' : 'http' }
}

const HOST_WITH_PORT = /^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?$/

function readStatusDomain(env: Env, port: number): string {
  const raw = env.STATUS_DOMAIN?.trim().toLowerCase() || `localhost:${port}`
  if (!HOST_WITH_PORT.test(raw)) {
    throw new ConfigError(`STATUS_DOMAIN must be a host name with an optional port, got "${raw}"`)
  }
  return raw
}

function readDefaultPlan(env: Env): Plan {
  const raw = env.DEFAULT_PLAN?.trim() || 'enterprise'
  if (!isPlan(raw)) throw new ConfigError(`DEFAULT_PLAN must be one of ${PLANS.join(', ')}, got "${raw}"`)
  return raw
}

function readSignup(env: Env): 'open' | 'closed' {
  const raw = env.SIGNUP?.trim().toLowerCase() || 'closed'
  if (raw !== 'open' && raw !== 'closed') throw new ConfigError(`SIGNUP must be "open" or "closed", got "${env.SIGNUP}"`)
  return raw
}

const METRICS_TOKEN_MIN_LENGTH = 32

function readMetricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN?.trim()
  if (!raw) return undefined
  // It travels in a header and guards figures about the whole instance: long, and one plain word.
  if (!/^[\x21-\x7e]+$/.test(raw)) throw new ConfigError('METRICS_TOKEN must be printable ASCII without spaces')
  if (raw.length < METRICS_TOKEN_MIN_LENGTH) {
    throw new ConfigError(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters (e.g. \`openssl rand -hex 32\`), got ${raw.length}`)
  }
  return raw
}

export interface MetricsConfig {
  /** Series labelled `monitor_id` (`METRICS_MONITOR_SERIES`, default on); off, only the totals over all monitors. */
  readonly monitorSeries: boolean
  /** At most this many monitors get them, lowest ids first (`METRICS_MONITOR_SERIES_MAX`, default 10,000). */
  readonly monitorSeriesMax: number
}

export function readMetricsConfig(env: Env): MetricsConfig {
  return Object.freeze({
    monitorSeries: flag(env, 'METRICS_MONITOR_SERIES', true),
    monitorSeriesMax: integer(env, 'METRICS_MONITOR_SERIES_MAX', 10_000, 1, 1_000_000),
  })
}

export function loadConfig(env: Env): Config {
  const port = readPort(env)
  const host = env.HOST?.trim() || '0.0.0.0'
  const databasePath = env.DATABASE_PATH?.trim() || 'db/lantern.sqlite'
  return Object.freeze({
    port,
    host,
    databasePath,
    databaseUrl: readDatabaseUrl(env),
    ...readBaseUrl(env, port),
    statusDomain: readStatusDomain(env, port),
    defaultPlan: readDefaultPlan(env),
    signup: readSignup(env),
    metricsToken: readMetricsToken(env),
    metrics: readMetricsConfig(env),
    operations: readOperationsConfig(env, port),
    monitorPrivateTargets: readMonitorPrivateTargets(env),
    ...(env.RDAP_BOOTSTRAP_PATH?.trim() ? { rdapBootstrapPath: env.RDAP_BOOTSTRAP_PATH.trim() } : {}),
    ...(env.PING_COMMAND?.trim() ? { pingCommand: env.PING_COMMAND.trim() } : {}),
    mail: readMailConfig(env),
    channels: readChannelsConfig(env, (message) => new ConfigError(message)),
    oidc: readOidcConfig(env, readBaseUrl(env, port).baseUrl),
  })
}

function readDatabaseUrl(env: Env): string | undefined {
  const raw = env.DATABASE_URL?.trim()
  if (!raw) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL')
  }
  // The URL may carry a password: never echo it back.
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new ConfigError('DATABASE_URL must be a postgres:// URL')
  if (!url.hostname || url.pathname.length < 2) throw new ConfigError('DATABASE_URL must name a host and a database, e.g. postgres://lantern@db:5432/lantern')
  return raw
}

function readMonitorPrivateTargets(env: Env): PrivateTargets {
  try {
    return readPrivateTargets(env)
  } catch (error) {
    throw new ConfigError((error as Error).message)
  }
}

// Operations settings: workers, request log, rate limit and trusted proxies.

export interface OperationsConfig {
  /** Server processes sharing the port (`WORKERS`, 1–64). */
  readonly workers: number
  /** One JSON line per request on stdout (`REQUEST_LOG=1`). */
  readonly requestLog: boolean
  /** Requests a minute per client on public APIs (`RATE_LIMIT`); 0 = no limit. */
  readonly rateLimitPerMinute: number
  /**
   * Proxies whose X-Forwarded-For is believed (`TRUST_PROXY`: comma-separated addresses and CIDR
   * ranges, `none`; default loopback), in canonical form: `10.0.0.0/8`, `fd00::/8`, `127.0.0.1`.
   */
  readonly trustedProxies: readonly string[]
}

/** One TRUST_PROXY entry in canonical form: an address or `network/prefix`. */
function trustEntry(part: string): string {
  const refuse = (why = '') => new ConfigError(`TRUST_PROXY must list IP addresses or CIDR ranges (10.0.0.0/8, fd00::/8) separated by commas, got "${part}"${why}`)
  const [address = '', prefixText, ...extra] = part.split('/')
  const ip = normalizeIp(address)
  if (!ip || extra.length > 0) throw refuse()
  if (prefixText === undefined) return ip
  if (!/^\d{1,3}$/.test(prefixText)) throw refuse()
  let prefix = Number(prefixText)
  // `::ffff:10.0.0.0/104` is an IPv4 range written as IPv6; normalizeIp already gave the IPv4 address.
  if (address.includes(':') && !ip.includes(':')) {
    if (prefix < 96) throw refuse(' (an IPv4-mapped range needs a prefix of at least 96)')
    prefix -= 96
  }
  const { bits, value } = ipValue(ip)
  if (prefix > bits) throw refuse(` (the prefix is at most ${bits})`)
  const hostBits = (1n << BigInt(bits - prefix)) - 1n
  if ((value & hostBits) !== 0n) throw refuse(` (the range starts at ${ipText(bits, value & ~hostBits)}/${prefix})`)
  return `${ip}/${prefix}`
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
  }
  return value
}

function flag(env: Env, name: string, fallback = false): boolean {
  const raw = env[name]?.trim().toLowerCase()
  if (raw === undefined || raw === '') return fallback
  if (raw === '0' || raw === 'false' || raw === 'off') return false
  if (raw === '1' || raw === 'true' || raw === 'on') return true
  throw new ConfigError(`${name} must be 1 or 0, got "${env[name]}"`)
}

export function readOperationsConfig(env: Env, port: number): OperationsConfig {
  const workers = integer(env, 'WORKERS', 1, 1, 64)
  if (workers > 1 && port === 0) throw new ConfigError('WORKERS above 1 needs a fixed PORT (not 0)')
  // A reverse proxy on the same machine is the usual set-up, so loopback is trusted unless told otherwise.
  const trustSetting = env.TRUST_PROXY?.trim() ?? ''
  const trustedProxies = (trustSetting === '' ? '127.0.0.1,::1' : trustSetting === 'none' ? '' : trustSetting)
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(trustEntry)
  return Object.freeze({
    workers,
    requestLog: flag(env, 'REQUEST_LOG'),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT', 600, 0, 1_000_000),
    trustedProxies: Object.freeze(trustedProxies),
  })
}

// Mail: SMTP settings. Without SMTP_HOST mail is off and the instance runs without it.

export type SmtpSecurity = 'starttls' | 'tls' | 'none'

export interface MailConfig {
  readonly enabled: boolean
  /** MAIL_FROM, e.g. `Lantern <status@example.com>`; always set when enabled. */
  readonly from: string | undefined
  readonly host: string | undefined
  /** SMTP_PORT, default 587 (465 is the usual port for SMTP_SECURITY=tls). */
  readonly port: number
  /** `starttls` (default; the upgrade is required), `tls` (implicit TLS) or `none` (plain, for a local relay). */
  readonly security: SmtpSecurity
  readonly user: string | undefined
  readonly password: string | undefined
  /** SMTP_TLS_CA_FILE: a PEM file with the CA of a private relay (the server's certificate is always verified). */
  readonly tlsCaFile: string | undefined
  /** DKIM signing when DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE are all set. */
  readonly dkim: { readonly domain: string; readonly selector: string; readonly privateKeyFile: string } | undefined
}

const SMTP_SECURITY: readonly SmtpSecurity[] = ['starttls', 'tls', 'none']
/** An address with an optional display name: `a@b.example` or `Name <a@b.example>`. */
const MAIL_FROM = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/
const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/
const SELECTOR = /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/i

export function readMailConfig(env: Env): MailConfig {
  const text = (name: string) => env[name]?.trim() || undefined
  const host = text('SMTP_HOST')?.toLowerCase()
  const security = (text('SMTP_SECURITY')?.toLowerCase() ?? 'starttls') as SmtpSecurity
  if (!SMTP_SECURITY.includes(security)) throw new ConfigError(`SMTP_SECURITY must be one of ${SMTP_SECURITY.join(', ')}, got "${env.SMTP_SECURITY}"`)
  const port = integer(env, 'SMTP_PORT', 587, 1, 65535)
  const user = text('SMTP_USER')
  const password = env.SMTP_PASSWORD || undefined
  if ((user === undefined) !== (password === undefined)) throw new ConfigError('SMTP_USER and SMTP_PASSWORD must be set together')
  const from = text('MAIL_FROM')
  if (host !== undefined) {
    if (!HOST_WITH_PORT.test(host) || host.includes(':')) throw new ConfigError(`SMTP_HOST must be a host name or IPv4 address (the port goes in SMTP_PORT), got "${host}"`)
    if (from === undefined) throw new ConfigError('MAIL_FROM is required when SMTP_HOST is set (e.g. "Lantern <status@example.com>")')
  }
  if (from !== undefined && !MAIL_FROM.test(from)) throw new ConfigError(`MAIL_FROM must be an address or "Name <address>", got "${from}"`)
  const domain = text('DKIM_DOMAIN')?.toLowerCase()
  const selector = text('DKIM_SELECTOR')
  const privateKeyFile = text('DKIM_PRIVATE_KEY_FILE')
  const dkimSet = [domain, selector, privateKeyFile].filter((value) => value !== undefined).length
  if (dkimSet !== 0 && dkimSet !== 3) throw new ConfigError('DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE must be set together')
  if (domain !== undefined && !DOMAIN.test(domain)) throw new ConfigError(`DKIM_DOMAIN must be a domain name, got "${domain}"`)
  if (selector !== undefined && !SELECTOR.test(selector)) throw new ConfigError(`DKIM_SELECTOR must be letters, digits, dots, dashes or underscores, got "${selector}"`)
  return Object.freeze({
    enabled: host !== undefined,
    from,
    host,
    port,
    security,
    user,
    password,
    tlsCaFile: text('SMTP_TLS_CA_FILE'),
    dkim: dkimSet === 3 ? Object.freeze({ domain: domain!, selector: selector!, privateKeyFile: privateKeyFile! }) : undefined,
  })
}

/**
 * Base URLs of the chat services, configurable so tests and self-hosted ntfy work:
 * TELEGRAM_API_URL (default https://api.telegram.org), SLACK_API_URL (https://slack.com/api, for
 * Slack bots), NTFY_URL (https://ntfy.sh), PAGERDUTY_EVENTS_URL (https://events.pagerduty.com/v2/enqueue).
 * Slack incoming webhooks, Discord and Teams take the full webhook URL the owner pastes.
 */
export interface ChannelsConfig {
  readonly telegramApiUrl: string
  readonly slackApiUrl: string
  readonly ntfyUrl: string
  readonly pagerDutyEventsUrl: string
}

function serviceBaseUrl(env: Env, name: string, fallback: string, fail: (message: string) => Error): string {
  const raw = env[name]?.trim() || fallback
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw fail(`${name} must be an absolute http(s) URL, got "${raw}"`)
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) {
    throw fail(`${name} must be an http(s) URL without credentials, query or fragment, got "${raw}"`)
  }
  return url.href.replace(/\/+$/, '')
}

export function readChannelsConfig(env: Env, fail: (message: string) => Error): ChannelsConfig {
  return Object.freeze({
    telegramApiUrl: serviceBaseUrl(env, 'TELEGRAM_API_URL', 'https://api.telegram.org', fail),
    slackApiUrl: serviceBaseUrl(env, 'SLACK_API_URL', 'https://slack.com/api', fail),
    ntfyUrl: serviceBaseUrl(env, 'NTFY_URL', 'https://ntfy.sh', fail),
    pagerDutyEventsUrl: serviceBaseUrl(env, 'PAGERDUTY_EVENTS_URL', 'https://events.pagerduty.com/v2/enqueue', fail),
  })
}

// Single sign-on with OpenID Connect: one identity provider for the instance, or none.

export interface OidcConfig {
  /** The provider's issuer URL, as its discovery document names it (`https://id.example.com/realms/acme`). */
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
  /** The provider's name on the login screen's button: "Sign in with <name>" (OIDC_NAME, default "single sign-on"). */
  readonly name: string
  /** `<BASE_URL>/user/sso/callback`: what the provider must have registered for the client. */
  readonly redirectUri: string
  /**
   * Plain http to the provider: only for an issuer on the loopback interface (a provider on the same
   * machine, or a test's), never across a network where the code and tokens could be read.
   */
  readonly allowInsecureRequests: boolean
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

export function readOidcConfig(env: Env, baseUrl: string): OidcConfig | undefined {
  const text = (name: string) => env[name]?.trim() || undefined
  const issuerRaw = text('OIDC_ISSUER')
  const clientId = text('OIDC_CLIENT_ID')
  const clientSecret = env.OIDC_CLIENT_SECRET || undefined
  const set = [issuerRaw, clientId, clientSecret].filter((value) => value !== undefined).length
  if (set === 0) {
    if (text('OIDC_NAME') !== undefined) throw new ConfigError('OIDC_NAME needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET')
    return undefined
  }
  if (set !== 3) throw new ConfigError('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (or none of them)')
  let issuer: URL
  try {
    issuer = new URL(issuerRaw!)
  } catch {
    throw new ConfigError(`OIDC_ISSUER must be an absolute https URL, got "${issuerRaw}"`)
  }
  if (issuer.username || issuer.password || issuer.search || issuer.hash) {
    throw new ConfigError(`OIDC_ISSUER must be a URL without credentials, query or fragment, got "${issuerRaw}"`)
  }
  const loopback = LOOPBACK_HOSTS.has(issuer.hostname)
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && loopback)) {
    throw new ConfigError(`OIDC_ISSUER must use https (plain http only for a provider on 127.0.0.1, ::1 or localhost), got "${issuerRaw}"`)
  }
  if (!/^[\x21-\x7e]{1,255}$/.test(clientId!)) throw new ConfigError('OIDC_CLIENT_ID must be 1 to 255 printable ASCII characters without spaces')
  if (clientSecret!.length > 1024 || /[\u0000-\u001f\u007f]/.test(clientSecret!)) throw new ConfigError('OIDC_CLIENT_SECRET must be at most 1024 characters without control characters')
  const name = text('OIDC_NAME') ?? 'single sign-on'
  if (name.length > 60 || /[\u0000-\u001f\u007f]/.test(name) || !name.isWellFormed()) throw new ConfigError('OIDC_NAME must be at most 60 characters without control characters')
  return Object.freeze({
    // Without a trailing slash: discovery appends `/.well-known/openid-configuration` to it.
    issuer: issuer.href.replace(/\/$/, ''),
    clientId: clientId!,
    clientSecret: clientSecret!,
    name,
    redirectUri: `${baseUrl}/user/sso/callback`,
    allowInsecureRequests: issuer.protocol === 'http:',
  })
}
