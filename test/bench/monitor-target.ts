/** The benchmark's targets in their own process (their CPU is not the monitors'): HTTP and HTTPS answering "ok". */
const cert = process.env.TARGET_CERT
const key = process.env.TARGET_KEY
const http = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok') })
const https = cert && key ? Bun.serve({ port: 0, hostname: '127.0.0.1', tls: { cert, key }, fetch: () => new Response('ok') }) : undefined
console.log(JSON.stringify({ http: http.port, https: https?.port ?? null }))
