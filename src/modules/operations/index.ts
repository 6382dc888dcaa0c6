/**
 * Operations routes. `/internal/tls-allowed?domain=` is the "ask" endpoint of Caddy's on-demand
 * TLS: 200 only for a custom domain that a (not blocked) page uses, so the proxy never requests
 * certificates for names nobody configured.
 */
import { Elysia, t } from 'elysia'
import { parseCustomDomain } from '../status-pages/domain.ts'
import type { OperationsRepo } from './repo.ts'

export function operationsRoutes(repo: OperationsRepo) {
  return new Elysia().get(
    '/internal/tls-allowed',
    async ({ query, status }) => {
      let domain: string | null
      try {
        domain = parseCustomDomain(query.domain ?? '')
      } catch {
        domain = null
      }
      if (domain && (await repo.customDomainInUse(domain))) return { allowed: true as const }
      return status(404, { error: 'unknown domain' })
    },
    {
      query: t.Object({ domain: t.Optional(t.String({ maxLength: 300, description: 'The host name a certificate is asked for' })) }),
      response: { 200: t.Object({ allowed: t.Literal(true) }), 404: t.Object({ error: t.String() }) },
      detail: { tags: ['Operations'], summary: 'May the TLS proxy get a certificate for this domain? (Caddy on-demand TLS "ask")' },
    },
  )
}
