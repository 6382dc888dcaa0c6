/**
 * The status-pages screens (views in views/pages.ts), on the same service methods the API routes
 * call (StatusPagesService create/update/delete) and the API's own body schemas:
 *
 *   GET  /user, /user/pages               list + "New page"     POST /user/pages                    create
 *   GET  /user/pages/:id                  overview
 *   GET  /user/pages/:id/settings         settings + domain   POST /user/pages/:id/settings       update
 *                                                              POST /user/pages/:id/settings/dns-check  check the domain now
 *   GET  /user/pages/:id/delete           confirmation          POST /user/pages/:id/delete         delete
 */
import { Elysia, t, type Static } from 'elysia'
import { CreateStatusPageBody, UpdateStatusPageBody } from '../../modules/status-pages/model.ts'
import { planHas } from '../../modules/plans/matrix.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { statusPageUrl } from '../../modules/status-pages/urls.ts'
import { emptyForm, errorStatus, formFields, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens } from '../kit/guard.ts'
import type { OverviewServices, ScreenDeps } from './deps.ts'
import { pagePictures, PICTURES_HEAD } from './page-pictures.ts'
import { overviewPanels } from './overview.ts'
import { transferSettingsPanel } from './transfer.ts'
import { deletePageView, pageCrumbs, pageOverviewView, pageSettingsView, pagesListView, PRIVATE_NEEDS_PASSWORD, type DomainHelp } from '../views/pages.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const PAGE_FIELDS = ['name', 'slug', 'visibility', 'custom_domain', 'language', 'time_zone', 'description'] as const

/**
 * Only what the owner changed, as a PATCH would send it: a page kept private after a downgrade can
 * still be renamed (sending `visibility: private` again would be refused by the plan check).
 */
function changedOnly(page: StatusPage, input: Static<typeof UpdateStatusPageBody>): Static<typeof UpdateStatusPageBody> {
  const current: Record<string, unknown> = { name: page.name, slug: page.slug, visibility: page.visibility, custom_domain: page.customDomain, language: page.language, time_zone: page.timeZone, description: page.description }
  return Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== current[key]))
}

