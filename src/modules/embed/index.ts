import { Elysia, t } from 'elysia'
import { ErrorBody } from '../../http/schemas.ts'
import type { FastLane } from '../../http/fast-lane.ts'
import { serveMaybePending, servePrepared } from '../../lib/http-cache.ts'
import { queryValues } from '../../lib/query.ts'
import type { EmbedService } from './service.ts'

const SnippetsJson = t.Object({
  status_page_url: t.String({ description: 'The public status page (custom domain when set)' }),
  badge_markdown: t.String(),
  badge_html: t.String(),
  widget_script: t.String(),
  widget_html: t.String(),
  minimal_md: t.String(),
})

const MARKDOWN_PATH = '/api/embed/markdown'

export function embedRoutes(embed: EmbedService, fastLane?: FastLane) {
  fastLane?.register(MARKDOWN_PATH, (request) => {
    const cached = embed.cachedSnippets(queryValues(request.url, 'slug'))
    return cached && servePrepared(cached, request.headers.get('if-none-match'))
  })
  return new Elysia().get(
    MARKDOWN_PATH,
    ({ request }) =>
      serveMaybePending(embed.markdownSnippets(queryValues(request.url, 'slug')), request.headers.get('if-none-match')),
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
