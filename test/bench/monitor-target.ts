/**
 * The benchmark's targets in their own process (their CPU is not the monitors'): HTTP and HTTPS
 * answering "ok". With TARGET_LOOPBACKS=N, also HTTP on N loopback addresses 127.0.1.1 … (the
 * scheduler caps runs per host, so many monitors need many hosts), listed as `loopbacks`.
 */
const cert = process.env.TARGET_CERT
const key = process.env.TARGET_KEY
const ok = () => new Response('ok')
const http = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: ok })
const https = cert && key ? Bun.serve({ port: 0, hostname: '127.0.0.1', tls: { cert, key }, fetch: ok }) : undefined
const loopbacks = Array.from({ length: Number(process.env.TARGET_LOOPBACKS ?? 0) }, (_, i) => {
  const hostname = `127.0.1.${i + 1}`
  return { host: hostname, port: Bun.serve({ port: 0, hostname, fetch: ok }).port }
})
console.log(JSON.stringify({ http: http.port, https: https?.port ?? null, loopbacks }))
