/**
 * The app of status hosts (`<slug>.<STATUS_DOMAIN>` and custom domains). The status site's entry
 * (`site-entry.ts`, behind src/http/front.ts) hands it requests rewritten onto an internal origin,
 * with the page in `publicContext(request)`. The owner's settings are in branding/ and page-access/.
 */
import { Elysia, t, type AnyElysia } from 'elysia'
import type { Config } from '../../config.ts'
import { errorResponse, HttpError } from '../../lib/errors.ts'
import { servePrepared, type PreparedResponse } from '../../lib/http-cache.ts'
import { publicOrigin, requestProvenance } from '../../lib/same-origin.ts'
import { requestHost } from '../../http/host-router.ts'
import { safeNext, VisitorGate } from '../page-access/gate.ts'
import type { PageAccessService } from '../page-access/service.ts'
import { publicContext, type PublicRequestContext } from './context.ts'
import { NO_SUCH_INCIDENT, type StatusSiteService } from './service.ts'
import { visitorChoice } from './visitor.ts'
import { STATUS_API_DOCUMENTS, type StatusApiDocument } from './statuspage-api.ts'
import { calendarDetail, feedDetail, statuspageDocumentDetail } from './api-docs.ts'

/** Called once per view of a page (HTML, 200 or 304) by a visitor allowed to see it. */
export type PageViewHook = (pageId: number, request: Request) => void

export interface StatusSiteAppDeps {
  service: StatusSiteService
  access: PageAccessService
  config: Pick<Config, 'scheme'>
  onPageView?: PageViewHook
  /** Routes other features add to status hosts (page subscribers: src/modules/subscribers/site.ts). */
  routes?: AnyElysia
  logError: (error: unknown) => void
}

function pathAndQuery(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  return start === -1 ? '/' : url.slice(start)
}

/**
 * Pages, forms and their files are for people: they stay out of the OpenAPI document, which lists
 * the machine-read routes of the status hosts (Statuspage JSON, feeds: api-docs.ts).
 */
const forPeople = (summary: string) => ({ tags: ['Status host'], summary, hide: true })

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers } })

export function statusSiteApp(deps: StatusSiteAppDeps) {
  const { service, access, config } = deps
  const visitors = new VisitorGate(access, config.scheme)

  const ctxOf = (request: Request): PublicRequestContext => {
    const ctx = publicContext(request)
    if (!ctx) throw new HttpError(404, 'not found')
    return ctx
  }

  const mayRead = (ctx: PublicRequestContext, request: Request, allowToken: boolean): Promise<boolean> =>
    visitors.mayRead(ctx.site, { cookieHeader: ctx.original.headers.get('cookie'), url: request.url }, allowToken)

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
    if (ctx.site.visibility === 'private') response.headers.append('vary', 'Cookie')
    return response
  }

  /** The language and zone this visitor reads the page in (`?lang=`, `?tz=`, Accept-Language). */
  const choiceOf = (request: Request, ctx: PublicRequestContext) => {
    const start = request.url.indexOf('?')
    return visitorChoice(start === -1 ? '' : request.url.slice(start + 1), ctx.original.headers.get('accept-language'), ctx.site)
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

  let app = new Elysia({ name: 'status-site' })
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
    .get('/robots.txt', async ({ request }) => servePrepared(await service.robots(ctxOf(request).site), null), {
      detail: forPeople('robots.txt of the status page'),
    })
    .get('/_lantern/page.css', async ({ request }) => servePrepared(await service.pageCss, request.headers.get('if-none-match')), {
      detail: forPeople('Stylesheet shared by every status page'),
    })
    .get('/_lantern/theme.css', ({ request }) => assetRoute(request, async (ctx) => (await service.look(ctx.site)).theme), {
      detail: forPeople("The page's palette and custom CSS (branding)"),
    })
    .get('/_lantern/favicon', ({ request }) => assetRoute(request, async (ctx) => (await service.look(ctx.site)).favicon), {
      detail: forPeople("The page's favicon (branding)"),
    })
    .get('/favicon.ico', ({ request }) => assetRoute(request, async (ctx) => (await service.look(ctx.site)).favicon), {
      detail: forPeople("The page's favicon, at the address browsers ask for"),
    })
    .get('/_lantern/logo', ({ request }) => assetRoute(request, async (ctx) => (await service.look(ctx.site)).logo), {
      detail: forPeople("The page's logo (branding)"),
    })
    .get('/', ({ request }) => htmlRoute(request, (ctx) => service.page(ctx.site, choiceOf(request, ctx)), true), {
      detail: forPeople('The status page: components, their 90-day bars, current incidents and maintenance (HTML)'),
    })
    .get(
      '/history',
      ({ request, query }) => {
        const before = query.before === undefined ? undefined : Number(query.before)
        if (before !== undefined && (!Number.isSafeInteger(before) || before < 0)) return text(400, 'before must be a time in epoch milliseconds')
        return htmlRoute(request, (ctx) => service.historyPage(ctx.site, before, choiceOf(request, ctx)))
      },
      {
        query: t.Object({
          before: t.Optional(t.String({ maxLength: 200, description: 'Older than this time (epoch milliseconds)' })),
          // Read by visitorChoice from the URL; an unknown value is ignored, never a 400.
          lang: t.Optional(t.String({ description: 'The language to show (en, de, fr, es, pt-BR, ja)' })),
          tz: t.Optional(t.String({ description: 'An IANA time zone to show times in' })),
        }),
        detail: forPeople('Past incidents and maintenance, newest first (HTML)'),
      },
    )
    .get(
      '/incidents/:id',
      async ({ request, params }) => {
        const id = Number(params.id)
        if (!/^\d{1,15}$/.test(params.id)) return htmlRoute(request, (ctx) => service.pageNotFound(ctx.site, NO_SUCH_INCIDENT))
        return htmlRoute(request, (ctx) => service.incidentPage(ctx.site, id, choiceOf(request, ctx)))
      },
      { params: t.Object({ id: t.String({ maxLength: 40 }) }), detail: forPeople('One incident with its timeline of updates (HTML)') },
    )
    .get('/history.rss', ({ request }) => dataRoute(request, (ctx) => service.feed(ctx.site, 'rss')), {
      detail: feedDetail('rss'),
    })
    .get('/history.atom', ({ request }) => dataRoute(request, (ctx) => service.feed(ctx.site, 'atom')), {
      detail: feedDetail('atom'),
    })
    .get('/maintenance.ics', ({ request }) => dataRoute(request, (ctx) => service.calendar(ctx.site)), {
      detail: calendarDetail,
    })
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
        const outcome = await visitors.submit({ pageId: ctx.site.pageId, host: ctx.site.host, client: ctx.client, form })
        if (outcome.kind === 'open') return redirect(outcome.next, { 'set-cookie': outcome.setCookie })
        return gate(ctx, {
          status: outcome.status,
          error: outcome.error,
          headers: outcome.retryAfterSeconds === undefined ? undefined : { 'retry-after': String(outcome.retryAfterSeconds) },
          next: outcome.next,
        })
      },
      { parse: 'none', detail: forPeople("The private page's gate form: password in, session cookie out (a form POST from this host only)") },
    )
  if (deps.routes) app = app.use(deps.routes) as unknown as typeof app
  for (const document of STATUS_API_DOCUMENTS) {
    app = app.get(
      `/api/v2/${document}.json`,
      ({ request }) => dataRoute(request, (ctx) => service.statusApi(ctx.site, document as StatusApiDocument)),
      { detail: statuspageDocumentDetail(document) },
    ) as unknown as typeof app
  }
  return app
}

function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...headers } })
}

