/**
 * The Access section of a page (views in views/page-access.ts), on the services the management API
 * calls: StatusPagesService.update for the visibility, PageAccessSettingsService for the gate
 * password and the embed token, with the API's own `t` schemas.
 *
 *   GET  /user/pages/:id/access                   visibility, password, token, blocked state
 *   POST /user/pages/:id/access/visibility        public / private
 *   POST /user/pages/:id/access/password          set or change (never shown back)
 *   POST /user/pages/:id/access/password/delete   remove
 *   POST /user/pages/:id/access/token             create or rotate: the new token is shown once, on this answer
 *   POST /user/pages/:id/access/token/delete      revoke
 */
import { Elysia, t } from 'elysia'
import { AccessBody } from '../../modules/page-access/model.ts'
import { UpdateStatusPageBody } from '../../modules/status-pages/model.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { statusPageUrl } from '../../modules/status-pages/urls.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import { emptyForm, errorStatus, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens, type ScreenContext } from '../kit/guard.ts'
import { pageCrumbs } from '../views/pages.ts'
import { accessView } from '../views/page-access.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const HEAD = '<link rel="stylesheet" href="/static/user/branding.css">'
const SCRIPTS = ['/static/user/branding.js']
const POSTED = { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }

export function accessSection(deps: ScreenDeps<'accounts' | 'pages' | 'pageAccessSettings'>) {
  const { services, config } = deps
  const { pages, pageAccessSettings: settings } = services
  const screen = screens({ accounts: services.accounts, config })
  const back = (page: StatusPage) => `/user/pages/${page.id}/access`

  async function accessPage(
    user: Owner,
    page: StatusPage,
    render: ScreenContext['render'],
    options: { visibilityForm?: FormState; passwordForm?: FormState; newToken?: string; status?: number } = {},
  ): Promise<Response> {
    const current = await settings.accessSettings(user, page.id)
    const body = accessView({
      page,
      settings: current,
      statusUrl: statusPageUrl(page, config),
      visibilityForm: options.visibilityForm ?? emptyForm({ visibility: page.visibility }),
      passwordForm: options.passwordForm ?? emptyForm(),
      newToken: options.newToken,
    })
    return render({ title: `Access: ${page.name}`, crumbs: pageCrumbs(page, 'Access'), head: HEAD, scripts: SCRIPTS }, body, options.status)
  }

  return new Elysia()
    .get(
      '/user/pages/:id/access',
      screen(async ({ user, params, render }) => accessPage(user, await pages.get(user, idParam(params.id)), render)),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A status page: visibility, gate password, embed token') },
    )
    .post(
      '/user/pages/:id/access/visibility',
      screen(async ({ user, params, body, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const form = readForm(UpdateStatusPageBody, body, { only: ['visibility'] })
        if (!form.ok) return accessPage(user, page, render, { visibilityForm: form.state, status: 400 })
        if (form.value.visibility !== page.visibility) {
          try {
            await pages.update(user, page.id, { visibility: form.value.visibility })
          } catch (error) {
            // The form has one field: the plan's refusal ("Private pages require …") belongs next to it.
            const { _form, ...errors } = serviceErrorState(error, form.state).errors
            const visibilityForm = { values: form.state.values, errors: _form ? { ...errors, visibility: _form } : errors }
            return accessPage(user, page, render, { visibilityForm, status: errorStatus(error) })
          }
        }
        return redirect(back(page), form.value.visibility === 'private' ? 'The page is now private.' : 'The page is now public.')
      }),
      { params: IdPath, response: { ...POSTED, 409: HtmlResponse }, detail: detail('Change who can read a page (form post)') },
    )
    .post(
      '/user/pages/:id/access/password',
      screen(async ({ user, params, body, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const form = readForm(AccessBody, body, { only: ['password'] })
        // An empty field here means "no password typed"; removing has its own button.
        if (form.ok && form.value.password === null) {
          return accessPage(user, page, render, { passwordForm: { values: {}, errors: { password: 'password is required' } }, status: 400 })
        }
        // The password never comes back into the form.
        if (!form.ok) return accessPage(user, page, render, { passwordForm: { values: {}, errors: form.state.errors }, status: 400 })
        try {
          await settings.setPassword(user, page.id, form.value.password)
        } catch (error) {
          const state = serviceErrorState(error, form.state)
          return accessPage(user, page, render, { passwordForm: { values: {}, errors: state.errors }, status: errorStatus(error) })
        }
        return redirect(back(page), 'Password saved. Every visitor session has ended.')
      }),
      { params: IdPath, response: POSTED, detail: detail('Set or change the gate password of a page (form post)') },
    )
    .post(
      '/user/pages/:id/access/password/delete',
      screen(async ({ user, params, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        await settings.setPassword(user, page.id, null)
        return redirect(back(page), 'Password removed.')
      }),
      { params: IdPath, response: POSTED, detail: detail('Remove the gate password of a page (form post)') },
    )
    .post(
      '/user/pages/:id/access/token',
      screen(async ({ user, params, render }) => {
        const page = await pages.get(user, idParam(params.id))
        const token = await settings.rotateEmbedToken(user, page.id)
        // Shown on this answer only: never stored in a cookie or a URL.
        return accessPage(user, page, render, { newToken: token })
      }),
      { params: IdPath, response: { 200: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Create or rotate the embed token of a page (form post; shown once)') },
    )
    .post(
      '/user/pages/:id/access/token/delete',
      screen(async ({ user, params, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        await settings.revokeEmbedToken(user, page.id)
        return redirect(back(page), 'Embed token revoked.')
      }),
      { params: IdPath, response: POSTED, detail: detail('Revoke the embed token of a page (form post)') },
    )
}
