/**
 * Who a request comes from, decided once at the server edge (peer address, or the client a trusted
 * proxy forwarded: `src/modules/operations/client-ip.ts`) and read by every feature that limits or
 * counts clients. Requests handed to the app directly (tests, `app.handle`) have no recorded
 * address; for them the last `X-Forwarded-For` hop stands in, so tests can play several clients.
 */
type Resolver = () => string | undefined
const addresses = new WeakMap<Request, string | Resolver>()

/**
 * Records who sent `request`. A resolver is called only when a feature asks: reading the peer
 * address from the socket has a real cost, and most requests never need it.
 */
export function rememberClientAddress(request: Request, address: string | Resolver | undefined): void {
  if (address) addresses.set(request, address)
}

export function clientAddressOf(request: Request): string {
  let recorded = addresses.get(request)
  if (typeof recorded === 'function') {
    const resolved = recorded()
    recorded = resolved ?? 'unknown'
    addresses.set(request, recorded)
  }
  if (recorded !== undefined) return recorded
  const forwarded = request.headers.get('x-forwarded-for')?.split(',').pop()?.trim()
  return forwarded ? forwarded.slice(0, 64) : 'unknown'
}
