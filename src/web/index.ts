/**
 * The owner's web app under /user: log in and out, sign up (only with SIGNUP=open), change the
 * password, static files, and the screens (screens/*.ts, registered in SCREENS below). Server-rendered
 * HTML on the kit (kit/*.ts); forms work without JavaScript. The analytics dashboards (analytics/)
 * are the web app's too. Only the app composition (src/app.ts) imports this folder, through this file.
 */
import { Elysia, t } from 'elysia'
import type { Config } from '../config.ts'
import { errorResponse, HttpError } from '../lib/errors.ts'
import { limitLabel, tooLargeMessage } from '../http/body-limit.ts'
import { isCrossSite, isSameOrigin, sessionToken } from '../modules/accounts/auth.ts'
import { TooManyAttempts, type AccountsService } from '../modules/accounts/service.ts'
import { endSessionCookie, htmlPage, loginRedirect, redirect, safeNext, sessionCookie, sessionUser } from './responses.ts'
import { loginPage, messagePage, passwordPage, signupPage } from './views.ts'
import { crossSitePage } from './kit/guard.ts'
import type { ScreenDeps } from './screens/deps.ts'
import { pageScreens } from './screens/pages.ts'
import { setupScreens } from './screens/setup.ts'
import { accountScreens } from './screens/account.ts'
import { planScreens } from './screens/plan.ts'
import { brandingScreens } from './screens/branding-all.ts'
import { componentScreens } from './screens/components.ts'
import { componentHistoryScreens } from './screens/component-history.ts'
import { incidentScreens } from './screens/incidents.ts'
import { templateScreens } from './screens/templates.ts'
import { maintenanceScreens } from './screens/maintenances.ts'
import { monitorAlertScreens } from './screens/monitor-alerts.ts'
import { monitorScreens } from './screens/monitors.ts'
import { notificationScreens } from './screens/notifications.ts'
import { autoIncidentScreens } from './screens/auto-incidents.ts'
import { transferScreens } from './screens/transfer.ts'
import { invitationScreens } from './screens/invitations.ts'
import { teamMemberScreens } from './screens/team-members.ts'
import { teamAuditScreens } from './screens/team-audit.ts'
import { teamScreens } from './screens/teams.ts'
import { importScreens } from './screens/import.ts'
import { slaScreens } from './screens/sla.ts'
import { vendorFeedScreens } from './screens/vendor-feed.ts'
import { toolScreens } from './screens/tools.ts'
import { subscriberScreens } from './screens/subscribers.ts'
import { passwordResetScreens } from './screens/password-reset.ts'
import { challengeCookie, twoFactorScreens } from './screens/two-factor.ts'
import { ssoScreens } from './screens/sso.ts'
import { passkeyScreens } from './screens/passkeys.ts'
import { clearFlashCookie, readFlash } from './kit/flash.ts'
import { loadAsset } from './assets.ts'
import { clientKey } from '../http/context.ts'
import { servePrepared } from '../lib/http-cache.ts'

/**
 * A body past its path's limit (http/body-limit.ts), refused before it is read: a page for the web
 * app's forms (a file too large for the Import screen), the API's JSON error for everything else.
 */
export function tooLargeAnswer(request: Request, limitBytes: number): Response {
  const path = new URL(request.url).pathname
  if (!path.startsWith('/user/') || path.startsWith('/user/api/')) return errorResponse(413, tooLargeMessage(limitBytes))
  return htmlPage(messagePage('Too large', `This form takes at most ${limitLabel(limitBytes)}, and more was sent. Go back and choose a smaller file.`), 413)
}

/** The owner's and the shared analytics dashboards, mounted after the analytics API. */
export { analyticsDashboardRoutes } from './analytics/index.ts'

const detail = (summary: string, description?: string) => ({ tags: ['User area'], summary, description })
const HtmlResponse = t.String({ description: 'An HTML page' })
const FormField = (max: number) => t.String({ maxLength: max })

const crossSite = crossSitePage

