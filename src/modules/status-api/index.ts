import { Elysia, t } from 'elysia'
import { ErrorBody } from '../../http/schemas.ts'
import type { FastLane } from '../../http/fast-lane.ts'
import { serveMaybePending } from '../../lib/http-cache.ts'
import { LANGUAGES } from '../../lib/i18n.ts'
import { DISPLAY_STATUSES } from '../status-pipeline/status.ts'
import { STATUS_PATH, type StatusJsonReads } from './cached-reads.ts'

const StatusJsonSchema = t.Object({
  page: t.String({ description: 'The page slug' }),
  page_name: t.String({ description: 'The page name (what the widget names its link after)' }),
  page_url: t.String({ description: 'Where visitors see the page: its custom domain once verified, else <slug>.<STATUS_DOMAIN>' }),
  overall: t.Union(DISPLAY_STATUSES.map((s) => t.Literal(s))),
  updated: t.String({ description: 'When these figures were computed (RFC 3339); not part of the ETag, so an unchanged status still revalidates with 304' }),
  incidents: t.Array(
    t.Object({
      id: t.String(),
      title: t.String(),
      state: t.String(),
      started: t.String(),
      component: t.Nullable(t.String({ description: 'Affected components, comma-separated; null when page-wide' })),
    }),
  ),
  rtm: t.Array(t.Nullable(t.Number()), { description: 'Mean response time (ms) per minute, oldest first; null without data' }),
  upd: t.Array(t.Nullable(t.Number()), { description: 'Daily uptime %, today last; null without data' }),
  dns_only: t.Boolean({ description: 'True when every component of the page is a DNS component' }),
  error_budgets: t.Array(
    t.Object({
      component: t.String({ description: 'The component name' }),
      target: t.Number({ description: 'The SLA target, in % (99.9)' }),
      period: t.Union([t.Literal('month'), t.Literal('quarter'), t.Literal('year')], { description: 'The running period the budget is for' }),
      period_start: t.String({ description: 'When the period began (RFC 3339)' }),
      period_end: t.String({ description: 'When it ends (RFC 3339)' }),
      allowed_seconds: t.Integer({ description: "The period's whole allowance of down time under the target" }),
      used_seconds: t.Integer({ description: 'Down time counted so far' }),
      left_seconds: t.Integer({ description: 'What is left (negative once spent)' }),
      text: t.String({ description: 'The same in words, as the page shows it: "43 min of 43 min 12 s error budget left this month"' }),
    }),
    { description: "The error budgets the owner shows, in page order; empty when none (the owner chooses per component's SLA target)" },
  ),
  language: t.Optional(t.Union(LANGUAGES.map((l) => t.Literal(l)), { description: 'With `lang`: the language of `words`, the best match of `lang`, else the page\'s default language' })),
  words: t.Optional(t.Object(
    {
      status: t.Record(t.String(), t.String(), { description: 'Each status (and `unknown`) in words' }),
      state: t.Record(t.String(), t.String(), { description: 'Each incident state in words' }),
      incidents: t.String({ description: 'The heading of the active incidents' }),
      changed: t.String({ description: 'What is announced when the status changes; `{status}` is the new one' }),
      unavailable: t.String({ description: 'Shown when the status cannot be read' }),
      response: t.String({ description: 'The response-time caption, with `{count}` minutes and `{min}`, `{avg}`, `{max}` ms' }),
      uptime: t.Record(t.String(), t.String(), { description: 'The uptime bars\' label with `{count}` days, by plural form (`one`, `other`, … as `Intl.PluralRules` names them)' }),
      today: t.String(),
      days_ago: t.Record(t.String(), t.String(), { description: '"{count} days ago", by plural form' }),
      no_data: t.String(),
      percent: t.String({ description: 'A day\'s uptime, with `{percent}`' }),
    },
    { description: "With `lang`: the widget's words in `language` (from the translations of src/content/locales/)" },
  )),
})

/** The route and its fast-lane reader: both answer through `reads` (cached-reads.ts), keyed by one `statusKey`. */
export function statusApiRoutes(reads: StatusJsonReads, fastLane?: FastLane) {
  fastLane?.register(
    STATUS_PATH,
    (_request, url) => reads.cached(url),
    (request) => reads.missed(request),
  )
  return new Elysia()
    .get(STATUS_PATH, ({ request }) => serveMaybePending(reads.prepared(request.url), request.headers.get('if-none-match')), {
      query: t.Object({
        slug: t.Optional(t.String({ description: 'The status page slug (case-insensitive)' })),
        inc: t.Optional(t.String({ description: '1: include active incidents (Growth plan or higher)' })),
        rtm: t.Optional(t.String({ description: 'Minutes of response times, 1–240, one value per minute (Growth or higher)' })),
        upd: t.Optional(t.String({ description: 'Days of daily uptime, 1–30, today last (Growth or higher)' })),
        lang: t.Optional(t.String({ description: 'Adds `language` and `words` (the widget\'s words): a tag such as `de` or `pt-BR` (the widget sends its host page\'s) picks the best of en, de, fr, es, pt-BR, ja; empty, or one we do not have, gives the page\'s default' })),
      }),
      response: {
        200: StatusJsonSchema,
        304: t.Void({ description: 'Not modified' }),
        400: ErrorBody,
        403: ErrorBody,
        404: ErrorBody,
      },
      detail: {
        tags: ['Embeds'],
        summary: 'Live status of a page as JSON',
        description:
          'Overall status, active incidents (`inc=1`), response times (`rtm`) and daily uptime (`upd`), with the widget\'s words in the page\'s language or the one asked (`lang`). Malformed or out-of-range parameters are 400 naming the parameter; an unknown, blocked or private page is 404; the basic status needs Pro, incidents and sparklines need Growth (403). CORS for any origin, ETag, `Cache-Control: public, no-cache`: clients may keep the answer but ask again (304 when unchanged) before each use, so a status change reaches them on their next request.',
      },
    })
}
