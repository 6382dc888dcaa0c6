/**
 * HTTP of public pages.
 *
 * - `publicPagesApp`: the app of status hosts (`<slug>.<STATUS_DOMAIN>` and custom domains). The
 *   status site's entry (`site-entry.ts`, behind src/http/front.ts) hands it requests rewritten onto an internal origin, with the
 *   page in `publicContext(request)`.
 * - `publicPagesRoutes`: what the service host adds: the owner's settings in the management API
 *   and `GET /api/tls/ask` for Caddy's on-demand TLS.
 */
import { Elysia, t } from 'elysia'
import type { Config } from '../../config.ts'
import { errorResponses, ErrorBody, IdParams, sharedModels } from '../../http/schemas.ts'
import { readCookie } from '../../lib/cookies.ts'
import { errorResponse, HttpError } from '../../lib/errors.ts'
import { servePrepared, type PreparedResponse } from '../../lib/http-cache.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { normalizeHost } from '../../lib/host.ts'
import { publicOrigin, requestProvenance } from '../../lib/same-origin.ts'
import { requestHost } from '../../http/host-router.ts'
import { SESSION_TTL_MS, type PageAccessService } from './access.ts'
import { publicContext, type PublicRequestContext } from './context.ts'
import { NO_SUCH_INCIDENT, type PublicPagesService } from './service.ts'
import { STATUS_API_DOCUMENTS, type StatusApiDocument } from './statuspage-api.ts'
import type { PageSettingsService } from './settings.ts'
import { AccessBody, accessJson, BrandingBody, brandingJson, ImageRef, PageAccessRef, BrandingRef, settingsModels } from './settings-model.ts'

/** Called once per view of a page (HTML, 200 or 304) by a visitor allowed to see it. */
export type PageViewHook = (pageId: number, request: Request) => void

export interface PublicPagesAppDeps {
  service: PublicPagesService
  access: PageAccessService
  config: Pick<Config, 'scheme'>
  onPageView?: PageViewHook
  logError: (error: unknown) => void
}

export function sessionCookieName(scheme: 'http' | 'https'): string {
  // `__Host-` makes browsers keep the cookie to this exact host, over https only.
  return scheme === 'https' ? '__Host-lantern_access' : 'lantern_access'
}

/** A local path to return to after the gate; anything else goes to the page itself. */
export function safeNext(raw: string | null | undefined): string {
  if (!raw || raw.length > 2000 || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || /[\u0000-\u001f\\]/.test(raw)) return '/'
  return raw
}

function pathAndQuery(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  return start === -1 ? '/' : url.slice(start)
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers } })

