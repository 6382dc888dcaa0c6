/**
 * The key of a client for attempt budgets: an IPv4 address as it is, an IPv6 address by its /64.
 * One IPv6 subscriber usually holds a whole /64 (often far more), so counting single IPv6
 * addresses would give them 2^64 fresh budgets. IPv4-mapped IPv6 (`::ffff:192.0.2.1`) is IPv4.
 * Anything that is not an address (`unknown`) is its own key.
 */
const HEXTET = /^[0-9a-f]{1,4}$/
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

export function clientBudgetKey(address: string): string {
  let text = address.trim().toLowerCase()
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1)
  const zone = text.indexOf('%')
  if (zone !== -1) text = text.slice(0, zone)
  if (!text.includes(':')) return text
  const hextets = expandIpv6(text)
  if (!hextets) return address
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
    return [hextets[6]! >> 8, hextets[6]! & 0xff, hextets[7]! >> 8, hextets[7]! & 0xff].join('.')
  }
  return `${hextets.slice(0, 4).map((h) => h.toString(16)).join(':')}::/64`
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a trailing dotted IPv4), or undefined. */
function expandIpv6(text: string): number[] | undefined {
  const halves = text.split('::')
  if (halves.length > 2) return undefined
  const groups = (part: string): number[] | undefined => {
    if (part === '') return []
    const out: number[] = []
    const pieces = part.split(':')
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!
      const v4 = i === pieces.length - 1 ? IPV4.exec(piece) : null
      if (v4) {
        const bytes = v4.slice(1).map(Number)
        if (bytes.some((b) => b > 255)) return undefined
        out.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!)
      } else if (HEXTET.test(piece)) {
        out.push(Number.parseInt(piece, 16))
      } else {
        return undefined
      }
    }
    return out
  }
  const head = groups(halves[0]!)
  const tail = halves.length === 2 ? groups(halves[1]!) : []
  if (!head || !tail) return undefined
  if (halves.length === 1) return head.length === 8 ? head : undefined
  if (head.length + tail.length > 7) return undefined
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail]
}
