/**
 * The alerting benchmark's targets, in their own process (their CPU is not the server's): HTTP on
 * TARGET_LOOPBACKS loopback addresses 127.0.1.1 … (the scheduler caps runs per host) and on
 * 127.0.0.1 for control. Every request whose path is a number (`/123`, a monitor's id) is logged
 * with the time it arrived (this machine's clock, ms) and the status answered: 200 "ok", or 500
 * while the number is in the failing set.
 *   - `POST /__fail` with a JSON array of numbers: those answer 500 from now on; answers the instant
 *     (ms) the set took effect;
 *   - `POST /__heal`: every number answers 200 again; answers the instant;
 *   - `GET /__arrivals`: the log as `[[number, at, status], …]`, emptied.
 */
let arrivals: Array<[number, number, number]> = []
let failing = new Set<number>()
const answer = (request: Request) => {
  const path = request.url.slice(request.url.indexOf('/', 8) + 1)
  const number = Number(path)
  if (path === '' || !Number.isInteger(number)) return new Response('ok')
  const status = failing.has(number) ? 500 : 200
  arrivals.push([number, Date.now(), status])
  return new Response(status === 200 ? 'ok' : 'down', { status })
}
const control = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    const { pathname } = new URL(request.url)
    if (pathname === '/__arrivals') {
      const log = Response.json(arrivals)
      arrivals = []
      return log
    }
    if (pathname === '/__fail' && request.method === 'POST') {
      const ids = (await request.json()) as number[]
      failing = new Set(ids)
      return Response.json({ at: Date.now(), failing: failing.size })
    }
    if (pathname === '/__heal' && request.method === 'POST') {
      failing = new Set()
      return Response.json({ at: Date.now() })
    }
    return answer(request)
  },
})
const loopbacks = Array.from({ length: Number(process.env.TARGET_LOOPBACKS ?? 0) }, (_, i) => {
  const hostname = `127.0.1.${i + 1}`
  return { host: hostname, port: Bun.serve({ port: 0, hostname, fetch: answer }).port! }
})
console.log(JSON.stringify({ http: control.port, loopbacks }))
export {}
