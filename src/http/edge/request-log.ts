/** One JSON line per request (`REQUEST_LOG=1`). The query string is left out: it may hold tokens. */
import { requestPath } from '../fast-lane.ts'
import { requestHost } from '../host-router.ts'

export interface RequestLogEntry {
  time: string
  method: string
  host: string
  path: string
  status: number
  ms: number
  ip: string | undefined
  bytes?: number
  ua?: string
  worker?: number
}

export function requestLogLine(
  request: Request,
  response: Response,
  extra: { time: number; durationMs: number; ip: string | undefined; worker: number | undefined },
): string {
  // Read without the URL parser: a request refused for its Host header has a URL that does not parse.
  const entry: RequestLogEntry = {
    time: new Date(extra.time).toISOString(),
    method: request.method,
    host: (request.headers.get('host') || requestHost(request)).slice(0, 300).toLowerCase(),
    path: requestPath(request.url).slice(0, 2000),
    status: response.status,
    ms: Math.round(extra.durationMs * 100) / 100,
    ip: extra.ip,
  }
  const length = response.headers.get('content-length')
  if (length !== null && /^\d+$/.test(length)) entry.bytes = Number(length)
  const ua = request.headers.get('user-agent')
  if (ua) entry.ua = ua.slice(0, 200)
  if (extra.worker !== undefined) entry.worker = extra.worker
  return JSON.stringify(entry)
}
