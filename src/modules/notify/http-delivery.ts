/**
 * One webhook or chat POST: the URL's host goes through the monitors' address guard (resolved
 * once, every address checked) and the request goes to the checked address with `Host` and TLS SNI
 * set to the name, so `fetch` never resolves it again. No redirects are followed: 2xx is success;
 * 3xx, 4xx, 5xx and no answer within the timeout are failures.
 */
import { isIpLiteral, urlHost, type AddressGuard } from '../../lib/address-guard.ts'
import type { OutboundRequest } from './contract.ts'

export const HTTP_DELIVERY_TIMEOUT_MS = 10_000
/** Headers the worker owns; a delivery cannot set them. */
const OWNED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer'])

/** `status`: the HTTP status of the answer, when there was one. */
export type DeliveryOutcome = { ok: true; status?: number } | { ok: false; error: string; status?: number }

export async function postDelivery(
  request: OutboundRequest,
  deps: { guard: AddressGuard; timeoutMs: number; userAgent: string; signal?: AbortSignal | undefined },
): Promise<DeliveryOutcome> {
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    return { ok: false, error: 'the URL is not valid' }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: `cannot post to a ${url.protocol} URL` }
  if (url.username || url.password) return { ok: false, error: 'URLs with credentials are refused' }
  const timeout = AbortSignal.timeout(deps.timeoutMs)
  const signal = deps.signal ? AbortSignal.any([timeout, deps.signal]) : timeout
  try {
    const checked = await deps.guard.check(url.hostname, signal)
    const target = new URL(url)
    target.hostname = urlHost(checked.address)
    const headers = new Headers()
    for (const [name, value] of Object.entries(request.headers)) if (!OWNED_HEADERS.has(name.toLowerCase())) headers.set(name, value)
    if (!headers.has('user-agent')) headers.set('user-agent', deps.userAgent)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    headers.set('host', url.host)
    const tls: { serverName?: string } = {}
    if (url.protocol === 'https:' && !isIpLiteral(url.hostname.replace(/^\[|\]$/g, ''))) tls.serverName = url.hostname
    const response = await fetch(target, { method: 'POST', headers, body: request.body, redirect: 'manual', signal, keepalive: false, tls })
    await response.body?.cancel().catch(() => {})
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status }
    const where = response.status >= 300 && response.status < 400 ? ` (redirects are not followed${response.headers.get('location') ? `: ${clip(response.headers.get('location')!)}` : ''})` : ''
    return { ok: false, error: `HTTP ${response.status}${where}`, status: response.status }
  } catch (error) {
    if (timeout.aborted) return { ok: false, error: `no answer within ${Math.round(deps.timeoutMs / 1000)} s` }
    if (deps.signal?.aborted) return { ok: false, error: 'stopped before an answer' }
    return { ok: false, error: clip((error as Error).message || String(error)) }
  }
}

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text)
