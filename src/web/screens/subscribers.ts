/**
 * The Subscribers section of a page (views in views/subscribers.ts), on the SubscribersService
 * methods the management API calls, with the API's own `t` schemas.
 *
 *   GET  /user/pages/:id/subscribers                     counts, list, add and import forms, export link
 *   POST /user/pages/:id/subscribers                     add (consent tick; no confirmation mail)
 *   POST /user/pages/:id/subscribers/:sid/remove         remove
 *   POST /user/pages/:id/subscribers/import              import a CSV (file or pasted; all or nothing)
 *   GET  /user/pages/:id/subscribers/:sid                one subscriber: signing secret, delivery log
 *   POST /user/pages/:id/subscribers/:sid/signing-secret a new signing secret (shown once, on this answer)
 *   POST /user/pages/:id/subscribers/:sid/deliveries/:deliveryId/resend   "Send again"
 */
import { Elysia, t } from 'elysia'
import type { Owner } from '../../modules/accounts/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { statusPageUrl } from '../../modules/status-pages/urls.ts'
import { AddSubscriberBody, ImportBody, MAX_CSV_CHARS } from '../../modules/subscribers/model.ts'
import { emptyForm, errorStatus, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens, type ScreenContext } from '../kit/guard.ts'
import { pageCrumbs } from '../views/pages.ts'
import { subscribersView, subscriberView } from '../views/subscribers.ts'
import { HttpError } from '../../lib/errors.ts'
import { deliveryIdOf } from '../../modules/notify/delivery-log-model.ts'
import type { Subscriber } from '../../modules/subscribers/service.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const POSTED = { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 409: HtmlResponse }
const SHOWN = 1_000

/** An unticked checkbox sends nothing: named here, so the service's `consent: …` lands next to it. */
const withConsent = (state: FormState): FormState => ({ values: { consent: '', ...state.values }, errors: state.errors })

export function subscriberScreens(deps: ScreenDeps<'accounts' | 'pages' | 'subscribers' | 'components'>) {
  const { services, config } = deps
  const { pages, subscribers, components } = services
  const screen = screens({ accounts: services.accounts, config })
  const back = (page: StatusPage) => `/user/pages/${page.id}/subscribers`

  async function sectionPage(user: Owner, page: StatusPage, render: ScreenContext['render'], forms: { add?: FormState; import?: FormState; status?: number } = {}) {
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
    return render({ title: `Subscribers: ${page.name}`, crumbs: pageCrumbs(page, 'Subscribers'), head: STYLES }, body, forms.status)
  }

  const STYLES = '<link rel="stylesheet" href="/static/user/notifications.css">'
  async function subscriberPage(user: Owner, page: StatusPage, subscriber: Subscriber, render: ScreenContext['render'], status = 200) {
    const deliveries = await subscribers.deliveryLog(user, page.id, subscriber.id)
    const label = subscriber.email ?? subscriber.url ?? ''
    return render({ title: `Subscriber ${label}`, crumbs: pageCrumbs(page, 'Subscribers'), head: STYLES }, subscriberView({ page, subscriber, deliveries }), status)
  }
  const subscriberPath = (page: StatusPage, id: number) => `/user/pages/${page.id}/subscribers/${id}`
  const SubscriberPath = t.Object({ id: t.String(), sid: t.String() })

  return new Elysia()
    .get(
      '/user/pages/:id/subscribers/:sid',
      screen(async ({ user, params, render }) => {
        const page = await pages.get(user, idParam(params.id))
        return subscriberPage(user, page, await subscribers.get(user, page.id, idParam(params.sid)), render)
      }),
      { params: SubscriberPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A subscriber of a page: signing secret and delivery log') },
    )
    .post(
      '/user/pages/:id/subscribers/:sid/signing-secret',
      screen(async ({ user, params, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const sid = idParam(params.sid)
        try {
          return await subscriberPage(user, page, await subscribers.newSigningSecret(user, page.id, sid), render)
        } catch (error) {
          if (error instanceof HttpError && error.status === 400) return redirect(subscriberPath(page, sid), { kind: 'error', text: error.message })
          throw error
        }
      }),
      { params: SubscriberPath, response: { 200: HtmlResponse, ...POSTED }, detail: detail('A new signing secret for a webhook subscriber (form post; shown once)') },
    )
    .post(
      '/user/pages/:id/subscribers/:sid/deliveries/:deliveryId/resend',
      screen(async ({ user, params, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const sid = idParam(params.sid)
        try {
          await subscribers.resendDelivery(user, page.id, sid, deliveryIdOf(params.deliveryId ?? ''))
        } catch (error) {
          if (error instanceof HttpError && error.status === 409) return redirect(subscriberPath(page, sid), { kind: 'error', text: error.message })
          throw error
        }
        return redirect(subscriberPath(page, sid), 'Queued again. Its result shows in the delivery log in a few seconds (reload).')
      }),
      { params: t.Object({ id: t.String(), sid: t.String(), deliveryId: t.String() }), response: POSTED, detail: detail('Send a delivery to a subscriber again (form post)') },
    )
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
          // A webhook's signing secret is shown on this answer, once; a redirect would lose it.
          if (added.revealedSigningSecret) return subscriberPage(user, page, added, render, 201)
          return redirect(back(page), `Added ${added.email ?? added.url}.`)
        } catch (error) {
          return sectionPage(user, page, render, { add: serviceErrorState(error, withConsent(form.state)), status: errorStatus(error) })
        }
      }),
      { params: t.Object({ id: t.String() }), response: { 201: HtmlResponse, ...POSTED }, detail: detail('Add a subscriber to a page (form post; a webhook\'s signing secret is shown on the answer, once)') },
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
