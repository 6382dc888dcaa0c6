/**
 * Who a request comes from, decided once at the server edge (peer address, or the client a trusted
 * proxy forwarded: `src/modules/operations/client-ip.ts`) and read by every feature that limits or
 * counts clients. Requests handed to the app directly (tests, `app.handle`) have no recorded
 * address; for them the last `X-Forwarded-For` hop stands in, so tests can play several clients.
 */
const addresses = new WeakMap<Request, string>()

export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address)
}

export function clientAddressOf(request: Request): string {
  const recorded = addresses.get(request)
  if (recorded !== undefined) return recorded
  const forwarded = request.headers.get('x-forwarded-for')?.split(',').pop()?.trim()
  return forwarded ? forwarded.slice(0, 64) : 'unknown'
}
