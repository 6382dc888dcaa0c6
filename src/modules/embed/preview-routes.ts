import { Elysia, t } from 'elysia'
import { HtmlPage, textAnswer } from '../../http/schemas.ts'
import { queryValues } from '../../lib/query.ts'
import { PREVIEW_SCRIPT } from './preview.ts'

/** `GET /embed/preview?slug=…`: each snippet rendered live beside its code (HTML for owners). */
export function previewRoutes(preview: (slugValues: string[]) => Promise<{ status: number; html: string }>) {
  // An HTML page for people (and its script): not part of the API reference.
  return new Elysia({ detail: { hide: true } })
    .get(
      '/embed/preview.js',
      () =>
        new Response(PREVIEW_SCRIPT, {
          headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' },
        }),
      {
        response: { 200: textAnswer('text/javascript', 'JavaScript') },
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
      response: { 200: HtmlPage, 400: HtmlPage, 403: HtmlPage, 404: HtmlPage },
      detail: {
        tags: ['Embeds'],
        summary: 'Preview of the embed snippets',
        description: 'An HTML page showing each snippet of `/api/embed/markdown` rendered live beside its code, with a copy button.',
      },
    },
  )
}
