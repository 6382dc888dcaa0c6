/**
 * The subscriber routes of a status host (used by the status-site app):
 *
 *   GET  /subscribe                 the form (public pages with mail on; else the page's 404)
 *   POST /subscribe                 always "check your inbox" (honeypot, rate limit per client)
 *   GET  /subscribe/confirm?token   a button (mail scanners that open links confirm nothing)
 *   POST /subscribe/confirm         confirms
 *   GET  /subscribe/manage?token    components and unsubscribe, only with the mailed token
 *   POST /subscribe/manage          save | unsubscribe
 *   GET  /unsubscribe?token         a button
 *   POST /unsubscribe?token         unsubscribes at once: RFC 8058 one-click (the body is
 *                                   `List-Unsubscribe=One-Click`), no Origin asked (mail providers post it)
 *
 * Forms other than one-click are refused when posted from another site. Token pages are not behind
 * a private page's gate: the token is the permission, and it shows nothing but the subscription.
 */
import { Elysia, t } from 'elysia'
import type { Config } from '../../config.ts'
import { requestHost } from '../../http/host-router.ts'
import type { Clock } from '../../lib/clock.ts'
import { HttpError } from '../../lib/errors.ts'
import { AttemptBudget, type AttemptBudgetStore } from '../../lib/attempt-budget.ts'
import { publicOrigin, requestProvenance } from '../../lib/same-origin.ts'
import type { Words } from '../../lib/i18n.ts'
import { publicContext, type PublicRequestContext } from '../status-site/context.ts'
import { speechOf, type SwitcherTarget } from '../status-site/render/shared.ts'
import { PAGE_CSP, type StatusSiteService } from '../status-site/service.ts'
import { visitorChoice, type VisitorChoice } from '../status-site/visitor.ts'
import type { SubscribersService } from './service.ts'
import { chatDestination, isChatKind } from './chat.ts'
import { checkChannelPage, checkInboxPage, confirmPage, formErrorKey, managePage, messagePage, subscribeFormPage, unsubscribePage, type MessageKey, type SiteFrame } from './site-views.ts'

/** Subscribe attempts per client and page. */
export const SUBSCRIBE_ATTEMPTS = 5
export const SUBSCRIBE_WINDOW_MS = 15 * 60_000
const MAX_FORM = 20_000

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  // Token pages must not hand their address (and token) to anything they link to.
  'referrer-policy': 'no-referrer',
}

const htmlResponse = (body: string, status = 200, extra: Record<string, string> = {}) => new Response(body, { status, headers: { ...HEADERS, ...extra } })
const doc = (summary: string) => ({ tags: ['Status host'], summary })
/** Read by visitorChoice from the URL, like on the page: an unknown value is ignored, never a 400. */
const lang = t.Optional(t.String({ description: 'The language to show (en, de, fr, es, pt-BR, ja)' }))
const tokenQuery = t.Object({ token: t.Optional(t.String({ maxLength: 200 })), lang })

export interface SubscribeSiteDeps {
  site: StatusSiteService
  subscribers: SubscribersService
  config: Pick<Config, 'scheme'>
  clock: Clock
  /** Where the per-page-and-client subscribe budget is counted (the database: it holds across servers). */
  attemptBudgets: AttemptBudgetStore
}

async function readForm(request: Request): Promise<URLSearchParams> {
  return new URLSearchParams((await request.text()).slice(0, MAX_FORM))
}

const idsOf = (form: URLSearchParams): number[] => form.getAll('components').filter((v) => /^\d{1,15}$/.test(v)).map(Number)

