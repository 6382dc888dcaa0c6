/** IP addresses as text and as numbers: canonical form, value and back (pure). */
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

export function ipText(bits: 32 | 128, value: bigint): string {
  if (bits === 32) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.')
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((value >> shift) & 0xffffn).toString(16))
  return normalizeIp(groups.join(':'))!
}
