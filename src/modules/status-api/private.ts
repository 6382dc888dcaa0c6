/** The status JSON of a private page for a request with its embed token (`auth_token`); see src/http/private-embed.ts. */
import { PRIVATE_EMBED_HEADERS } from '../../http/private-embed.ts'
import type { Clock } from '../../lib/clock.ts'
import { errorResponse } from '../../lib/errors.ts'
import { queryParams } from '../../lib/query.ts'
import type { PageAccessService } from '../page-access/service.ts'
import { parseStatusQuery } from './query.ts'
import { statusPlanRefusal, type StatusService } from './service.ts'

export class PrivateStatusJson {
  constructor(
    private readonly access: PageAccessService,
    private readonly status: StatusService,
    private readonly clock: Clock,
  ) {}

  /** The status JSON, or undefined when the token opens no private page (the public answer applies). */
  async answer(url: string): Promise<Response | undefined> {
    const params = queryParams(url)
    const query = parseStatusQuery(url, params)
    if ('error' in query) return undefined
    const page = await this.access.grantedEmbedPage(query.slug, params.get('auth_token') ?? [])
    if (!page) return undefined
    const refusal = statusPlanRefusal(page.plan, query)
    if (refusal !== undefined) return errorResponse(403, refusal, PRIVATE_EMBED_HEADERS)
    const body = await this.status.buildStatusJson(page, query, this.clock.now())
    return new Response(JSON.stringify(body), { headers: { ...PRIVATE_EMBED_HEADERS, 'content-type': 'application/json; charset=utf-8' } })
  }
}
