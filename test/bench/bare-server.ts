/**
 * The baseline of `bun run bench reads`, run as a process of its own: one bare `Bun.serve` per
 * answer in the spec file (argv[2], JSON written by the bench), each on its own loopback port,
 * answering every request with those exact bytes and headers (a bodiless 304 to a matching
 * If-None-Match, as the app answers). Its headers are built once, the fastest a bare server does it.
 * Prints `bare: listening on 127.0.0.1:<port>,<port>,…` once every server listens.
 */
import { ifNoneMatchHits } from '../../src/lib/http-cache.ts'

interface BareAnswer {
  body: string
  headers: Record<string, string>
}

const spec = (await Bun.file(process.argv[2]!).json()) as BareAnswer[]
const ports = spec.map(({ body: base64, headers: record }) => {
  const body = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  const headers = new Headers(record)
  const etag = record.etag
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    development: false,
    fetch: (request) =>
      etag !== undefined && ifNoneMatchHits(request.headers.get('if-none-match'), etag)
        ? new Response(null, { status: 304, headers })
        : new Response(body, { headers }),
  })
  return server.port
})
console.log(`bare: listening on 127.0.0.1:${ports.join(',')}`)
