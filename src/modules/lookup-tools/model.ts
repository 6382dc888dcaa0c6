/** The lookup tools API's schemas (named models of the OpenAPI document) and JSON shapes. */
import { t, type Static } from 'elysia'
import { modelRef, namedModels } from '../../http/schemas.ts'
import { toIso } from '../../lib/time.ts'
import { MAX_SELECTORS } from '../monitors/kinds/index.ts'
import { LOOKUP_TOOLS } from './runner.ts'
import { FREE_RECENT_CHECKS, LOOKUPS_PER_MINUTE, PAID_RECENT_CHECKS_CAP, type ToolCheck } from './service.ts'

const tool = t.Union(
  LOOKUP_TOOLS.map((name) => t.Literal(name)),
  { error: `tool must be one of ${LOOKUP_TOOLS.join(', ')}`, description: 'dns (A, AAAA, CNAME, MX, NS, TXT), mx, spf, dkim, dmarc, ssl (host[:port]), dnsbl (IP or domain)' },
)

export const LookupBody = t.Object({
  tool: t.Unsafe<(typeof LOOKUP_TOOLS)[number]>(tool),
  target: t.String({ minLength: 1, maxLength: 300, error: 'target must be a domain, host[:port] or IP address of at most 300 characters' }),
  selectors: t.Optional(
    t.Array(t.String({ minLength: 1, maxLength: 253 }), { maxItems: MAX_SELECTORS, error: `selectors must be a list of at most ${MAX_SELECTORS} DKIM selectors`, description: 'dkim: the selectors to check; none: only whether any keys exist' }),
  ),
})

const ToolCheckJson = t.Object({
  id: t.Integer(),
  tool: t.String({ enum: [...LOOKUP_TOOLS] }),
  target: t.String(),
  status: t.Union([t.Literal('pass'), t.Literal('warning'), t.Literal('fail'), t.Literal('missing'), t.Literal('error')], { description: 'error: the DNS did not answer (after retries) or the check could not run' }),
  summary: t.String({ description: 'one line for people' }),
  result: t.Record(t.String(), t.Unknown(), { description: "the tool's full result: records, the SPF/DKIM/DMARC part with its reason, the SSL or DNSBL report" }),
  created_at: t.String({ description: 'RFC 3339' }),
})

export const lookupModels = namedModels({ ToolCheck: ToolCheckJson })
export const ToolCheckRef = modelRef(lookupModels, 'ToolCheck')

export const RecentMeta = t.Object({
  count: t.Integer(),
  limit: t.Nullable(t.Integer({ description: `recent checks the plan keeps: ${FREE_RECENT_CHECKS} on Free; null on paid plans (unlimited, up to a sanity cap)` })),
  cap: t.Integer({ description: `kept at most: ${FREE_RECENT_CHECKS} on Free, ${PAID_RECENT_CHECKS_CAP} on paid plans` }),
})

export const LOOKUP_RULES = `At most ${LOOKUPS_PER_MINUTE} lookups a minute per user (429 after). Recent checks kept: the newest ${FREE_RECENT_CHECKS} on Free, up to ${PAID_RECENT_CHECKS_CAP} on paid plans; older ones are deleted in the same transaction as the insert.`

export function toolCheckJson(check: ToolCheck): Static<typeof ToolCheckJson> {
  return { id: check.id, tool: check.tool, target: check.target, status: check.status, summary: check.summary, result: check.result, created_at: toIso(check.createdAt) }
}