export function userAreaRoutes(deps: ScreenDeps) {
  const { config } = deps
  const accounts: AccountsService = deps.services.accounts
  const signupOpen = config.signup === 'open'
  const resets = deps.services.passwordResets
  // The login screen's "Sign in with …" button, only with single sign-on set up (OIDC_*).
  const sso = deps.services.sso.available ? { name: deps.services.sso.providerName } : undefined
  // HTML screens and forms for people: not part of the API reference.
  return new Elysia({ detail: { hide: true } })
    // Every screen module of the web app, in one place: add yours here (screens/*.ts).
    .use(slaScreens(deps))
    .use(vendorFeedScreens(deps))
    .use(pageScreens(deps))
    .use(setupScreens(deps))
    .use(accountScreens(deps))
    .use(planScreens(deps))
    .use(brandingScreens(deps))
    .use(componentScreens(deps))
    .use(componentHistoryScreens(deps))
    .use(incidentScreens(deps))
    .use(templateScreens(deps))
    .use(maintenanceScreens(deps))
    .use(monitorScreens(deps))
    .use(monitorAlertScreens(deps))
    .use(notificationScreens(deps))
    .use(autoIncidentScreens(deps))
    .use(transferScreens(deps))
    .use(teamScreens(deps))
    .use(teamAuditScreens(deps))
    .use(teamMemberScreens(deps))
    .use(importScreens(deps))
    .use(invitationScreens(deps))
    .use(toolScreens(deps))
    .use(subscriberScreens(deps))
    .use(passwordResetScreens(deps))
    .use(twoFactorScreens(deps))
    .use(ssoScreens(deps))
    .use(passkeyScreens(deps))
    .get(
      '/user/login',
      async ({ request, query }) => {
        if (await sessionUser(accounts, request)) return redirect(safeNext(query.next))
        const flash = readFlash(request)
        const page = loginPage({ next: safeNext(query.next), signupOpen, resetByMail: resets.available, flash, setupPending: await accounts.needsSetup(), sso })
        return htmlPage(page, 200, flash ? { 'set-cookie': clearFlashCookie(config) } : {})
      },
      { query: t.Object({ next: t.Optional(t.String({ maxLength: 4000 })) }), response: { 200: HtmlResponse }, detail: detail('Login page') },
    )
    .post(
      '/user/login',
      async ({ request, body, server }) => {
        // Login forms may come without Origin from old clients, but never from another site.
        if (isCrossSite(request, accounts.serviceOrigin)) return crossSite()
        const next = safeNext(body.next)
        const client = clientOf(request, server)
        try {
          const user = await accounts.checkLogin(body.email, body.password, client)
          // With a second factor (the app or a passkey), the password alone starts no session.
          if (await accounts.hasSecondFactor(user.id)) {
            const challenge = await deps.services.twoFactor.startChallenge(user.id)
            return redirect(`/user/login/two-factor?next=${encodeURIComponent(next)}`, 303, { 'set-cookie': challengeCookie(config, challenge) })
          }
          const token = await accounts.startSession(user.id, request.headers.get('user-agent'))
          return redirect(next, 303, { 'set-cookie': sessionCookie(config, token) })
        } catch (error) {
          if (error instanceof TooManyAttempts) {
            return htmlPage(loginPage({ error: 'Too many login attempts. Try again in a few minutes.', email: body.email, next, signupOpen, resetByMail: resets.available, sso }), 429, {
              'retry-after': String(error.retryAfterSeconds),
            })
          }
          if (error instanceof HttpError && error.status === 401) {
            return htmlPage(loginPage({ error: 'Wrong email or password.', email: body.email, next, signupOpen, resetByMail: resets.available, sso }), 401)
          }
          throw error
        }
      },
      {
        body: t.Object({ email: FormField(320), password: FormField(1024), next: t.Optional(FormField(4000)) }),
        response: { 303: t.Void(), 401: HtmlResponse, 403: HtmlResponse, 429: HtmlResponse },
        detail: detail('Log in (form post)', 'Sets the HttpOnly session cookie and redirects to `next`. Throttled per email and client, per client, and per email over all clients (429 with Retry-After; see the operations guide).'),
      },
    )
    .post(
      '/user/logout',
      async ({ request }) => {
        const token = sessionToken(request)
        if (token && !isSameOrigin(request, accounts.serviceOrigin)) return crossSite()
        if (token) await accounts.endSession(token)
        return redirect('/user/login', 303, { 'set-cookie': endSessionCookie(config) })
      },
      { response: { 303: t.Void(), 403: HtmlResponse }, detail: detail('Log out', 'Ends the session on the server and clears the cookie.') },
    )
    .get(
      '/user/password',
      async ({ request, query }) => {
        const user = await sessionUser(accounts, request)
        if (!user) return loginRedirect(request)
        return htmlPage(passwordPage(user, { done: query.done === '1' }))
      },
      { query: t.Object({ done: t.Optional(t.String()) }), response: { 200: HtmlResponse }, detail: detail('Password change form') },
    )
    .post(
      '/user/password',
      async ({ request, body, server }) => {
        const user = await sessionUser(accounts, request)
        if (!user) return loginRedirect(request)
        if (!isSameOrigin(request, accounts.serviceOrigin)) return crossSite()
        try {
          await accounts.changePassword(user.userId, body.new_password, { password: body.current_password, client: clientOf(request, server) })
        } catch (error) {
          if (error instanceof TooManyAttempts) {
            return htmlPage(passwordPage(user, { error: 'Too many attempts. Try again in a few minutes.' }), 429, { 'retry-after': String(error.retryAfterSeconds) })
          }
          if (error instanceof HttpError && error.status === 400) return htmlPage(passwordPage(user, { error: error.message }), 400)
          throw error
        }
        // Every session ended with the change; this browser gets a fresh one.
        const token = await accounts.startSession(user.userId, request.headers.get('user-agent'))
        return redirect('/user/password?done=1', 303, { 'set-cookie': sessionCookie(config, token) })
      },
      {
        body: t.Object({ current_password: FormField(1024), new_password: FormField(2048) }),
        response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 429: HtmlResponse },
        detail: detail('Change the password', 'Ends every session of the account, then starts a new one for this browser.'),
      },
    )
    .get('/static/user/:file', ({ params, request }) => serveAsset(`/static/user/${params.file}`, request), {
      params: t.Object({ file: t.String({ maxLength: 100 }) }),
      detail: { ...detail('Static files of the user area'), hide: true },
    })
    .get('/static/analytics/:file', ({ params, request }) => serveAsset(`/static/analytics/${params.file}`, request), {
      params: t.Object({ file: t.String({ maxLength: 100 }) }),
      detail: { ...detail('Static files of the analytics dashboard'), hide: true },
    })
    .get('/user/signup', () => (signupOpen ? htmlPage(signupPage({})) : closedSignup()), {
      response: { 200: HtmlResponse, 404: HtmlResponse },
      detail: detail('Sign-up page (only with SIGNUP=open)'),
    })
    .post(
      '/user/signup',
      async ({ request, body, server }) => {
        if (!signupOpen) return closedSignup()
        if (!isSameOrigin(request, accounts.serviceOrigin)) return crossSite()
        try {
          const { token } = await accounts.signUp({ email: body.email, password: body.password }, clientOf(request, server), request.headers.get('user-agent'))
          return redirect('/user', 303, { 'set-cookie': sessionCookie(config, token) })
        } catch (error) {
          if (error instanceof TooManyAttempts) {
            return htmlPage(signupPage({ error: 'Too many sign-ups from your address. Try again later.', email: body.email }), 429, {
              'retry-after': String(error.retryAfterSeconds),
            })
          }
          if (error instanceof HttpError && error.status === 400) return htmlPage(signupPage({ error: error.message, email: body.email }), 400)
          throw error
        }
      },
      {
        body: t.Object({ email: FormField(320), password: FormField(2048) }),
        response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 429: HtmlResponse },
        detail: detail('Create an account (only with SIGNUP=open)', 'At most 10 attempts per client address an hour (429).'),
      },
    )
}

/** The client address for rate limits: proxy-aware (see clientKey), else the socket's. */
function clientOf(request: Request, server: { requestIP(request: Request): { address: string } | null } | null): string {
  const key = clientKey(request)
  return key !== 'unknown' ? key : (server?.requestIP(request)?.address ?? 'unknown')
}

const closedSignup = () =>
  htmlPage(messagePage('Sign-up is closed', 'Accounts on this Lantern are created by its administrator (lantern user create).'), 404)

async function serveAsset(path: string, request: Request): Promise<Response> {
  const asset = await loadAsset(path, request.headers.get('accept-encoding'))
  if (!asset) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })
  return servePrepared(asset, request.headers.get('if-none-match'))
}

