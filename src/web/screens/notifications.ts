/**
 * The notification channels screens, on the ChannelsService methods the API routes call and the
 * API's own CreateChannelBody / UpdateChannelBody schemas:
 *
 *   GET  /user/notifications                 list (state, last delivery) + "Add a channel" by type
 *   GET  /user/notifications/new?type=…      add form                   POST /user/notifications        create
 *   GET  /user/notifications/:id             state, test/resend, edit   POST same                        save
 *   POST /user/notifications/:id/test        send a test                POST /user/notifications/:id/resend  resend the link
 *   GET  /user/notifications/:id/delete      confirmation               POST same                        delete
 *   POST /user/notifications/:id/signing-secret                 a new webhook signing secret (shown once, on this answer)
 *   POST /user/notifications/:id/deliveries/:deliveryId/resend  "Send again" in the delivery log
 *   GET  /user/notifications/verify?token=   the email link (no login)  POST /user/notifications/verify  confirm
 */
import { Elysia, t } from 'elysia'
import { Value } from '@sinclair/typebox/value'
import { HttpError } from '../../lib/errors.ts'
import { isSameOrigin } from '../../modules/accounts/auth.ts'
import { CreateChannelBody, UpdateChannelBody } from '../../modules/channels/model.ts'
import { deliveryIdOf } from '../../modules/notify/delivery-log-model.ts'
import type { Channel, ChannelInput } from '../../modules/channels/service.ts'
import { FIELDS_OF, isChannelType, SECRET_FIELDS, DEFAULT_EVENTS, type ChannelType } from '../../modules/channels/types.ts'
import { htmlPage } from '../responses.ts'
import { emptyForm, errorStatus, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { crossSitePage, idParam, screens } from '../kit/guard.ts'
import { layout } from '../kit/layout.ts'
import { channelFormView, channelsListView, channelView, deleteChannelView, notificationsCrumbs, verifiedView, verifyView } from '../views/notifications.ts'
import type { ScreenDeps } from './deps.ts'
import { listValues, readIdList } from './form-lists.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const STYLES = '<link rel="stylesheet" href="/static/user/notifications.css">'
const FORM_ERRORS = { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 409: HtmlResponse, 429: HtmlResponse }

/** The form as the API's body: the type's settings, ticked pages and events checked by the API's own schemas. */
function readChannelForm(schema: typeof CreateChannelBody | typeof UpdateChannelBody, type: ChannelType, body: unknown) {
  const only = ['name', ...FIELDS_OF[type], 'all_pages', 'all_monitors', ...(schema === UpdateChannelBody ? ['enabled'] : ['type'])]
  const form = readForm(schema, body, { only })
  const state = form.state
  const pageIds = readIdList(schema.properties.page_ids, body, state, 'page_ids')
  const events = listValues(body, 'events')
  state.values.events = events.join(',')
  const eventsError = Value.Errors(schema.properties.events, events).First()
  if (eventsError) state.errors.events = 'events must be an array of event names'
  if (events.length === 0) state.errors.events = 'events must name at least one event'
  const ok = form.ok && pageIds !== undefined && Object.keys(state.errors).length === 0
  const value: ChannelInput | undefined = ok ? { ...(form.value as ChannelInput), page_ids: pageIds, events } : undefined
  return { ok, value, state }
}

function formOf(channel: Channel): FormState {
  const visible = Object.fromEntries(Object.entries(channel.settings).filter(([field]) => !SECRET_FIELDS.has(field as never)))
  return emptyForm({
    name: channel.name,
    ...visible,
    enabled: channel.enabled ? 'on' : '',
    all_pages: channel.allPages ? 'on' : '',
    all_monitors: channel.allMonitors ? 'on' : '',
    page_ids: channel.pages.map((p) => p.id).join(','),
    events: channel.events.join(','),
  })
}

export function notificationScreens(deps: ScreenDeps<'accounts' | 'channels' | 'pages'>) {
  const { services, config } = deps
  const { channels, pages } = services
  const screen = screens({ accounts: services.accounts, config })
  const channelPage = async (user: Parameters<typeof channels.get>[0], channel: Channel, form: FormState, status = 200, render: (o: { title: string; crumbs: ReturnType<typeof notificationsCrumbs>; head: string }, b: string, s?: number) => Response) =>
    render(
      { title: channel.name, crumbs: notificationsCrumbs({ label: channel.name }), head: STYLES },
      channelView(channel, await pages.list(user), form, channels.mailEnabled, await channels.deliveryLog(user, channel.id)),
      status,
    )
  /** Limits (429) and conflicts (409) of an action come back as an error flash on the channel page. */
  const actionError = (error: unknown, redirect: (location: string, flash: { kind: 'error'; text: string }) => Response, location: string) => {
    if (error instanceof HttpError && (error.status === 409 || error.status === 429 || error.status === 400)) return redirect(location, { kind: 'error', text: error.message })
    throw error
  }

  return new Elysia()
    .get(
      '/user/notifications',
      screen(async ({ user, render }) => render({ title: 'Notifications', crumbs: notificationsCrumbs(), head: STYLES }, channelsListView(await channels.list(user), channels.mailEnabled))),
      { response: { 200: HtmlResponse }, detail: detail('Notification channels: list and "Add a channel"') },
    )
    .get(
      '/user/notifications/new',
      screen(async ({ user, query, render, redirect }) => {
        const type = query.type ?? ''
        // Without a type, the list is where the types are chosen.
        if (type === '') return redirect('/user/notifications')
        if (!isChannelType(type)) throw new HttpError(404, 'not found')
        const form = emptyForm({ all_pages: 'on', events: DEFAULT_EVENTS.join(',') })
        return render({ title: 'Add a channel', crumbs: notificationsCrumbs({ label: 'Add a channel' }), head: STYLES }, channelFormView(type, await pages.list(user), form, channels.mailEnabled))
      }),
      { query: t.Object({ type: t.Optional(t.String({ maxLength: 20 })) }), response: { 200: HtmlResponse, 303: t.Void(), 404: HtmlResponse }, detail: detail('Add a notification channel: the form of one type (without one: back to the list)') },
    )
    .post(
      '/user/notifications',
      screen(async ({ user, body, render, redirect }) => {
        const typed = listValues(body, 'type').at(-1) ?? ''
        if (!isChannelType(typed)) throw new HttpError(400, 'type must be one of email, webhook, slack, discord, telegram, teams, ntfy, pagerduty')
        const form = readChannelForm(CreateChannelBody, typed, body)
        const again = async (state: FormState, status: number) =>
          render({ title: 'Add a channel', crumbs: notificationsCrumbs({ label: 'Add a channel' }), head: STYLES }, channelFormView(typed, await pages.list(user), state, channels.mailEnabled), status)
        if (!form.ok || !form.value) return again(form.state, 400)
        try {
          const channel = await channels.create(user, { ...form.value, type: typed })
          // A secret Lantern made is shown on this answer, once; a redirect would lose it.
          if (channel.revealedSigningSecret) return channelPage(user, channel, formOf(channel), 201, render)
          const next = channel.type === 'email' ? 'Channel added. Follow the link we mailed to the address to verify it.' : 'Channel added. Send a test to verify it.'
          return redirect(`/user/notifications/${channel.id}`, next)
        } catch (error) {
          return again(serviceErrorState(error, form.state), errorStatus(error))
        }
      }),
      { response: { 201: HtmlResponse, ...FORM_ERRORS }, detail: detail('Add a notification channel (form post; a webhook signing secret Lantern makes is shown on the answer, once)') },
    )
    .get(
      '/user/notifications/verify',
      ({ query }) => htmlPage(layout({ title: 'Confirm your address', noReferrer: true, noindex: true }, verifyView(query.token ?? ''))),
      { query: t.Object({ token: t.Optional(t.String({ maxLength: 200 })) }), response: { 200: HtmlResponse }, detail: detail('Email channel verification link: the confirm page (no login)') },
    )
    .post(
      '/user/notifications/verify',
      async ({ request, body }) => {
        if (!isSameOrigin(request, services.accounts.serviceOrigin)) return crossSitePage()
        try {
          const { name, address } = await channels.verify(body.token)
          return htmlPage(layout({ title: 'Address confirmed', noReferrer: true, noindex: true }, verifiedView(name, address)))
        } catch (error) {
          if (!(error instanceof HttpError) || error.status !== 400) throw error
          return htmlPage(layout({ title: 'Link not valid', noReferrer: true, noindex: true }, `<section class="card narrow"><h1>Link not valid</h1><p>${error.message}</p></section>`), 400)
        }
      },
      { body: t.Object({ token: t.String({ maxLength: 200 }) }), response: { 200: HtmlResponse, 400: HtmlResponse, 403: HtmlResponse }, detail: detail('Confirm an email channel (form post, no login: the token is the proof)') },
    )
    .get(
      '/user/notifications/:id',
      screen(async ({ user, params, render }) => {
        const channel = await channels.get(user, idParam(params.id))
        return channelPage(user, channel, formOf(channel), 200, render)
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A notification channel: state, test, settings') },
    )
    .post(
      '/user/notifications/:id',
      screen(async ({ user, params, body, render, redirect }) => {
        const channel = await channels.get(user, idParam(params.id))
        const form = readChannelForm(UpdateChannelBody, channel.type, body)
        if (!form.ok || !form.value) return channelPage(user, channel, form.state, 400, render)
        try {
          await channels.update(user, channel.id, form.value)
        } catch (error) {
          if (error instanceof HttpError && error.status === 429) return channelPage(user, channel, { ...form.state, errors: { _form: error.message } }, 429, render)
          return channelPage(user, channel, serviceErrorState(error, form.state), errorStatus(error), render)
        }
        return redirect(`/user/notifications/${channel.id}`, 'Channel saved.')
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Change a notification channel (form post)') },
    )
    .post(
      '/user/notifications/:id/test',
      screen(async ({ user, params, redirect }) => {
        const id = idParam(params.id)
        try {
          await channels.sendTest(user, id)
        } catch (error) {
          return actionError(error, redirect, `/user/notifications/${id}`)
        }
        return redirect(`/user/notifications/${id}`, 'Test queued. Its result shows under "Last delivery" in a few seconds (reload).')
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Send a test to a notification channel (form post)') },
    )
    .post(
      '/user/notifications/:id/resend',
      screen(async ({ user, params, redirect }) => {
        const id = idParam(params.id)
        try {
          await channels.resendVerification(user, id)
        } catch (error) {
          return actionError(error, redirect, `/user/notifications/${id}`)
        }
        return redirect(`/user/notifications/${id}`, 'A new verification link is on its way. The previous one no longer works.')
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Resend the verification mail of an email channel (form post)') },
    )
    .post(
      '/user/notifications/:id/signing-secret',
      screen(async ({ user, params, render, redirect }) => {
        const id = idParam(params.id)
        try {
          const channel = await channels.newSigningSecret(user, id)
          return channelPage(user, channel, formOf(channel), 200, render)
        } catch (error) {
          return actionError(error, redirect, `/user/notifications/${id}`)
        }
      }),
      { params: IdPath, response: { 200: HtmlResponse, ...FORM_ERRORS }, detail: detail('A new signing secret for a webhook channel (form post; shown once)') },
    )
    .post(
      '/user/notifications/:id/deliveries/:deliveryId/resend',
      screen(async ({ user, params, redirect }) => {
        const id = idParam(params.id)
        try {
          await channels.resendDelivery(user, id, deliveryIdOf(params.deliveryId ?? ''))
        } catch (error) {
          return actionError(error, redirect, `/user/notifications/${id}`)
        }
        return redirect(`/user/notifications/${id}`, 'Queued again. Its result shows in the delivery log in a few seconds (reload).')
      }),
      { params: t.Object({ id: t.String(), deliveryId: t.String() }), response: FORM_ERRORS, detail: detail('Send a delivery of a notification channel again (form post)') },
    )
    .get(
      '/user/notifications/:id/delete',
      screen(async ({ user, params, render }) => {
        const channel = await channels.get(user, idParam(params.id))
        return render({ title: `Delete ${channel.name}`, crumbs: notificationsCrumbs({ label: channel.name, href: `/user/notifications/${channel.id}` }, { label: 'Delete' }) }, deleteChannelView(channel))
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A notification channel: confirm deletion') },
    )
    .post(
      '/user/notifications/:id/delete',
      screen(async ({ user, params, redirect }) => {
        const channel = await channels.get(user, idParam(params.id))
        await channels.delete(user, channel.id)
        return redirect('/user/notifications', `Channel "${channel.name}" deleted.`)
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Delete a notification channel (form post)') },
    )
}
