/**
 * The API viewer at `/swagger`: Swagger UI (swagger-ui-dist, pinned in package.json), served from
 * this program under the site's CSP, so it works without internet and no other origin's script
 * runs where the session cookie lives. Its files are imported as text and so travel inside the
 * compiled binary (README: "Static files in the binary").
 */
import { Elysia, t } from 'elysia'
import swaggerUiJs from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'text' }
import swaggerUiCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'text' }
import startJs from '../assets/api-docs/start.js' with { type: 'text' }
import themeCss from '../assets/api-docs/theme.css' with { type: 'text' }
import { errorResponse } from '../lib/errors.ts'
import { html } from '../lib/html.ts'
import { prepareResponse, servePrepared, type PreparedResponse } from '../lib/http-cache.ts'
import { HtmlPage, sharedModels } from './schemas.ts'

export const VIEWER_ASSET_PREFIX = '/static/api-docs/'

const JS = 'text/javascript; charset=utf-8'
const CSS = 'text/css; charset=utf-8'
const ASSETS: Record<string, { text: string; contentType: string }> = {
  'swagger-ui.js': { text: swaggerUiJs, contentType: JS },
  'swagger-ui.css': { text: swaggerUiCss, contentType: CSS },
  'start.js': { text: startJs, contentType: JS },
  'theme.css': { text: themeCss, contentType: CSS },
}

const loaded = new Map<string, Promise<PreparedResponse>>()
const load = (key: string, make: () => Promise<PreparedResponse>): Promise<PreparedResponse> => {
  let prepared = loaded.get(key)
  if (!prepared) loaded.set(key, (prepared = make()))
  return prepared
}

function viewerPage(specPath: string): string {
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference &middot; Lantern</title>
<link rel="stylesheet" href="${VIEWER_ASSET_PREFIX}swagger-ui.css">
<link rel="stylesheet" href="${VIEWER_ASSET_PREFIX}theme.css">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
</head>
<body>
<header class="lantern-bar"><a class="brand" href="/">Lantern</a> <a href="/docs/">Docs</a> <a href="/changelog">Changelog</a> <a href="${specPath}">OpenAPI document (JSON)</a></header>
<div id="swagger-ui" data-spec="${specPath}"><noscript><p>The API reference needs JavaScript. The document itself: <a href="${specPath}">${specPath}</a>.</p></noscript></div>
<script src="${VIEWER_ASSET_PREFIX}swagger-ui.js"></script>
<script src="${VIEWER_ASSET_PREFIX}start.js"></script>
</body>
</html>
`}`
}

const NoBody = t.Void({ description: 'No body' })

export function apiViewerRoutes(specPath: string) {
  // The viewer of the API reference is not part of it.
  return new Elysia({ name: 'api-viewer', detail: { hide: true } })
    .model(sharedModels)
    .get(
      '/swagger',
      async ({ request }) =>
        servePrepared(
          await load('page', () => prepareResponse(200, viewerPage(specPath), { contentType: 'text/html; charset=utf-8', cacheControl: 'public, max-age=300' })),
          request.headers.get('if-none-match'),
        ),
      { response: { 200: HtmlPage, 304: NoBody }, detail: { tags: ['Site'], summary: 'The API reference (Swagger UI, served by this instance)' } },
    )
    .get(
      `${VIEWER_ASSET_PREFIX}:file`,
      async ({ params, request }) => {
        const asset = ASSETS[params.file]
        if (!asset) return errorResponse(404, 'not found')
        const prepared = await load(params.file, () => prepareResponse(200, asset.text, { contentType: asset.contentType, cacheControl: 'public, max-age=3600' }))
        return servePrepared(prepared, request.headers.get('if-none-match'))
      },
      {
        params: t.Object({ file: t.String({ maxLength: 40, description: 'swagger-ui.js, swagger-ui.css, start.js or theme.css' }) }),
        response: { 200: t.String({ description: 'The file' }), 304: NoBody, 404: 'Error' },
        detail: { tags: ['Site'], summary: 'Files of the API reference (Swagger UI and its start script)' },
      },
    )
}
