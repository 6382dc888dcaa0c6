import { Elysia, t } from 'elysia'
import { servePrepared } from '../../lib/http-cache.ts'
import { queryValues } from '../../lib/query.ts'
import { PREVIEW_SCRIPT } from './preview.ts'
import { WIDGET_PATH, type WidgetService } from './service.ts'

export function widgetRoutes(widget: WidgetService) {
  return new Elysia().get(
    WIDGET_PATH,
    async ({ request }) =>
      servePrepared(await widget.script(request.headers.get('accept-encoding')), request.headers.get('if-none-match')),
    {
      response: { 200: t.String({ description: 'JavaScript' }), 304: t.Void() },
      detail: {
        tags: ['Embeds'],
        summary: 'The live status widget script',
        description:
          'Paste `<script src="…/static/embed/v1/status.js" data-slug="your-slug" data-theme="auto" data-show-incidents="1" data-rtm="60" data-upd="7"></script>`. Attributes: `data-slug`, `data-theme` (auto, light, dark), `data-show-incidents` (0/1), `data-rtm` (1–240 minutes), `data-upd` (1–30 days), `data-poll-ms` (poll interval, default 60000). Long cache lifetime and ETag.',
      },
    },
  )
}

/** `GET /embed/preview?slug=…`: each snippet rendered live beside its code (HTML for owners). */
export function previewRoutes(preview: (slugValues: string[]) => Promise<{ status: number; html: string }>) {
  return new Elysia()
    .get(
      '/embed/preview.js',
      () =>
        new Response(PREVIEW_SCRIPT, {
          headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' },
        }),
      {
        response: { 200: t.String({ description: 'JavaScript' }) },
        detail: { tags: ['Embeds'], summary: 'Script of the preview page (copy buttons)' },
      },
    )
    .get(
    '/embed/preview',
    async ({ request }) => {
      const { status, html } = await preview(queryValues(request.url, 'slug'))
      return new Response(html, {
        status,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-cache',
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
        },
      })
    },
    {
      query: t.Object({ slug: t.Optional(t.String({ description: 'The status page slug' })) }),
      response: { 200: t.String({ description: 'HTML' }), 400: t.String(), 403: t.String(), 404: t.String() },
      detail: {
        tags: ['Embeds'],
        summary: 'Preview of the embed snippets',
        description: 'An HTML page showing each snippet of `/api/embed/markdown` rendered live beside its code, with a copy button.',
      },
    },
  )
}
