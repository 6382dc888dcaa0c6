/**
 * WebSocket checks: the upgrade to a ws(s) URL at the guard-checked address (Host and TLS SNI carry
 * the name, as the HTTP check does), then optionally one message and the first reply (edge: Bun's
 * WebSocket, whose `headers` and `tls` options are Bun's own).
 */
import { isIpLiteral, urlHost, type AddressGuard } from '../../../lib/address-guard.ts'
import type { MonitorDefinition } from '../definition.ts'
import { FIXES, misconfiguredResult, thrownResult } from './failure.ts'
import type { MonitorKind } from './kind.ts'
import { commonSpec } from './kind.ts'
import { clipMessage, type CheckDeps, type CheckResult, type WebSocketSpec } from './spec.ts'
import { fieldChecks, type SpecProblem } from './validate.ts'

export const MAX_WS_MESSAGE = 4_096

class WebSocketFailed extends Error {}

export async function runWebSocketCheck(spec: WebSocketSpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const started = elapsed()
  const signal = AbortSignal.timeout(spec.timeoutMs)
  const url = URL.canParse(spec.url) ? new URL(spec.url) : null
  if (!url || (url.protocol !== 'ws:' && url.protocol !== 'wss:')) return misconfiguredResult('the target must be a ws:// or wss:// URL', FIXES.editTarget)
  if (url.username || url.password) return misconfiguredResult('URLs with credentials are not opened', FIXES.editTarget)
  let socket: WebSocket | undefined
  try {
    const checked = await deps.guard.check(url.hostname, signal)
    const target = new URL(url)
    target.hostname = urlHost(checked.address)
    const name = url.hostname.replace(/^\[|\]$/g, '')
    const tls: { serverName?: string; ca?: string } = {}
    if (url.protocol === 'wss:' && !isIpLiteral(name)) tls.serverName = name
    if (deps.trustedCa) tls.ca = deps.trustedCa
    const headers: Record<string, string> = { host: url.host, ...(deps.userAgent ? { 'user-agent': deps.userAgent } : {}) }
    const opened = new WebSocket(target.href, { headers, tls } as unknown as string[])
    socket = opened
    const reply = await new Promise<string | null>((resolve, reject) => {
      const onAbort = () => reject(signal.reason)
      signal.addEventListener('abort', onAbort, { once: true })
      opened.onopen = () => {
        if (spec.message === undefined) resolve(null)
        else opened.send(spec.message)
      }
      opened.onmessage = (event) => resolve(typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data as ArrayBuffer))
      opened.onerror = () => reject(new WebSocketFailed('the WebSocket upgrade failed (the server refused it, or the connection failed)'))
      opened.onclose = (event) => reject(new WebSocketFailed(`the server closed the WebSocket (${event.code}${event.reason ? ` ${event.reason.slice(0, 100)}` : ''}) before replying`))
    })
    let message = 'the WebSocket upgrade succeeded'
    if (reply !== null) {
      if (spec.expectedValue !== undefined && !reply.includes(spec.expectedValue)) {
        return result('fail', `the reply ${JSON.stringify(reply.slice(0, 100))} does not contain ${JSON.stringify(spec.expectedValue)}`)
      }
      message += spec.expectedValue !== undefined ? '; the reply contains the expected text' : '; the server replied'
    }
    const responseTimeMs = Math.round(elapsed() - started)
    const slow = spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
    return result(slow ? 'degraded' : 'ok', slow ? `${message}, slower than ${spec.degradedAfterMs} ms` : message)

    function result(outcome: CheckResult['outcome'], text: string): CheckResult {
      return { outcome, responseTimeMs: Math.round(elapsed() - started), message: clipMessage(text), details: { address: checked.address } }
    }
  } catch (error) {
    if (error instanceof WebSocketFailed && !signal.aborted) return { outcome: 'fail', responseTimeMs: null, message: clipMessage(error.message) }
    return thrownResult(error, signal, spec.timeoutMs, { allowPrivate: deps.guard.allowPrivate })
  } finally {
    if (socket) {
      socket.onclose = socket.onerror = socket.onmessage = socket.onopen = null
      socket.close()
    }
  }
}

function webSocketSpec(definition: MonitorDefinition): WebSocketSpec {
  const o = definition.options
  return {
    type: 'websocket',
    url: definition.target ?? '',
    ...commonSpec(definition),
    ...(o.ws_message ? { message: o.ws_message } : {}),
    ...(o.expected_value != null && o.expected_value !== '' ? { expectedValue: o.expected_value } : {}),
  }
}

function validateWebSocketSpec(spec: WebSocketSpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  const url = URL.canParse(spec.url) ? new URL(spec.url) : null
  if (!url || (url.protocol !== 'ws:' && url.protocol !== 'wss:')) check.problem('url', 'must be a ws:// or wss:// URL, e.g. wss://example.com/socket')
  else if (url.username || url.password) check.problem('url', 'must not hold credentials')
  else check.host('url', url.hostname.replace(/^\[|\]$/g, ''))
  if (spec.message !== undefined && spec.message.length > MAX_WS_MESSAGE) check.problem('message', `must be at most ${MAX_WS_MESSAGE} characters`)
  if (spec.expectedValue !== undefined && spec.message === undefined) check.problem('expectedValue', 'give the message (ws_message) whose reply is expected')
  return check.problems
}

/** websocket: the upgrade succeeds; with a message, the first reply comes (and contains the expected text). */
export const webSocketKind: MonitorKind<WebSocketSpec> = { type: 'websocket', toSpec: webSocketSpec, validate: validateWebSocketSpec, run: runWebSocketCheck, probeable: false }
