/**
 * "Forgot password?" (password-resets/service.ts):
 *
 *   GET  /user/password-reset          the address form (with mail off: ask an administrator)
 *   POST /user/password-reset          the same answer whether or not the address has an account
 *   GET  /user/password-reset/:token   the new-password form, or 410 for a dead link
 *   POST /user/password-reset/:token   set it (every session ends) → the login screen
 *
 * Posts must come from this site (Origin rule of the API) or they are 403.
 */
import { Elysia, t } from 'elysia'
import { HttpError } from '../../lib/errors.ts'
import { isSameOrigin } from '../../modules/accounts/auth.ts'
import { TooManyAttempts } from '../../modules/accounts/service.ts'
import { clientKey } from '../../http/context.ts'
import { emptyForm, formFields, serviceErrorState } from '../kit/forms.ts'
import { crossSitePage } from '../kit/guard.ts'
import { flashCookie } from '../kit/flash.ts'
import { htmlPage, redirect } from '../responses.ts'
import { resetDeadLinkView, resetFormView, resetNoMailView, resetRequestView, resetSentView } from '../views/password-reset.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string, description: string) => ({ tags: ['User area'], summary, description })
const HtmlResponse = t.String({ description: 'An HTML page' })
const TokenParams = t.Object({ token: t.String({ maxLength: 200, description: 'The token of the mailed link' }) })

const deadLink = () => htmlPage(resetDeadLinkView(), 410)

export function passwordResetScreens(deps: ScreenDeps<'accounts' | 'passwordResets'>) {
  const { config } = deps
  const { accounts, passwordResets } = deps.services
  return new Elysia()
    .get('/user/password-reset', () => htmlPage(passwordResets.available ? resetRequestView(emptyForm()) : resetNoMailView()), {
      response: { 200: HtmlResponse },
      detail: detail('Password reset: ask for a link', 'With mail off, says to ask an administrator (lantern user set-password).'),
    })
    .post(
      '/user/password-reset',
      async ({ request, body, server }) => {
        if (!isSameOrigin(request, accounts.serviceOrigin)) return crossSitePage()
        if (!passwordResets.available) return htmlPage(resetNoMailView(), 404)
        const fields = formFields(body)
        const state = emptyForm({ email: fields.email })
        const client = clientKey(request) !== 'unknown' ? clientKey(request) : (server?.requestIP(request)?.address ?? 'unknown')
        try {
          await passwordResets.request(fields.email ?? '', client)
        } catch (error) {
          if (error instanceof TooManyAttempts) {
            return htmlPage(resetRequestView({ ...state, errors: { _form: 'Too many requests from your address. Try again later.' } }), 429, {
              'retry-after': String(error.retryAfterSeconds),
            })
          }
          return htmlPage(resetRequestView(serviceErrorState(error, state)), 400)
        }
        return htmlPage(resetSentView())
      },
      {
        body: t.Object({ email: t.Optional(t.String({ maxLength: 320, description: 'The address of the account' })) }),
        response: { 200: HtmlResponse, 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 429: HtmlResponse },
        detail: detail(
          'Password reset: mail a link (form post)',
          'The same answer whether or not an account has the address; a link is mailed only to an account. At most 10 requests per client an hour (429) and 3 mails per address an hour.',
        ),
      },
    )
    .get(
      '/user/password-reset/:token',
      async ({ params }) => {
        const live = await passwordResets.check(params.token)
        return live ? htmlPage(resetFormView(params.token, live.email, emptyForm())) : deadLink()
      },
      { params: TokenParams, response: { 200: HtmlResponse, 410: HtmlResponse }, detail: detail('Password reset: the new-password form', '410 for a link that is spent, replaced or expired.') },
    )
    .post(
      '/user/password-reset/:token',
      async ({ request, params, body }) => {
        if (!isSameOrigin(request, accounts.serviceOrigin)) return crossSitePage()
        const fields = formFields(body)
        const live = await passwordResets.check(params.token)
        if (!live) return deadLink()
        try {
          await passwordResets.complete(params.token, fields.new_password ?? '')
        } catch (error) {
          if (error instanceof HttpError && error.status === 410) return deadLink()
          return htmlPage(resetFormView(params.token, live.email, serviceErrorState(error, emptyForm())), 400)
        }
        return redirect('/user/login', 303, { 'set-cookie': flashCookie(config, { kind: 'notice', text: 'Your new password is set and every session of the account has ended. Log in with it.' }) })
      },
      {
        params: TokenParams,
        body: t.Object({ new_password: t.Optional(t.String({ maxLength: 2048, description: 'The new password (8 to 1024 characters)' })), username: t.Optional(t.String({ maxLength: 320 })) }),
        response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 410: HtmlResponse },
        detail: detail('Password reset: set the new password (form post)', 'Spends the link, sets the password and ends every session of the account; then the login screen.'),
      },
    )
}
