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
  /**
   * Proxies whose X-Forwarded-For is believed (`TRUST_PROXY`: comma-separated addresses and CIDR
   * ranges, `none`; default loopback), in canonical form: `10.0.0.0/8`, `fd00::/8`, `127.0.0.1`.
   */
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

/** The address as a number (32 bits for IPv4, 128 for IPv6); `ip` is canonical (from normalizeIp). */
export function ipValue(ip: string): { bits: 32 | 128; value: bigint } {
  if (!ip.includes(':')) return { bits: 32, value: ip.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(octet), 0n) }
  const [head = '', tail] = ip.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return { bits: 128, value: groups.reduce((acc, group) => (acc << 16n) | BigInt(Number.parseInt(group, 16)), 0n) }
}

function ipText(bits: 32 | 128, value: bigint): string {
  if (bits === 32) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.')
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((value >> shift) & 0xffffn).toString(16))
  return normalizeIp(groups.join(':'))!
}

/** One TRUST_PROXY entry in canonical form: an address or `network/prefix`. */
function trustEntry(part: string): string {
  const refuse = (why = '') => new OperationsConfigError(`TRUST_PROXY must list IP addresses or CIDR ranges (10.0.0.0/8, fd00::/8) separated by commas, got "${part}"${why}`)
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
    .map(trustEntry)
  return Object.freeze({
    workers,
    requestLog: flag(env, 'REQUEST_LOG'),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT', 600, 0, 1_000_000),
    trustedProxies: Object.freeze(trustedProxies),
  })
}
