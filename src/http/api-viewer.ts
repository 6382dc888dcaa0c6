/**
 * The API reference at `/swagger`, rendered on the server from the OpenAPI document
 * (api-reference.ts): one HTML answer, one stylesheet and a small script, shown at once. Swagger UI
 * (swagger-ui-dist, pinned in package.json) is at `/swagger/ui` for trying requests out: 1.7 MB of
 * script that needs seconds to parse and to walk a document of this size, so it is not the first
 * thing a visitor waits for. Both are served from this program under the site's CSP, so they work
 * without internet and no other origin's script runs where the session cookie lives. Their files
 * are imported as text and so travel inside the compiled binary, and go out gzip-encoded to clients that take it.
 */
import { Elysia, t } from 'elysia'
import startJs from '../assets/api-docs/start.js' with { type: 'text' }
import referenceJs from '../assets/api-docs/reference.js' with { type: 'text' }
import themeCss from '../assets/api-docs/theme.css' with { type: 'text' }
import referenceCss from '../assets/api-docs/reference.css' with { type: 'text' }
import { errorResponse } from '../lib/errors.ts'
import { html } from '../lib/html.ts'
import { pageShell } from '../lib/page-shell.ts'
import { forEncoding, prepareEncoded, prepareResponse, servePrepared, type EncodedResponses } from '../lib/http-cache.ts'
import { renderApiReference, type OpenApiDoc } from './api-reference.ts'
import { HtmlPage, sharedModels } from './schemas.ts'

export const VIEWER_ASSET_PREFIX = '/static/api-docs/'
/** Swagger UI, for trying requests out. */
export const SWAGGER_UI_PATH = '/swagger/ui'
/** What the reference's operations and schemas hold, written in when one is opened. */
export const REFERENCE_PARTS_PATH = '/swagger/parts.json'

const JS = 'text/javascript; charset=utf-8'
const CSS = 'text/css; charset=utf-8'
// Swagger UI's two files (1.7 MB) are read when first asked for, not at start: most instances never serve them.
const ASSETS: Record<string, { text: () => Promise<string>; contentType: string }> = {
  'swagger-ui.js': { text: async () => (await import('swagger-ui-dist/swagger-ui-bundle.js', { with: { type: 'text' } })).default, contentType: JS },
  'swagger-ui.css': { text: async () => (await import('swagger-ui-dist/swagger-ui.css', { with: { type: 'text' } })).default, contentType: CSS },
  'start.js': { text: async () => startJs, contentType: JS },
  'theme.css': { text: async () => themeCss, contentType: CSS },
  'reference.css': { text: async () => referenceCss, contentType: CSS },
  'reference.js': { text: async () => referenceJs, contentType: JS },
}

const loaded = new Map<string, Promise<unknown>>()
const load = <T,>(key: string, make: () => Promise<T>): Promise<T> => {
  let prepared = loaded.get(key)
  if (!prepared) loaded.set(key, (prepared = make()))
  return prepared as Promise<T>
}

function viewerPage(specPath: string): string {
  return pageShell({
    title: 'API reference · Lantern',
    head: html`<link rel="stylesheet" href="${VIEWER_ASSET_PREFIX}swagger-ui.css">
<link rel="stylesheet" href="${VIEWER_ASSET_PREFIX}theme.css">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
`,
    body: html`
<header class="lantern-bar"><a class="brand" href="/">Lantern</a> <a href="/docs/">Docs</a> <a href="/changelog">Changelog</a> <a href="/swagger">API reference</a> <a href="${specPath}">OpenAPI document (JSON)</a></header>
<div id="swagger-ui" data-spec="${specPath}"><noscript><p>The API reference needs JavaScript. The document itself: <a href="${specPath}">${specPath}</a>.</p></noscript></div>
<script src="${VIEWER_ASSET_PREFIX}swagger-ui.js"></script>
<script src="${VIEWER_ASSET_PREFIX}start.js"></script>
`,
  })
}

const NoBody = t.Void({ description: 'No body' })

/** A prepared answer in the encoding the request takes, or 304 when its ETag matches. */
const serveEncoded = (encoded: EncodedResponses, request: Request): Response =>
  servePrepared(forEncoding(encoded, request.headers.get('accept-encoding')), request.headers.get('if-none-match'))

// The page and its parts, rendered together once per process (the document does not change while it runs).
interface PreparedReference {
  page: EncodedResponses
  parts: EncodedResponses
}

/** The reference and the Swagger UI page; `loadDocument` reads the finished OpenAPI document. */
export function apiViewerRoutes(specPath: string, loadDocument: () => Promise<OpenApiDoc>) {
  const html = 'text/html; charset=utf-8'
  const reference = () =>
    load('reference', async (): Promise<PreparedReference> => {
      const rendered = renderApiReference(await loadDocument(), { specPath, viewerPath: SWAGGER_UI_PATH, stylesheet: `${VIEWER_ASSET_PREFIX}reference.css`, script: `${VIEWER_ASSET_PREFIX}reference.js`, partsPath: REFERENCE_PARTS_PATH })
      const cacheControl = 'public, max-age=300'
      const [page, parts] = await Promise.all([
        prepareEncoded(rendered.html, { contentType: html, cacheControl }),
        prepareEncoded(rendered.partsJson, { contentType: 'application/json; charset=utf-8', cacheControl }),
      ])
      return { page, parts }
    })
  // The viewer of the API reference is not part of it.
  return new Elysia({ name: 'api-viewer', detail: { hide: true } })
    .model(sharedModels)
    .get(
      '/swagger',
      async ({ request }) => serveEncoded((await reference()).page, request),
      { response: { 200: HtmlPage, 304: NoBody }, detail: { tags: ['Site'], summary: 'The API reference (every operation and schema, rendered by this instance)' } },
    )
    .get(
      REFERENCE_PARTS_PATH,
      async ({ request }) => serveEncoded((await reference()).parts, request),
      {
        query: t.Object({ v: t.Optional(t.String({ maxLength: 32, description: 'The version the page names (any value: it only keeps caches apart)' })) }),
        response: { 200: t.Array(t.String(), { description: 'The HTML of each operation and schema, by the index of its data-part' }), 304: NoBody },
        detail: { tags: ['Site'], summary: 'What the API reference shows in an operation or schema when it is opened' },
      },
    )
    .get(
      SWAGGER_UI_PATH,
      async ({ request }) =>
        servePrepared(await load('page', () => prepareResponse(200, viewerPage(specPath), { contentType: html, cacheControl: 'public, max-age=300' })), request.headers.get('if-none-match')),
      { response: { 200: HtmlPage, 304: NoBody }, detail: { tags: ['Site'], summary: 'Swagger UI on the OpenAPI document, for trying requests (served by this instance)' } },
    )
    .get(
      `${VIEWER_ASSET_PREFIX}:file`,
      async ({ params, request }) => {
        const asset = ASSETS[params.file]
        if (!asset) return errorResponse(404, 'not found')
        const prepared = await load(params.file, async () => prepareEncoded(await asset.text(), { contentType: asset.contentType, cacheControl: 'public, max-age=3600' }))
        return serveEncoded(prepared, request)
      },
      {
        params: t.Object({ file: t.String({ maxLength: 40, description: 'swagger-ui.js, swagger-ui.css, start.js, theme.css, reference.css or reference.js' }) }),
        response: { 200: t.String({ description: 'The file' }), 304: NoBody, 404: 'Error' },
        detail: { tags: ['Site'], summary: 'Files of the API reference and of Swagger UI' },
      },
    )
}
