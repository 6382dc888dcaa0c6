/**
 * The account screens (views in views/account.ts), on the AccountsService methods the API routes
 * call (accounts/api-keys.ts, accounts/sessions-routes.ts) and the API's own body schema:
 *
 *   GET  /user/account                          email, password link, sessions
 *   POST /user/account/sessions/:id/end         end one session      POST /user/account/sessions/end-others
 *   GET  /user/api-keys                         list + "New API key"   POST /user/api-keys   create (key shown once)
 *   GET  /user/api-keys/:id/revoke              confirmation           POST /user/api-keys/:id/revoke
 *
 * The new key appears only in the answer to the POST (200, no-store), never on a later GET.
 */
import { Elysia, t } from 'elysia'
import { sessionToken } from '../../modules/accounts/auth.ts'
import { CreateApiKeyBody } from '../../modules/accounts/model.ts'
import { emptyForm, errorStatus, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens } from '../kit/guard.ts'
import { ACCOUNT_HEAD, accountCrumbs, accountView, apiKeysView, revokeKeyView } from '../views/account.ts'
import type { ScreenDeps } from './deps.ts'
import { rolesUpTo } from '../../modules/plans/roles.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const KEYS_PAGE = { title: 'API keys', head: ACCOUNT_HEAD, scripts: ['/static/user/copy.js'] }

export function accountScreens(deps: ScreenDeps<'accounts'>) {
  const { services, config } = deps
  const accounts = services.accounts
  const screen = screens({ accounts, config })

  return new Elysia()
    .get(
      '/user/account',
      screen(async ({ user, request, render }) => {
        const sessions = await accounts.listSessions(user.userId, sessionToken(request))
        return render({ title: 'Account', head: ACCOUNT_HEAD }, accountView(user, sessions))
      }),
      { response: { 200: HtmlResponse }, detail: detail('Account: email, password, sessions') },
    )
    .post(
      '/user/account/sessions/end-others',
      screen(async ({ user, request, redirect }) => {
        const ended = await accounts.endOtherSessions(user.userId, sessionToken(request))
        return redirect('/user/account', ended === 1 ? 'One other session ended.' : `${ended} other sessions ended.`)
      }),
      { response: { 303: t.Void(), 403: HtmlResponse }, detail: detail('End all other sessions (form post)') },
    )
    .post(
      '/user/account/sessions/:id/end',
      screen(async ({ user, params, redirect }) => {
        await accounts.endSessionById(user.userId, idParam(params.id))
        return redirect('/user/account', 'Session ended.')
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('End one session (form post)') },
    )
    .get(
      '/user/api-keys',
      screen(async ({ user, render }) =>
        render({ ...KEYS_PAGE, crumbs: accountCrumbs('API keys') }, apiKeysView(await accounts.listApiKeys(user.userId), emptyForm(), rolesUpTo(user.role))),
      ),
      { response: { 200: HtmlResponse }, detail: detail('API keys: list and create') },
    )
    .post(
      '/user/api-keys',
      screen(async ({ user, body, render }) => {
        const again = async (state: FormState, status: number) =>
          render({ ...KEYS_PAGE, crumbs: accountCrumbs('API keys') }, apiKeysView(await accounts.listApiKeys(user.userId), state, rolesUpTo(user.role)), status)
        const form = readForm(CreateApiKeyBody, body)
        if (!form.ok) return again(form.state, 400)
        try {
          const created = await accounts.createApiKey(user, form.value.name, form.value.role)
          const flash = { kind: 'notice' as const, text: `Key "${created.info.name}" created. Copy it now: it is shown only this once.` }
          return render({ ...KEYS_PAGE, crumbs: accountCrumbs('API keys'), flash }, apiKeysView(await accounts.listApiKeys(user.userId), emptyForm(), rolesUpTo(user.role), created))
        } catch (error) {
          return again(serviceErrorState(error, form.state), errorStatus(error))
        }
      }),
      { response: { 200: HtmlResponse, 400: HtmlResponse, 403: HtmlResponse }, detail: detail('Create an API key (form post; the answer shows the key once)') },
    )
    .get(
      '/user/api-keys/:id/revoke',
      screen(async ({ user, params, render, redirect }) => {
        const key = await accounts.getApiKey(user.userId, idParam(params.id))
        if (key.state === 'revoked') return redirect('/user/api-keys', `Key "${key.name}" is already revoked.`)
        const crumbs = [{ label: 'Account', href: '/user/account' }, { label: 'API keys', href: '/user/api-keys' }, { label: 'Revoke' }]
        return render({ title: `Revoke ${key.name}`, crumbs }, revokeKeyView(key))
      }),
      { params: IdPath, response: { 200: HtmlResponse, 303: t.Void(), 404: HtmlResponse }, detail: detail('API key: confirm revocation') },
    )
    .post(
      '/user/api-keys/:id/revoke',
      screen(async ({ user, params, redirect }) => {
        const key = await accounts.revokeApiKey(user.userId, idParam(params.id))
        return redirect('/user/api-keys', `Key "${key.name}" revoked: requests with it are refused now.`)
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Revoke an API key (form post)') },
    )
}
