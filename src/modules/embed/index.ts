import { Elysia, t } from 'elysia'
import { ErrorBody } from '../../http/schemas.ts'
import type { FastLane } from '../../http/fast-lane.ts'
import { serveMaybePending } from '../../lib/http-cache.ts'
import { MARKDOWN_PATH, type SnippetsReads } from './cached-reads.ts'

const SnippetsJson = t.Object({
  status_page_url: t.String({ description: 'The public status page (custom domain when set)' }),
  badge_markdown: t.String(),
  badge_html: t.String(),
  widget_script: t.String(),
  widget_html: t.String(),
  minimal_md: t.String(),
})

/** The route and its fast-lane reader: both answer through `reads` (cached-reads.ts), keyed by one `snippetsKey`. */
export function embedRoutes(reads: SnippetsReads, fastLane?: FastLane) {
  fastLane?.register(MARKDOWN_PATH, (_request, url) => reads.cached(url))
  return new Elysia().get(
    MARKDOWN_PATH,
    ({ request }) => serveMaybePending(reads.prepared(request.url), request.headers.get('if-none-match')),
    {
      query: t.Object({ slug: t.Optional(t.String({ description: 'The status page slug (case-insensitive)' })) }),
      response: {
        200: SnippetsJson,
        304: t.Void({ description: 'Not modified (If-None-Match matched the ETag)' }),
        400: ErrorBody,
        403: ErrorBody,
        404: ErrorBody,
      },
      detail: {
        tags: ['Embeds'],
        summary: 'Ready-made snippets to embed a status page',
        description:
          'Badge, widget and link snippets for a public status page, in Markdown and HTML. Errors: 400 `missing slug`, 404 `not found` (unknown, blocked or private page), 403 when the owner\'s plan lacks the feature. Cached for 5 minutes (`Cache-Control: public, max-age=300`, ETag).',
      },
    },
  )
}
