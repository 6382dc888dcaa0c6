/**
 * A test context (fixed clock, real SQLite, the real app) behind a real listening socket, for
 * real Chromium. The service is `http://localhost:<port>`, status pages `http://<slug>.localhost:<port>`
 * (Chromium resolves every `*.localhost` to loopback). The clock is the context's ManualClock.
 */
import type { CheckDeps } from '../../src/modules/monitors/kinds/spec.ts'
import { createTestContext, type TestContext } from './context.ts'
import type { DnsResolver } from '../../src/modules/status-pages/dns-check.ts'

export interface ListeningContext {
  ctx: TestContext
  /** Origin of the service host. */
  base: string
  statusHost(slug: string): string
  close(): Promise<void>
}

export async function listenTestContext(options: { now: number; env?: Record<string, string>; dns?: DnsResolver; checkDeps?: CheckDeps }): Promise<ListeningContext> {
  // The port is known only once the socket listens; BASE_URL needs it, so the app comes second.
  let handle: (request: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 })
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', development: false, fetch: (request) => handle(request) })
  const origin = `localhost:${server.port}`
  const ctx = await createTestContext({ now: options.now, env: { BASE_URL: `http://${origin}`, STATUS_DOMAIN: origin, ...options.env }, dns: options.dns, checkDeps: options.checkDeps })
  handle = (request) => ctx.app.handle(request)
  return {
    ctx,
    base: `http://${origin}`,
    statusHost: (slug) => `http://${slug}.${origin}`,
    async close() {
      await server.stop(true)
      await ctx.close()
    },
  }
}
