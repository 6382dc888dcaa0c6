/**
 * Reads a vendor's summary over HTTP(S): the URL's host goes through the address guard (resolved
 * once, every address checked) and the request goes to the checked address with `Host` and TLS SNI
 * set to the name. No redirects, at most MAX_SUMMARY_BYTES, a timeout: whatever goes wrong is a
 * reason, never an exception.
 */
import { isIpLiteral, urlHost, type AddressGuard } from '../../lib/address-guard.ts'
import { readSummary, type SummaryRead } from './summary.ts'

export const SUMMARY_TIMEOUT_MS = 10_000
/** Large vendors' summaries are some 100 KB; past this the answer is refused. */
export const MAX_SUMMARY_BYTES = 2 * 1024 * 1024

export interface FetchDeps {
  guard: AddressGuard
  userAgent: string
  timeoutMs?: number
}

export async function fetchSummary(address: string, deps: FetchDeps): Promise<SummaryRead> {
  const url = new URL(address)
  const timeoutMs = deps.timeoutMs ?? SUMMARY_TIMEOUT_MS
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    const checked = await deps.guard.check(url.hostname, signal)
    const target = new URL(url)
    target.hostname = urlHost(checked.address)
    const tls: { serverName?: string } = {}
    if (url.protocol === 'https:' && !isIpLiteral(url.hostname.replace(/^\[|\]$/g, ''))) tls.serverName = url.hostname
    const response = await fetch(target, {
      headers: { host: url.host, accept: 'application/json', 'user-agent': deps.userAgent },
      redirect: 'manual',
      signal,
      tls,
    })
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {})
      return { ok: false, reason: `HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : ''}` }
    }
    const bytes = await readCapped(response, MAX_SUMMARY_BYTES)
    if (bytes === undefined) return { ok: false, reason: `the answer is larger than ${MAX_SUMMARY_BYTES / 1024 / 1024} MiB` }
    let body: unknown
    try {
      body = JSON.parse(new TextDecoder().decode(bytes))
    } catch {
      return { ok: false, reason: 'the answer is not JSON' }
    }
    return readSummary(body)
  } catch (error) {
    if (signal.aborted) return { ok: false, reason: `no answer within ${Math.round(timeoutMs / 1000)} s` }
    const message = (error as Error).message || String(error)
    return { ok: false, reason: message.length > 200 ? `${message.slice(0, 200)}…` : message }
  }
}

async function readCapped(response: Response, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => {})
    return undefined
  }
  const reader = response.body?.getReader()
  if (!reader) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}
