/**
 * `GET /metrics` on the service host, for Prometheus: only when METRICS_TOKEN is set (otherwise the
 * route does not exist and the answer is the usual 404), and only with `Authorization: Bearer <token>`.
 * Every metric, its labels and the settings are listed in src/content/docs/operations.md.
 */
import { Elysia, t } from 'elysia'
import { ErrorBody } from '../../http/schemas.ts'
import { constantTimeEqual, sha256Hex } from '../../lib/crypto.ts'
import { errorResponse } from '../../lib/errors.ts'
import type { AppMetrics } from './registry.ts'

const REFUSED_HEADERS = { 'cache-control': 'no-store', 'www-authenticate': 'Bearer realm="metrics"' }

export function metricsRoutes(metrics: AppMetrics | undefined, token: string | undefined) {
  const plugin = new Elysia({ name: 'metrics' })
  if (metrics === undefined || token === undefined) return plugin
  const expected = sha256Hex(token)
  plugin.get(
    '/metrics',
    async ({ headers }) => {
      const presented = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1]
      // Digests are compared, so the time taken tells nothing about the token, not even its length.
      if (presented === undefined || !constantTimeEqual(await sha256Hex(presented), await expected)) {
        return errorResponse(401, 'unauthorized', REFUSED_HEADERS)
      }
      // The Response copies the bytes (as fetch's body rules say), so the buffer is free for the next scrape.
      return metrics.render((body) => new Response(body, { headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' } }))
    },
    {
      response: { 200: t.String({ description: 'Prometheus text format 0.0.4' }), 401: ErrorBody },
      detail: {
        tags: ['Operations'],
        summary: 'Metrics for Prometheus',
        description:
          'Requests by route pattern and status, latency histograms, cache, database (size, query time by operation), monitors (state, checks, durations, certificate expiry and last success, per monitor and in total), scheduler lateness, the notification outbox, and the process (CPU, memory, event loop). Only when `METRICS_TOKEN` is set; send it as `Authorization: Bearer <token>` (401 otherwise). With WORKERS=N each worker answers with its own figures, labelled `worker`.',
      },
    },
  )
  return plugin
}
