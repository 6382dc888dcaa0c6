/**
 * The Subscribers section of a page (views in views/subscribers.ts), on the SubscribersService
 * methods the management API calls, with the API's own `t` schemas.
 *
 *   GET  /user/pages/:id/subscribers                     counts, list, add and import forms, export link
 *   POST /user/pages/:id/subscribers                     add (consent tick; no confirmation mail)
 *   POST /user/pages/:id/subscribers/:sid/remove         remove
 *   POST /user/pages/:id/subscribers/import              import a CSV (file or pasted; all or nothing)
 */
import { Elysia, t } from 'elysia'
import type { User } from '../../accounts/service.ts'
import type { StatusPage } from '../../status-pages/service.ts'
import { statusPageUrl } from '../../status-pages/urls.ts'
import { AddSubscriberBody, ImportBody, MAX_CSV_CHARS } from '../../subscribers/model.ts'
import { emptyForm, errorStatus, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens, type ScreenContext } from '../kit/guard.ts'
import { pageCrumbs } from '../views/pages.ts'
import { subscribersView } from '../views/subscribers.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const POSTED = { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 409: HtmlResponse }
const SHOWN = 1_000

/** An unticked checkbox sends nothing: named here, so the service's `consent: …` lands next to it. */
const withConsent = (state: FormState): FormState => ({ values: { consent: '', ...state.values }, errors: state.errors })

export function subscriberScreens(deps: ScreenDeps) {
  const { services, config } = deps
  const { pages, subscribers, components } = services
  const screen = screens({ accounts: services.accounts, config })
  const back = (page: StatusPage) => `/user/pages/${page.id}/subscribers`

  async function sectionPage(user: User, page: StatusPage, render: ScreenContext['render'], forms: { add?: FormState; import?: FormState; status?: number } = {}) {
    const [{ subscribers: list, counts }, componentList] = await Promise.all([subscribers.list(user, page.id, { limit: SHOWN }), components.list(user, page.id)])
    const body = subscribersView({
      page,
      subscribers: list,
      counts,
      components: componentList,
      mailEnabled: subscribers.mailEnabled,
      statusUrl: statusPageUrl(page, config),
      addForm: forms.add ?? emptyForm({ kind: 'email' }),
      importForm: forms.import ?? emptyForm(),
      shownMax: SHOWN,
    })
    return render({ title: `Subscribers: ${page.name}`, crumbs: pageCrumbs(page, 'Subscribers') }, body, forms.status)
  }

  return new Elysia()
    .get(
      '/user/pages/:id/subscribers',
      screen(async ({ user, params, render }) => sectionPage(user, await pages.get(user, idParam(params.id)), render)),
      { params: t.Object({ id: t.String() }), response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A status page: its subscribers') },
    )
    .post(
      '/user/pages/:id/subscribers',
      screen(async ({ user, params, body, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const form = readForm(AddSubscriberBody, body, { only: ['kind', 'email', 'url', 'consent'] })
        if (!form.ok) return sectionPage(user, page, render, { add: form.state, status: 400 })
        try {
          const added = await subscribers.add(user, page.id, form.value)
          return redirect(back(page), `Added ${added.email ?? added.url}.`)
        } catch (error) {
          return sectionPage(user, page, render, { add: serviceErrorState(error, withConsent(form.state)), status: errorStatus(error) })
        }
      }),
      { params: t.Object({ id: t.String() }), response: POSTED, detail: detail('Add a subscriber to a page (form post)') },
    )
    .post(
      '/user/pages/:id/subscribers/:sid/remove',
      screen(async ({ user, params, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        await subscribers.remove(user, page.id, idParam(params.sid))
        return redirect(back(page), 'Subscriber removed.')
      }),
      { params: t.Object({ id: t.String(), sid: t.String() }), response: POSTED, detail: detail('Remove a subscriber of a page (form post)') },
    )
    .post(
      '/user/pages/:id/subscribers/import',
      screen(async ({ user, params, body, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        // The file, when one was chosen, stands for the pasted text (too large: the schema's error).
        const fields = (body ?? {}) as Record<string, unknown>
        const file = fields.file instanceof Blob && fields.file.size > 0 ? fields.file : undefined
        // The import's tick is `import_consent` in the page (two forms, one id each); `consent` to the API schema.
        // Whatever came from a file is not echoed back into the text area.
        const state = (s: FormState): FormState => {
          const { consent, ...errors } = s.errors
          return { values: { csv: file ? '' : (s.values.csv ?? '') }, errors: consent === undefined ? errors : { ...errors, import_consent: consent } }
        }
        if (file && file.size > MAX_CSV_CHARS * 4) {
          return sectionPage(user, page, render, { import: { values: {}, errors: { csv: String(ImportBody.properties.csv.error) } }, status: 400 })
        }
        const csv = file ? await file.text() : fields.csv
        const form = readForm(ImportBody, { csv, consent: fields.import_consent }, { only: ['csv', 'consent'] })
        if (!form.ok) return sectionPage(user, page, render, { import: state(form.state), status: 400 })
        try {
          const done = await subscribers.importCsv(user, page.id, form.value)
          return redirect(back(page), `Imported ${done.imported}; ${done.skipped} already subscribed.`)
        } catch (error) {
          return sectionPage(user, page, render, { import: state(serviceErrorState(error, withConsent(form.state))), status: errorStatus(error) })
        }
      }),
      { params: t.Object({ id: t.String() }), response: POSTED, detail: detail('Import subscribers of a page from CSV (multipart form post: file or pasted text)') },
    )
}
