/**
 * Operations settings from the environment (part of `Config`, see src/config.ts): workers, request
 * log, rate limit and trusted proxies. Pure; a bad value is a ConfigError naming the variable.
 */
export interface OperationsConfig {
  /** Server processes sharing the port (`WORKERS`, 1–64). */
  readonly workers: number
  /** One JSON line per request on stdout (`REQUEST_LOG=1`). */
  readonly requestLog: boolean
  /** Requests a minute per client on public APIs (`RATE_LIMIT`); 0 = no limit. */
  readonly rateLimitPerMinute: number
  /** Proxies whose X-Forwarded-For is believed (`TRUST_PROXY`: comma-separated addresses, `none`; default loopback). */
  readonly trustedProxies: readonly string[]
}

type Env = Record<string, string | undefined>

export class OperationsConfigError extends Error {}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/

/** The canonical text of an IP address, or undefined when `value` is not one. */
export function normalizeIp(value: string): string | undefined {
  const raw = value.trim()
  if (IPV4.test(raw)) return raw
  if (!raw.includes(':') || !/^[0-9a-fA-F:.]+$/.test(raw)) return undefined
  try {
    // The URL parser is the standard IPv6 validator and canonicaliser at hand.
    const host = new URL(`http://[${raw}]/`).hostname.slice(1, -1)
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host)
    if (mapped) {
      const hi = Number.parseInt(mapped[1]!, 16)
      const lo = Number.parseInt(mapped[2]!, 16)
      return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
    }
    return host
  } catch {
    return undefined
  }
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new OperationsConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
  }
  return value
}

function flag(env: Env, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase()
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false' || raw === 'off') return false
  if (raw === '1' || raw === 'true' || raw === 'on') return true
  throw new OperationsConfigError(`${name} must be 1 or 0, got "${env[name]}"`)
}

export function readOperationsConfig(env: Env, port: number): OperationsConfig {
  const workers = integer(env, 'WORKERS', 1, 1, 64)
  if (workers > 1 && port === 0) throw new OperationsConfigError('WORKERS above 1 needs a fixed PORT (not 0)')
  // A reverse proxy on the same machine is the usual set-up, so loopback is trusted unless told otherwise.
  const trustSetting = env.TRUST_PROXY?.trim() ?? ''
  const trustedProxies = (trustSetting === '' ? '127.0.0.1,::1' : trustSetting === 'none' ? '' : trustSetting)
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const ip = normalizeIp(part)
      if (!ip) throw new OperationsConfigError(`TRUST_PROXY must list IP addresses separated by commas, got "${part}"`)
      return ip
    })
  return Object.freeze({
    workers,
    requestLog: flag(env, 'REQUEST_LOG'),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT', 600, 0, 1_000_000),
    trustedProxies: Object.freeze(trustedProxies),
  })
}
