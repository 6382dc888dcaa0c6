/**
 * Configuration from the environment (DESIGN §3): pure, validated, frozen. A bad value throws a
 * ConfigError whose message is the one line `main.ts` prints before it exits.
 */
import { OperationsConfigError, readOperationsConfig, type OperationsConfig } from './modules/operations/config.ts'
import { isPlan, PLANS, type Plan } from './modules/plans/matrix.ts'

export interface Config {
  readonly port: number
  readonly host: string
  readonly databasePath: string
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
  /** WORKERS, REQUEST_LOG, RATE_LIMIT, TRUST_PROXY (src/modules/operations/config.ts). */
  readonly operations: OperationsConfig
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

function readOperations(env: Env, port: number): OperationsConfig {
  try {
    return readOperationsConfig(env, port)
  } catch (error) {
    throw error instanceof OperationsConfigError ? new ConfigError(error.message) : error
  }
}

export function loadConfig(env: Env): Config {
  const port = readPort(env)
  const host = env.HOST?.trim() || '0.0.0.0'
  const databasePath = env.DATABASE_PATH?.trim() || 'db/lantern.sqlite'
  return Object.freeze({
    port,
    host,
    databasePath,
    ...readBaseUrl(env, port),
    statusDomain: readStatusDomain(env, port),
    defaultPlan: readDefaultPlan(env),
    signup: readSignup(env),
    metricsToken: readMetricsToken(env),
    operations: readOperations(env, port),
  })
}