export function subscribeSiteRoutes(deps: SubscribeSiteDeps) {
  const { site, subscribers, config } = deps
  const limiter = new AttemptBudget({ name: 'subscribe', budget: { limit: SUBSCRIBE_ATTEMPTS, windowMs: SUBSCRIBE_WINDOW_MS }, store: deps.attemptBudgets, clock: deps.clock })

  const ctxOf = (request: Request): PublicRequestContext => {
    const ctx = publicContext(request)
    if (!ctx) throw new HttpError(404, 'not found')
    return ctx
  }
  /** The visitor's language, chosen as on the page: `?lang=`, else Accept-Language, else the page's default. */
  const choiceOf = (request: Request, ctx: PublicRequestContext): VisitorChoice => {
    const start = request.url.indexOf('?')
    return visitorChoice(start === -1 ? '' : request.url.slice(start + 1), ctx.original.headers.get('accept-language'), ctx.site)
  }
  /** `here`: the address of this page in another language (the switcher's links); by default the status page. */
  const frameOf = async (ctx: PublicRequestContext, choice: VisitorChoice, here: SwitcherTarget = { path: '/' }): Promise<SiteFrame> => ({
    name: ctx.site.name,
    assets: (await site.look(ctx.site)).assets,
    subscribe: subscribers.acceptsVisitors(ctx.site),
    speech: speechOf({ ...choice, pickedZone: undefined }),
    picked: choice.pickedLang,
    here,
  })
  const message = async (ctx: PublicRequestContext, choice: VisitorChoice, key: MessageKey, status = 200, extra: Record<string, string> = {}) =>
    htmlResponse(messagePage(await frameOf(ctx, choice), key), status, extra)
  const formHere: SwitcherTarget = { path: '/subscribe' }
  const tokenHere = (path: string, token: string): SwitcherTarget => ({ path, before: `token=${encodeURIComponent(token)}&` })
  const crossSite = (ctx: PublicRequestContext, request: Request) => {
    const own = publicOrigin(config.scheme, requestHost(ctx.original))
    return !own || requestProvenance(request, [own]) === 'cross'
  }
  const refused = () => new Response('cross-site form refused', { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } })
  const notFoundPage = async (ctx: PublicRequestContext, message?: string) => {
    const page = await site.pageNotFound(ctx.site, message)
    return new Response(page.body, { status: 404, headers: page.headers })
  }
  const invalidLink = (ctx: PublicRequestContext, choice: VisitorChoice) => message(ctx, choice, 'invalid', 404)

  /** The form's routes: a page that takes visitors' subscriptions, else blocked (503) or the page's 404. */
  const withForm = async (request: Request, then: (ctx: PublicRequestContext) => Promise<Response>) => {
    const ctx = ctxOf(request)
    if (ctx.site.blocked) return site.blockedPage()
    if (!subscribers.acceptsVisitors(ctx.site)) return notFoundPage(ctx, 'This page takes no subscriptions.')
    return then(ctx)
  }
  /** Token routes: work on public and private pages alike; a blocked page answers 503. */
  const withToken = async (request: Request, then: (ctx: PublicRequestContext) => Promise<Response>) => {
    const ctx = ctxOf(request)
    if (ctx.site.blocked) return site.blockedPage()
    return then(ctx)
  }

  // Forms and pages for people (and the one-click unsubscribe a mail names): not part of the API reference.
  return new Elysia({ name: 'subscribers-site', detail: { hide: true } })
    .get(
      '/subscribe',
      ({ request }) => withForm(request, async (ctx) => htmlResponse(subscribeFormPage(await frameOf(ctx, choiceOf(request, ctx), formHere), await subscribers.form(ctx.site.pageId)))),
      { detail: doc('The subscribe form (public pages, when the instance sends mail), in the visitor\'s language') },
    )
    .post(
      '/subscribe',
      ({ request }) =>
        withForm(request, async (ctx) => {
          if (crossSite(ctx, request)) return refused()
          const choice = choiceOf(request, ctx)
          const key = `${ctx.site.pageId}:${ctx.client}`
          const wait = await limiter.take(key)
          if (wait > 0) return message(ctx, choice, 'too_many', 429, { 'retry-after': String(Math.ceil(wait / 1000)) })
          const form = await readForm(request)
          const frame = await frameOf(ctx, choice, formHere)
          // A bot filled the field people never see: answered like everyone, nothing done.
          if ((form.get('website') ?? '') !== '') return htmlResponse(checkInboxPage(frame))
          const email = form.get('email') ?? ''
          const url = form.get('url') ?? ''
          const via = form.get('via') ?? 'email'
          const chosen = idsOf(form)
          const channel = isChatKind(via) ? via : undefined
          try {
            // The subscriber's mails and messages are in the language they read the form in.
            if (channel) await subscribers.subscribeChannel(ctx.site.pageId, { kind: channel, url, componentIds: chosen, language: choice.lang })
            else await subscribers.subscribe(ctx.site.pageId, { email, componentIds: chosen, language: choice.lang })
          } catch (error) {
            if (!(error instanceof HttpError) || error.status !== 400) throw error
            const page = await subscribers.form(ctx.site.pageId)
            const errorOn = channel ? ('url' as const) : ('email' as const)
            const kept = { email: email.slice(0, 254), url: url.slice(0, 2048), via, chosen, error: formErrorKey(error.message, errorOn), errorOn }
            return htmlResponse(subscribeFormPage(frame, page, kept), 400)
          }
          return htmlResponse(channel ? checkChannelPage(frame) : checkInboxPage(frame))
        }),
      { parse: 'none', detail: doc('Subscribe: the same answer whether or not the address is subscribed; the address gets the confirmation link') },
    )
    .get(
      '/subscribe/confirm',
      ({ request, query }) =>
        withToken(request, async (ctx) => {
          const choice = choiceOf(request, ctx)
          const pending = await subscribers.pendingByConfirmToken(ctx.site.pageId, query.token ?? '')
          if (!pending) return invalidLink(ctx, choice)
          const frame = await frameOf(ctx, choice, tokenHere('/subscribe/confirm', query.token!))
          return htmlResponse(confirmPage(frame, addressOf(pending, frame.speech.w), query.token!))
        }),
      { query: tokenQuery, detail: doc('The confirmation link of a subscription: a button that confirms') },
    )
    .post(
      '/subscribe/confirm',
      ({ request }) =>
        withToken(request, async (ctx) => {
          if (crossSite(ctx, request)) return refused()
          const choice = choiceOf(request, ctx)
          const form = await readForm(request)
          const done = await subscribers.confirm(ctx.site.pageId, form.get('token') ?? '')
          if (!done) return invalidLink(ctx, choice)
          return message(ctx, choice, 'subscribed')
        }),
      { parse: 'none', detail: doc('Confirm a subscription (the token from the confirmation mail)') },
    )
    .get(
      '/subscribe/manage',
      ({ request, query }) =>
        withToken(request, async (ctx) => {
          const choice = choiceOf(request, ctx)
          const token = query.token ?? ''
          const view = await subscribers.manageView(ctx.site.pageId, token)
          if (!view || view.subscriber.status !== 'confirmed') return invalidLink(ctx, choice)
          if (view.subscriber.unsubscribed) return message(ctx, choice, 'unsubscribed')
          const frame = await frameOf(ctx, choice, tokenHere('/subscribe/manage', token))
          return htmlResponse(managePage(frame, view.page, { address: addressOf(view.subscriber, frame.speech.w), chosen: view.subscriber.componentIds, token }))
        }),
      { query: tokenQuery, detail: doc('Manage a subscription (the link in every mail)') },
    )
    .post(
      '/subscribe/manage',
      ({ request }) =>
        withToken(request, async (ctx) => {
          if (crossSite(ctx, request)) return refused()
          const choice = choiceOf(request, ctx)
          const form = await readForm(request)
          const token = form.get('token') ?? ''
          if (form.get('action') === 'unsubscribe') {
            if (!(await subscribers.unsubscribe(ctx.site.pageId, token))) return invalidLink(ctx, choice)
            return message(ctx, choice, 'unsubscribed')
          }
          // Saving keeps the language the page was read in: later mails come in it.
          const view = await subscribers.setComponents(ctx.site.pageId, token, idsOf(form), choice.lang).catch((error) => {
            if (error instanceof HttpError && error.status === 404) return undefined
            throw error
          })
          if (!view) return invalidLink(ctx, choice)
          const frame = await frameOf(ctx, choice, tokenHere('/subscribe/manage', token))
          return htmlResponse(managePage(frame, view.page, { address: addressOf(view.subscriber, frame.speech.w), chosen: view.subscriber.componentIds, token, saved: true }))
        }),
      { parse: 'none', detail: doc('Change the components of a subscription, or unsubscribe') },
    )
    .get(
      '/unsubscribe',
      ({ request, query }) =>
        withToken(request, async (ctx) => {
          const choice = choiceOf(request, ctx)
          const token = query.token ?? ''
          if (!(await subscribers.manageView(ctx.site.pageId, token))) return invalidLink(ctx, choice)
          return htmlResponse(unsubscribePage(await frameOf(ctx, choice, tokenHere('/unsubscribe', token)), token))
        }),
      { query: tokenQuery, detail: doc('The unsubscribe link of a mail: a button') },
    )
    .post(
      '/unsubscribe',
      async ({ request, query }) => {
        const ctx = ctxOf(request)
        // One-click unsubscribe must work whatever the page's state: no gate, no block, no Origin.
        const done = await subscribers.unsubscribe(ctx.site.pageId, query.token ?? '')
        if (!done) return ctx.site.blocked ? new Response('not found', { status: 404 }) : invalidLink(ctx, choiceOf(request, ctx))
        if (ctx.site.blocked) return new Response('unsubscribed', { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } })
        return message(ctx, choiceOf(request, ctx), 'unsubscribed')
      },
      {
        parse: 'none',
        query: tokenQuery,
        detail: doc('One-click unsubscribe (RFC 8058): a POST with `List-Unsubscribe=One-Click` unsubscribes at once'),
      },
    )
}

/** How a subscription is named to a person: the address, or the chat channel it posts to. */
function addressOf(row: { kind: string; email: string | null; url: string | null }, w: Words): string {
  return isChatKind(row.kind) && row.url ? chatDestination(row.kind, row.url, w) : (row.email ?? row.url ?? '')
}