export function pageScreens(deps: ScreenDeps<'accounts' | 'domainVerifier' | 'pages' | 'pageStatus' | 'transfers' | OverviewServices>) {
  const { services, config } = deps
  const pages = services.pages
  const screen = screens({ accounts: services.accounts, config })
  const urlOf = (page: StatusPage) => statusPageUrl(page, config)

  const listScreen = screen(async ({ user, render }) => {
    const list = await pages.list(user)
    const rows = list.map((page) => ({ page, url: urlOf(page) }))
    return render({ title: 'Your status pages', head: PICTURES_HEAD }, pagesListView(rows, emptyForm({ visibility: 'public' }), await pagePictures(deps, list)))
  })

  const settingsForm = (page: StatusPage): FormState =>
    emptyForm({ name: page.name, slug: page.slug, visibility: page.visibility, custom_domain: page.customDomain, language: page.language, time_zone: page.timeZone, description: page.description })

  const domains = services.domainVerifier
  function domainHelp(page: StatusPage): DomainHelp {
    const hosts = domains.hostsFor(page.slug)
    return { cnameTarget: hosts.pageHost, serviceHost: hosts.serviceHost, checkAvailable: domains.available, linkedUrl: urlOf(page) }
  }

  return new Elysia()
    .get('/user', listScreen, { response: { 200: HtmlResponse }, detail: detail('The user area: your status pages') })
    .get('/user/pages', listScreen, { response: { 200: HtmlResponse }, detail: detail('Your status pages') })
    .post(
      '/user/pages',
      screen(async ({ user, body, render, redirect }) => {
        const form = readForm(CreateStatusPageBody, body, { only: ['name', 'slug', 'visibility', 'password'] })
        // A typed password never comes back into the form.
        const again = async (state: FormState, status: number) => {
          const rows = (await pages.list(user)).map((page) => ({ page, url: urlOf(page) }))
          return render({ title: 'Your status pages' }, pagesListView(rows, { ...state, values: { ...state.values, password: '' } }), status)
        }
        if (!form.ok) return again(form.state, 400)
        // The form asks for the password with "Private" (the API accepts a private page without one, and
        // warns); a plan without private pages hears that first, from the service.
        if (form.value.visibility === 'private' && !form.value.password && planHas(user.plan, 'custom_domain_private')) {
          return again({ ...form.state, errors: { ...form.state.errors, password: PRIVATE_NEEDS_PASSWORD } }, 400)
        }
        try {
          const page = await pages.create(user, form.value)
          return redirect(`/user/pages/${page.id}`, `Page "${page.name}" created.`)
        } catch (error) {
          return again(serviceErrorState(error, form.state), errorStatus(error))
        }
      }),
      { response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 409: HtmlResponse }, detail: detail('Create a status page (form post)') },
    )
    .get(
      '/user/pages/:id',
      screen(async ({ user, params, request, render }) => {
        const page = await pages.get(user, idParam(params.id))
        const panels = await overviewPanels(deps, user, page, request)
        return render({ title: page.name, crumbs: pageCrumbs(page), head: panels.head, scripts: panels.scripts }, pageOverviewView({ page, url: urlOf(page) }) + panels.body)
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A status page: overview') },
    )
    .get(
      '/user/pages/:id/settings',
      screen(async ({ user, params, render }) => {
        const page = await pages.get(user, idParam(params.id))
        const help = domainHelp(page)
        const transfer = await transferSettingsPanel(deps, user, page)
        return render({ title: `Settings: ${page.name}`, crumbs: pageCrumbs(page, 'Settings') }, pageSettingsView(page, settingsForm(page), help) + transfer)
      }),
      {
        params: IdPath,
        response: { 200: HtmlResponse, 404: HtmlResponse },
        detail: detail('A status page: settings, with the custom domain and its state'),
      },
    )
    .post(
      '/user/pages/:id/settings/dns-check',
      screen(async ({ user, params, redirect }) => {
        const page = await domains.checkNow(user, idParam(params.id))
        return redirect(`/user/pages/${page.id}/settings#dns-heading`, `DNS checked: ${page.domainCheck.reason ?? 'nothing found.'}`)
      }),
      { params: IdPath, response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 503: HtmlResponse }, detail: detail("Check the custom domain's DNS now (form post)") },
    )
    .post(
      '/user/pages/:id/settings',
      screen(async ({ user, params, body, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const form = readForm(UpdateStatusPageBody, body, { only: PAGE_FIELDS, clearable: ['description'] })
        const again = async (state: FormState, status: number) =>
          render(
            { title: `Settings: ${page.name}`, crumbs: pageCrumbs(page, 'Settings') },
            pageSettingsView(page, state, domainHelp(page)) + (await transferSettingsPanel(deps, user, page)),
            status,
          )
        if (!form.ok) return again(form.state, 400)
        try {
          await pages.update(user, page.id, changedOnly(page, form.value))
        } catch (error) {
          return again(serviceErrorState(error, form.state), errorStatus(error))
        }
        return redirect(`/user/pages/${page.id}/settings`, 'Settings saved.')
      }),
      { params: IdPath, response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 409: HtmlResponse }, detail: detail('Change a status page (form post)') },
    )
    .get(
      '/user/pages/:id/delete',
      screen(async ({ user, params, render }) => {
        const page = await pages.get(user, idParam(params.id))
        return render({ title: `Delete ${page.name}`, crumbs: pageCrumbs(page, 'Delete') }, deletePageView(page, emptyForm()))
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A status page: confirm deletion') },
    )
    .post(
      '/user/pages/:id/delete',
      screen(async ({ user, params, body, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const typed = (formFields(body).confirm_slug ?? '').trim().toLowerCase()
        if (typed !== page.slug) {
          const state: FormState = { values: formFields(body), errors: { confirm_slug: `Type the slug "${page.slug}" exactly to delete the page.` } }
          return render({ title: `Delete ${page.name}`, crumbs: pageCrumbs(page, 'Delete') }, deletePageView(page, state), 400)
        }
        await pages.delete(user, page.id)
        return redirect('/user', `Page "${page.name}" deleted.`)
      }),
      { params: IdPath, response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Delete a status page (form post, after typing its slug)') },
    )
}