export function publicPagesApp(deps: PublicPagesAppDeps) {
  const { service, access, config } = deps
  const cookieName = sessionCookieName(config.scheme)

  const ctxOf = (request: Request): PublicRequestContext => {
    const ctx = publicContext(request)
    if (!ctx) throw new HttpError(404, 'not found')
    return ctx
  }

  const hasSession = (ctx: PublicRequestContext) =>
    access.sessionGrants(readCookie(ctx.original.headers.get('cookie'), cookieName), ctx.site.pageId, ctx.site.host)

  /** Visitors of a private page need a session; scripts may bring the embed token instead. */
  const mayRead = async (ctx: PublicRequestContext, request: Request, allowToken: boolean): Promise<boolean> => {
    if (ctx.site.visibility === 'public') return true
    if (await hasSession(ctx)) return true
    if (!allowToken) return false
    const token = new URL(request.url).searchParams.get('auth_token')
    return access.embedTokenGrants(ctx.site.pageId, token)
  }

  const gate = async (
    ctx: PublicRequestContext,
    options: { error?: string; status?: number; headers?: Record<string, string>; next?: string } = {},
  ) => {
    const settings = await access.settings(ctx.site.pageId)
    const response = await service.gatePage(ctx.site, {
      error: options.error,
      // Back to the page that was asked for; after a failed attempt, to where that form pointed.
      next: options.next ?? safeNext(pathAndQuery(ctx.original.url)),
      status: options.status ?? 401,
      passwordConfigured: settings.passwordSet,
    })
    for (const [k, v] of Object.entries(options.headers ?? {})) response.headers.set(k, v)
    return response
  }

  const serve = (prepared: PreparedResponse, request: Request, ctx: PublicRequestContext) => {
    const response = servePrepared(prepared, request.headers.get('if-none-match'))
    if (ctx.site.visibility === 'private') response.headers.set('vary', 'Cookie')
    return response
  }

  /** HTML routes: blocked → 503, private without a session → the gate. */
  const htmlRoute = async (request: Request, render: (ctx: PublicRequestContext) => Promise<PreparedResponse>, countView = false) => {
    const ctx = ctxOf(request)
    if (ctx.site.blocked) return service.blockedPage()
    if (!(await mayRead(ctx, request, false))) return gate(ctx)
    const prepared = await render(ctx)
    if (countView && prepared.status === 200 && request.method === 'GET' && deps.onPageView) {
      try {
        deps.onPageView(ctx.site.pageId, ctx.original)
      } catch (error) {
        deps.logError(error)
      }
    }
    return serve(prepared, request, ctx)
  }

  /** Machine routes (JSON, feeds): blocked → 503, private → session or `auth_token`. */
  const dataRoute = async (request: Request, render: (ctx: PublicRequestContext) => Promise<PreparedResponse>) => {
    const ctx = ctxOf(request)
    if (ctx.site.blocked) return errorResponse(503, 'temporarily unavailable', { 'retry-after': '3600', 'cache-control': 'no-store' })
    if (!(await mayRead(ctx, request, true))) {
      return errorResponse(401, 'this status page is private: sign in on the page or pass auth_token', { 'cache-control': 'no-store' })
    }
    return serve(await render(ctx), request, ctx)
  }

  const assetRoute = async (request: Request, pick: (ctx: PublicRequestContext) => Promise<PreparedResponse | undefined>) => {
    const ctx = ctxOf(request)
    if (ctx.site.blocked) return service.blockedPage()
    const prepared = await pick(ctx)
    return serve(prepared ?? (await service.pageNotFound(ctx.site)), request, ctx)
  }

  let app = new Elysia({ name: 'public-pages' })
    .onError(async ({ code, error, request }) => {
      // A blocked page answers 503 on every path, unknown ones and other methods included.
      const site = publicContext(request)?.site
      const expected = error instanceof HttpError || code === 'NOT_FOUND' || code === 'VALIDATION' || code === 'PARSE'
      if (!expected) deps.logError(error)
      if (site?.blocked) return service.blockedPage()
      if (!expected) return text(500, 'internal error')
      if (code === 'VALIDATION' || code === 'PARSE') return text(400, 'bad request')
      const page = site ? await service.pageNotFound(site) : await service.notFoundPage()
      return new Response(page.body, { status: error instanceof HttpError ? error.status : 404, headers: page.headers })
    })
    .get('/robots.txt', async ({ request }) => servePrepared(await service.robots(ctxOf(request).site), null))
    .get('/_lantern/page.css', async ({ request }) => servePrepared(await service.pageCss, request.headers.get('if-none-match')))
    .get('/_lantern/theme.css', ({ request }) => assetRoute(request, async (ctx) => (await service.look(ctx.site)).theme))
    .get('/_lantern/favicon', ({ request }) => assetRoute(request, async (ctx) => (await service.look(ctx.site)).favicon))
    .get('/favicon.ico', ({ request }) => assetRoute(request, async (ctx) => (await service.look(ctx.site)).favicon))
    .get('/_lantern/logo', ({ request }) => assetRoute(request, async (ctx) => (await service.look(ctx.site)).logo))
    .get('/', ({ request }) => htmlRoute(request, (ctx) => service.page(ctx.site), true))
    .get(
      '/history',
      ({ request, query }) => {
        const before = query.before === undefined ? undefined : Number(query.before)
        if (before !== undefined && (!Number.isSafeInteger(before) || before < 0)) return text(400, 'before must be a time in epoch milliseconds')
        return htmlRoute(request, (ctx) => service.historyPage(ctx.site, before))
      },
      { query: t.Object({ before: t.Optional(t.String({ maxLength: 200 })) }) },
    )
    .get(
      '/incidents/:id',
      async ({ request, params }) => {
        const id = Number(params.id)
        if (!/^\d{1,15}$/.test(params.id)) return htmlRoute(request, (ctx) => service.pageNotFound(ctx.site, NO_SUCH_INCIDENT))
        return htmlRoute(request, (ctx) => service.incidentPage(ctx.site, id))
      },
      { params: t.Object({ id: t.String({ maxLength: 40 }) }) },
    )
    .get('/history.rss', ({ request }) => dataRoute(request, (ctx) => service.feed(ctx.site, 'rss')))
    .get('/history.atom', ({ request }) => dataRoute(request, (ctx) => service.feed(ctx.site, 'atom')))
    .post(
      '/_lantern/access',
      async ({ request }) => {
        const ctx = ctxOf(request)
        if (ctx.site.blocked) return service.blockedPage()
        // A form posted from another site must not sign a visitor in (login CSRF). The whole origin
        // of this host counts, under BASE_URL's scheme: http://<this host> is another site.
        const own = publicOrigin(config.scheme, requestHost(ctx.original))
        if (!own || requestProvenance(request, [own]) === 'cross') return text(403, 'cross-site form refused')
        if (ctx.site.visibility === 'public') return redirect('/')
        const form = new URLSearchParams((await request.text()).slice(0, 10_000))
        const password = form.get('password') ?? ''
        const next = safeNext(form.get('next'))
        const result = await access.attempt({ pageId: ctx.site.pageId, host: ctx.site.host, client: ctx.client, password })
        switch (result.kind) {
          case 'no-password':
            return gate(ctx, { status: 403, next })
          case 'limited': {
            const minutes = Math.ceil(result.retryAfterSeconds / 60)
            return gate(ctx, {
              status: 429,
              error: `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
              headers: { 'retry-after': String(result.retryAfterSeconds) },
              next,
            })
          }
          case 'wrong':
            return gate(ctx, { error: 'Wrong password.', next })
          case 'ok': {
            const secure = config.scheme === 'https' ? '; Secure' : ''
            return redirect(next, {
              'set-cookie': `${cookieName}=${result.token}; Path=/; Max-Age=${SESSION_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure}`,
            })
          }
        }
      },
      { parse: 'none', detail: { hide: true } },
    )
  for (const document of STATUS_API_DOCUMENTS) {
    app = app.get(`/api/v2/${document}.json`, ({ request }) =>
      dataRoute(request, (ctx) => service.statusApi(ctx.site, document as StatusApiDocument)),
    ) as unknown as typeof app
  }
  return app
}

function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...headers } })
}

const detail = (summary: string, description?: string) => ({ tags: ['Status pages'], summary, description, security: apiKeySecurity })

async function uploadedBytes(request: Request): Promise<Uint8Array> {
  const type = request.headers.get('content-type') ?? ''
  if (type.toLowerCase().startsWith('multipart/form-data')) {
    let form: FormData
    try {
      form = await request.formData()
    } catch {
      throw new HttpError(400, 'file: the multipart body could not be read')
    }
    const file = form.get('file')
    if (!(file instanceof Blob)) throw new HttpError(400, 'file is required (multipart field "file")')
    return new Uint8Array(await file.arrayBuffer())
  }
  return new Uint8Array(await request.arrayBuffer())
}

export function publicPagesRoutes(deps: {
  accounts: AccountsService
  settings: PageSettingsService
  service: PublicPagesService
}) {
  const { settings, service } = deps
  const imageRoutes = (kind: 'favicon' | 'logo') =>
    new Elysia({ prefix: '/user/api/v1/status-pages' })
      .model(sharedModels)
      .model(settingsModels)
      .use(ownerAuth(deps.accounts))
      .put(
        `/:id/${kind}`,
        async ({ owner, params, request }) => ({ data: await settings.setImage(owner, params.id, kind, await uploadedBytes(request)) }),
        {
          params: IdParams,
          parse: 'none',
          response: { 200: t.Object({ data: ImageRef }), ...errorResponses },
          detail: detail(
            kind === 'favicon' ? 'Upload the favicon of a page' : 'Upload the logo of a page',
            kind === 'favicon'
              ? 'Multipart field `file` (or the raw bytes as the body). At most 100 KB; PNG, JPEG, SVG or ICO, recognised by content. Needs a plan with custom CSS. SVG is served with a CSP that forbids scripts.'
              : 'Multipart field `file` (or the raw bytes as the body). At most 256 KB; PNG, JPEG, SVG or ICO, recognised by content.',
          ),
        },
      )
      .delete(
        `/:id/${kind}`,
        async ({ owner, params }) => {
          await settings.deleteImage(owner, params.id, kind)
          return { data: { deleted: true } }
        },
        {
          params: IdParams,
          response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses },
          detail: detail(kind === 'favicon' ? 'Remove the custom favicon' : 'Remove the logo'),
        },
      )

  return new Elysia({ name: 'public-pages-management' })
    .get(
      '/api/tls/ask',
      async ({ query }) => {
        const domain = normalizeHost(query.domain ?? '')
        if (domain && !domain.startsWith('[') && (await service.servesDomain(domain))) return { ok: true }
        return errorResponse(404, 'not found')
      },
      {
        query: t.Object({ domain: t.Optional(t.String({ maxLength: 300 })) }),
        response: { 200: t.Object({ ok: t.Boolean() }), 404: ErrorBody },
        detail: {
          tags: ['Operations'],
          summary: 'May a TLS certificate be issued for this domain? (Caddy on-demand TLS `ask`)',
          description: '200 when the domain is the custom domain of a page that is not blocked; 404 otherwise.',
        },
      },
    )
    .use(imageRoutes('favicon'))
    .use(imageRoutes('logo'))
    .use(
      new Elysia({ prefix: '/user/api/v1/status-pages' })
        .model(sharedModels)
        .model(settingsModels)
        .use(ownerAuth(deps.accounts))
        .get('/:id/branding', async ({ owner, params }) => ({ data: brandingJson(await settings.branding(owner, params.id)) }), {
          params: IdParams,
          response: { 200: t.Object({ data: BrandingRef }), ...errorResponses },
          detail: detail('Branding of a page: palette, derived dark colours, custom CSS, favicon, logo'),
        })
        .patch(
          '/:id/branding',
          async ({ owner, params, body }) => ({ data: brandingJson(await settings.setBranding(owner, params.id, body)) }),
          {
            params: IdParams,
            body: BrandingBody,
            response: { 200: t.Object({ data: BrandingRef }), ...errorResponses },
            detail: detail(
              'Change the palette or the custom CSS',
              '`palette`: hex colours for `primary`, `secondary`, `accent`, `background`, `text` (light mode; text must reach 4.5:1 on background). Dark-mode colours are derived. `custom_css` (plans with custom CSS): at most 50 KB, no `<`, no `@import`. `null` resets either.',
            ),
          },
        )
        .get('/:id/access', async ({ owner, params }) => ({ data: accessJson(await settings.accessSettings(owner, params.id)) }), {
          params: IdParams,
          response: { 200: t.Object({ data: PageAccessRef }), ...errorResponses },
          detail: detail('Access settings of a private page'),
        })
        .put(
          '/:id/access',
          async ({ owner, params, body }) => ({ data: accessJson(await settings.setPassword(owner, params.id, body.password)) }),
          {
            params: IdParams,
            body: AccessBody,
            response: { 200: t.Object({ data: PageAccessRef }), ...errorResponses },
            detail: detail(
              'Set the password of a private page',
              'At least 8 characters (shorter passwords set before keep working); `null` removes it. Visitors who typed it get a 1-hour session on that host. Changing it ends every session.',
            ),
          },
        )
        .post(
          '/:id/access/token',
          async ({ owner, params, status }) => status(201, { data: { auth_token: await settings.rotateEmbedToken(owner, params.id) } }),
          {
            params: IdParams,
            response: { 201: t.Object({ data: t.Object({ auth_token: t.String() }) }), ...errorResponses },
            detail: detail(
              'Create a read-only embed token for a private page (replaces the previous one)',
              'Shown once. Add `auth_token=<token>` to the status JSON, badge or widget URLs and to `/api/v2/*.json` and the feeds of the page.',
            ),
          },
        )
        .delete(
          '/:id/access/token',
          async ({ owner, params }) => {
            await settings.revokeEmbedToken(owner, params.id)
            return { data: { deleted: true } }
          },
          {
            params: IdParams,
            response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses },
            detail: detail('Revoke the embed token of a private page'),
          },
        ),
    )
}
