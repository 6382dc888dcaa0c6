/**
 * The transfer screens (views in views/transfer.ts), on the TransfersService methods the API calls
 * and the API's own body schema:
 *
 *   GET  /user/pages/:id/transfer          start form, or the pending notice   POST same path       start
 *   POST /user/pages/:id/transfer/cancel   cancel the pending transfer
 *   GET  /user/transfers/:token            the recipient's offer (the mail link; login first)
 *   POST /user/transfers/:token/accept     accept                              POST …/decline       decline
 *
 * The settings screen shows `transferSettingsPanel` (pending notice with Cancel, or a link here).
 */
import { Elysia, t } from 'elysia'
import { clientKey } from '../../http/context.ts'
import { HttpError } from '../../lib/errors.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { StartTransferBody } from '../../modules/transfers/model.ts'
import { emptyForm, errorStatus, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens, type ScreenContext } from '../kit/guard.ts'
import { pageCrumbs } from '../views/pages.ts'
import { transferOfferView, transferSettingsCard, transferStartView } from '../views/transfer.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const TokenPath = t.Object({ token: t.String() })
const pageResponses = { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 409: HtmlResponse, 429: HtmlResponse }

/** The settings screen's transfer card (screens/pages.ts). */
export async function transferSettingsPanel(deps: ScreenDeps<'transfers'>, user: Owner, page: StatusPage): Promise<string> {
  return transferSettingsCard(page, await deps.services.transfers.pending(user, page.id))
}

export function transferScreens(deps: ScreenDeps<'accounts' | 'pages' | 'transfers'>) {
  const { services, config } = deps
  const transfers = services.transfers
  const screen = screens({ accounts: services.accounts, config })

  const startPage = async (user: Owner, pageId: number, form: FormState, render: ScreenContext['render'], status = 200) => {
    const page = await services.pages.get(user, pageId)
    const pending = await transfers.pending(user, page.id)
    return render({ title: `Transfer: ${page.name}`, crumbs: pageCrumbs(page, 'Transfer') }, transferStartView(page, pending, form, transfers.mailEnabled), status)
  }

  const offerPage = async (user: Owner, token: string, render: ScreenContext['render'], form = emptyForm(), status = 200) => {
    const offer = await transfers.offer(user, token)
    return render({ title: `Transfer of ${offer.pageName}`, crumbs: [{ label: 'Pages', href: '/user' }, { label: 'Transfer' }], noReferrer: true, noindex: true }, transferOfferView(offer, token, form), status)
  }

  /** A refused (409) or gone (410) decision shows the offer again with what happened, not a bare error page. */
  const decide = (action: 'accept' | 'decline') =>
    screen(async ({ user, params, render, redirect }) => {
      const token = params.token ?? ''
      try {
        const transfer = action === 'accept' ? await transfers.accept(user, token) : await transfers.decline(user, token)
        return action === 'accept'
          ? redirect(`/user/pages/${transfer.pageId}`, `"${transfer.pageName}" is now yours. Attach your own notification channels to it.`)
          : redirect('/user', `You declined "${transfer.pageName}".`)
      } catch (error) {
        if (error instanceof HttpError && (error.status === 409 || error.status === 410)) {
          return offerPage(user, token, render, { values: {}, errors: { _form: error.message } }, error.status)
        }
        throw error
      }
    })

  return new Elysia()
    .get(
      '/user/pages/:id/transfer',
      screen(({ user, params, render }) => startPage(user, idParam(params.id), emptyForm(), render)),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A status page: transfer ownership') },
    )
    .post(
      '/user/pages/:id/transfer',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const pageId = idParam(params.id)
        const form = readForm(StartTransferBody, body, { only: ['email', 'password'] })
        if (!form.ok) return startPage(user, pageId, form.state, render, 400)
        try {
          const transfer = await transfers.start(user, pageId, form.value, clientKey(request))
          return redirect(`/user/pages/${pageId}/settings`, `Invitation sent to ${transfer.toEmail}. It expires in 7 days.`)
        } catch (error) {
          return startPage(user, pageId, serviceErrorState(error, form.state), render, errorStatus(error))
        }
      }),
      { params: IdPath, response: pageResponses, detail: detail('Start the transfer of a status page (form post)') },
    )
    .post(
      '/user/pages/:id/transfer/cancel',
      screen(async ({ user, params, redirect }) => {
        const transfer = await transfers.cancel(user, idParam(params.id))
        return redirect(`/user/pages/${transfer.pageId}/settings`, `Transfer to ${transfer.toEmail} cancelled.`)
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Cancel the pending transfer of a status page (form post)') },
    )
    .get(
      '/user/transfers/:token',
      screen(({ user, params, render }) => offerPage(user, params.token ?? '', render)),
      { params: TokenPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A transfer offered to you (the link in the mail)') },
    )
    .post('/user/transfers/:token/accept', decide('accept'), {
      params: TokenPath,
      response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse, 409: HtmlResponse, 410: HtmlResponse },
      detail: detail('Accept a transfer offered to you (form post)'),
    })
    .post('/user/transfers/:token/decline', decide('decline'), {
      params: TokenPath,
      response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse, 409: HtmlResponse, 410: HtmlResponse },
      detail: detail('Decline a transfer offered to you (form post)'),
    })
}
