/**
 * The door of every screen: `const screen = screens({ accounts, config })`, then
 *
 *   .get('/user/pages/:id', screen(async ({ user, render }) => render({ title, crumbs }, body)))
 *   .post('/user/pages/:id/settings', screen(async ({ user, body, redirect }) => redirect(url, 'Saved')))
 *
 * - no session: GET → redirect to the login page with `next=`; POST → the same redirect, nothing done;
 * - a POST whose Origin (or Referer, Sec-Fetch-Site) is not this service → 403 HTML page, nothing done
 *   (the rule of the API: accounts/auth.ts isSameOrigin);
 * - a member acting in a team that requires two-factor, without it → 303 to the two-factor screen
 *   with a flash saying why, nothing done; but for their account, two-factor, password, passkeys
 *   and the teams screen (route-permissions.ts TWO_FACTOR_FREE_SCREENS), so they can enrol or act
 *   in another team;
 * - a screen the member's role in the acting team may not use (route-permissions.ts) → 403 HTML page;
 * - an HttpError thrown by the handler (a service's 404 for another owner's id…) → an HTML error page
 *   with its status; `render` shows the flash and clears its cookie; `redirect` is a 303 with a flash;
 * - a write that succeeds (an answer below 400, not a redirect with an error) is recorded in the
 *   audit log, as the API's writes are (accounts/auth.ts ownerAuth).
 */
import type { Config } from '../../config.ts'
import { HttpError } from '../../lib/errors.ts'
import { authorize, isSameOrigin, lacksRequiredTwoFactor, requestAudit, twoFactorRequiredMessage } from '../../modules/accounts/auth.ts'
import { isTwoFactorFreeScreen } from '../../modules/accounts/route-permissions.ts'
import type { AccountsService, Owner } from '../../modules/accounts/service.ts'
import { htmlPage, loginRedirect, redirect as redirectTo, sessionUser } from '../responses.ts'
import { clearFlashCookie, flashCookie, readFlash, type Flash } from './flash.ts'
import { layout, messagePage, type LayoutOptions } from './layout.ts'

export interface ScreenContext {
  user: Owner
  request: Request
  /** Elysia's parsed body (forms: read it with kit/forms.ts readForm). */
  body: unknown
  params: Record<string, string>
  query: Record<string, string | undefined>
  /** The page shell around `body`, with this user, the flash and the current path. */
  render(options: Omit<LayoutOptions, 'user' | 'flash' | 'path'> & { flash?: Flash }, body: string, status?: number): Response
  /** 303 to `location`, with a notice (or error) shown there. */
  redirect(location: string, flash?: string | Flash): Response
}

export type ScreenHandler = (context: ScreenContext) => Response | Promise<Response>

const ERROR_TITLES: Record<number, string> = {
  400: 'Bad request',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
}

/** The HTML page for an HttpError (404 for another owner's id, exactly as the API answers). */
export function errorPage(error: HttpError, user?: Owner): Response {
  const message = error.status === 404 ? 'There is nothing here, or it belongs to another account.' : error.message
  return htmlPage(messagePage(ERROR_TITLES[error.status] ?? 'Error', message, user), error.status)
}

export const crossSitePage = (): Response =>
  htmlPage(messagePage('Request refused', 'This form must be sent from this site.'), 403)

export function screens(deps: { accounts: AccountsService; config: Config }) {
  const { accounts, config } = deps
  return (handler: ScreenHandler) =>
    async (context: { request: Request; route?: string; body?: unknown; params?: Record<string, string>; query?: Record<string, string | undefined> }): Promise<Response> => {
      const { request } = context
      const writes = request.method !== 'GET' && request.method !== 'HEAD'
      if (writes && !isSameOrigin(request, accounts.serviceOrigin)) return crossSitePage()
      const user = await sessionUser(accounts, request)
      if (!user) return loginRedirect(request)
      if (context.route !== undefined && !isTwoFactorFreeScreen(context.route) && (await lacksRequiredTwoFactor(accounts, user))) {
        return redirectTo('/user/two-factor', 303, { 'set-cookie': flashCookie(config, { kind: 'error', text: twoFactorRequiredMessage(user) }) })
      }
      const flash = writes ? undefined : readFlash(request)
      const path = new URL(request.url).pathname
      let failed = false
      const screen: ScreenContext = {
        user,
        request,
        body: context.body,
        params: context.params ?? {},
        query: context.query ?? {},
        render(options, body, status = 200) {
          const shown = options.flash ?? flash
          return htmlPage(layout({ ...options, user, flash: shown, path }, body), status, flash ? { 'set-cookie': clearFlashCookie(config) } : {})
        },
        redirect(location, message) {
          if (message === undefined) return redirectTo(location)
          const carried = typeof message === 'string' ? { kind: 'notice' as const, text: message } : message
          if (carried.kind === 'error') failed = true
          return redirectTo(location, 303, { 'set-cookie': flashCookie(config, carried) })
        },
      }
      try {
        // The role in the acting team must allow the screen (route-permissions.ts), as on the API.
        if (context.route !== undefined) await authorize(accounts, user, request.method, context.route, context.body)
        const response = await handler(screen)
        if (writes && !failed && response.status < 400 && context.route !== undefined) {
          await accounts.audit?.recordRequest(requestAudit(user, request, context.route, screen.params, context.body))
        }
        return response
      } catch (error) {
        if (error instanceof HttpError) return errorPage(error, user)
        throw error
      }
    }
}

/** A numeric id from the path; anything else names nothing here (404, as the API's own lookup). */
export function idParam(raw: string | undefined): number {
  const id = raw !== undefined && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN
  if (!Number.isSafeInteger(id)) throw new HttpError(404, 'not found')
  return id
}
