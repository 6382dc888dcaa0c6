/**
 * One webhook or chat POST: the URL's host goes through the monitors' address guard (resolved
 * once, every address checked) and the request goes to the checked address with `Host` and TLS SNI
 * set to the name, so `fetch` never resolves it again. No redirects are followed: 2xx is success;
 * 3xx, 4xx, 5xx and no answer within the timeout are failures.
 */
import { isIpLiteral, urlHost, type AddressGuard } from '../../lib/address-guard.ts'
import { valueAt } from './chat-threads.ts'
import type { OutboundRequest } from './contract.ts'

export const HTTP_DELIVERY_TIMEOUT_MS = 10_000
/** Headers the worker owns; a delivery cannot set them. */
const OWNED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer'])

/**
 * `status`: the HTTP status of the answer, when there was one; `body`: its text, when asked for (at
 * most MAX_ANSWER_BYTES); `refusal`: the service's own error code when a 2xx answer said no (okWhen).
 */
export type DeliveryOutcome = { ok: true; status?: number; body?: string } | { ok: false; error: string; status?: number; refusal?: string }

/** The most of an answer read (a chat service's JSON naming the message it posted). */
export const MAX_ANSWER_BYTES = 65_536

export async function postDelivery(
  request: OutboundRequest,
  deps: { guard: AddressGuard; timeoutMs: number; userAgent: string; signal?: AbortSignal | undefined; readBody?: boolean },
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
    const response = await fetch(target, { method: request.method ?? 'POST', headers, body: request.body, redirect: 'manual', signal, keepalive: false, tls })
    const ok = response.status >= 200 && response.status < 300
    const body = ok && (deps.readBody || request.okWhen) ? await readAnswer(response) : undefined
    await response.body?.cancel().catch(() => {})
    if (ok && request.okWhen) {
      const refusal = refusalOf(body, request.okWhen)
      if (refusal !== null) return { ok: false, error: `refused by the service${refusal ? `: ${clip(refusal)}` : ''} (HTTP ${response.status} with "${request.okWhen}" not true)`, status: response.status, refusal }
    }
    if (ok) return body === undefined ? { ok: true, status: response.status } : { ok: true, status: response.status, body }
    const where = response.status >= 300 && response.status < 400 ? ` (redirects are not followed${response.headers.get('location') ? `: ${clip(response.headers.get('location')!)}` : ''})` : ''
    return { ok: false, error: `HTTP ${response.status}${where}`, status: response.status }
  } catch (error) {
    if (timeout.aborted) return { ok: false, error: `no answer within ${Math.round(deps.timeoutMs / 1000)} s` }
    if (deps.signal?.aborted) return { ok: false, error: 'stopped before an answer' }
    return { ok: false, error: clip((error as Error).message || String(error)) }
  }
}

/** Null when `path` in the JSON answer is `true`; else the answer's `error` code ('' without one). */
function refusalOf(answer: string | undefined, path: string): string | null {
  let json: unknown
  try {
    json = JSON.parse(answer ?? '')
  } catch {
    return ''
  }
  if (valueAt(json, path) === true) return null
  const error = valueAt(json, 'error')
  return typeof error === 'string' ? error : ''
}

/** The answer's first MAX_ANSWER_BYTES as text (a longer one is cut: it names nothing we read). */
async function readAnswer(response: Response): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const parts: Uint8Array[] = []
  let size = 0
  while (size < MAX_ANSWER_BYTES) {
    const { done, value } = await reader.read()
    if (done) break
    parts.push(value)
    size += value.byteLength
  }
  await reader.cancel().catch(() => {})
  const bytes = new Uint8Array(Math.min(size, MAX_ANSWER_BYTES))
  let at = 0
  for (const part of parts) {
    const take = part.subarray(0, bytes.length - at)
    bytes.set(take, at)
    at += take.byteLength
    if (at >= bytes.length) break
  }
  return new TextDecoder().decode(bytes)
}

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text)
