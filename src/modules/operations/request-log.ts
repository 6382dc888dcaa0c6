/** One JSON line per request (`REQUEST_LOG=1`). The query string is left out: it may hold tokens. */

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
  const url = new URL(request.url)
  const entry: RequestLogEntry = {
    time: new Date(extra.time).toISOString(),
    method: request.method,
    host: url.host,
    path: url.pathname,
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
