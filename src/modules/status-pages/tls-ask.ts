/** `GET /api/tls/ask` on the service host: Caddy's on-demand TLS asks before it issues a certificate. */
import { Elysia, t } from 'elysia'
import { ErrorBody } from '../../http/schemas.ts'
import { errorResponse } from '../../lib/errors.ts'
import { normalizeHost } from '../../lib/host.ts'
import type { StatusPagesService } from './service.ts'

export function tlsAskRoutes(pages: StatusPagesService) {
  return new Elysia({ name: 'tls-ask' }).get(
    '/api/tls/ask',
    async ({ query }) => {
      const domain = normalizeHost(query.domain ?? '')
      if (domain && !domain.startsWith('[') && (await pages.servesDomain(domain))) return { ok: true }
      return errorResponse(404, 'not found')
    },
    {
      query: t.Object({ domain: t.Optional(t.String({ maxLength: 300 })) }),
      response: { 200: t.Object({ ok: t.Boolean() }), 404: ErrorBody },
      detail: {
        tags: ['Operations'],
        summary: 'May a TLS certificate be issued for this domain? (Caddy on-demand TLS `ask`)',
        description: '200 when the domain is the custom domain of a page that is not blocked; 404 otherwise.',
      },
    },
  )
}
