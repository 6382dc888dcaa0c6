/**
 * First-run setup without a terminal (accounts/setup.ts): while no user exists, the server prints a
 * link with a one-time token; these routes create the first account with it and log it in.
 *
 *   GET  /user/setup?token=…   the form           POST /user/setup   create the admin, log in → /user
 *
 * Without the live token, or once any user exists: 404, and nothing changes. A POST must come from
 * this site (Origin rule of the API) or it is 403.
 */
import { Elysia, t } from 'elysia'
import { HttpError } from '../../lib/errors.ts'
import { isSameOrigin } from '../../modules/accounts/auth.ts'
import { SetupBody } from '../../modules/accounts/model.ts'
import { emptyForm, errorStatus, formFields, readForm, serviceErrorState } from '../kit/forms.ts'
import { crossSitePage } from '../kit/guard.ts'
import { flashCookie } from '../kit/flash.ts'
import { messagePage } from '../kit/layout.ts'
import { htmlPage, sessionCookie } from '../responses.ts'
import { setupView } from '../views/setup.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string, description: string) => ({ tags: ['User area'], summary, description })
const HtmlResponse = t.String({ description: 'An HTML page' })

const nothingToSetUp = () =>
  htmlPage(messagePage('Not found', 'There is nothing to set up here: this link was used already, is not the latest one, or an account exists. Log in instead.'), 404)

export function setupScreens(deps: ScreenDeps<'accounts'>) {
  const { config } = deps
  const accounts = deps.services.accounts
  return new Elysia()
    .get(
      '/user/setup',
      async ({ query }) => {
        const token = query.token ?? ''
        if (!(await accounts.setupTokenValid(token))) return nothingToSetUp()
        return htmlPage(setupView(token, emptyForm()))
      },
      {
        // No length limits here: a browser must get the HTML 404, never a JSON validation error.
        query: t.Object({ token: t.Optional(t.String()) }),
        response: { 200: HtmlResponse, 404: HtmlResponse },
        detail: detail('First-run setup form', 'Only while the database has no users, with the one-time token the server printed at start; otherwise 404.'),
      },
    )
    .post(
      '/user/setup',
      async ({ request, body }) => {
        if (!isSameOrigin(request, accounts.serviceOrigin)) return crossSitePage()
        const token = formFields(body).token ?? ''
        if (!(await accounts.setupTokenValid(token))) return nothingToSetUp()
        const form = readForm(SetupBody, body)
        if (!form.ok) return htmlPage(setupView(token, form.state), 400)
        try {
          const { token: session } = await accounts.completeSetup(token, form.value, request.headers.get('user-agent'))
          const headers = new Headers({ location: '/user', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
          headers.append('set-cookie', sessionCookie(config, session))
          headers.append('set-cookie', flashCookie(config, { kind: 'notice', text: 'Welcome to Lantern. Your account is ready: create your first status page.' }))
          return new Response(null, { status: 303, headers })
        } catch (error) {
          if (error instanceof HttpError && error.status === 404) return nothingToSetUp()
          return htmlPage(setupView(token, serviceErrorState(error, form.state)), errorStatus(error))
        }
      },
      {
        response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse },
        detail: detail('Create the first account (form post)', 'Creates an administrator on the instance\'s default plan, spends the setup token, logs in and redirects to /user. 404 without the live token or once a user exists.'),
      },
    )
}
