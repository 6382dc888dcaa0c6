/**
 * The benchmark's targets in their own process (their CPU is not the monitors'): HTTP and HTTPS
 * answering "ok". With TARGET_LOOPBACKS=N, also HTTP (and HTTPS, given a certificate) on N loopback
 * addresses 127.0.1.1 … (the scheduler caps runs per host, so many monitors need many hosts),
 * listed as `loopbacks`. With TARGET_LOG=1 every request whose path is a number (`/123`) is logged
 * with the time it arrived (this process's clock, ms); `GET /__arrivals` on the first HTTP port
 * answers the log as `[[number, at], …]` and empties it.
 */
const cert = process.env.TARGET_CERT
const key = process.env.TARGET_KEY
const log = process.env.TARGET_LOG === '1'
let arrivals: Array<[number, number]> = []
const ok = (request: Request) => {
  if (log) {
    const path = request.url.slice(request.url.indexOf('/', 8) + 1)
    const number = Number(path)
    if (path !== '' && Number.isInteger(number)) arrivals.push([number, Date.now()])
  }
  return new Response('ok')
}
const http = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch(request) {
    if (new URL(request.url).pathname === '/__arrivals') {
      const answer = Response.json(arrivals)
      arrivals = []
      return answer
    }
    return ok(request)
  },
})
const https = cert && key ? Bun.serve({ port: 0, hostname: '127.0.0.1', tls: { cert, key }, fetch: ok }) : undefined
const loopbacks = Array.from({ length: Number(process.env.TARGET_LOOPBACKS ?? 0) }, (_, i) => {
  const hostname = `127.0.1.${i + 1}`
  const secure = cert && key ? Bun.serve({ port: 0, hostname, tls: { cert, key }, fetch: ok }).port : null
  return { host: hostname, port: Bun.serve({ port: 0, hostname, fetch: ok }).port, https_port: secure }
})
console.log(JSON.stringify({ http: http.port, https: https?.port ?? null, loopbacks }))
