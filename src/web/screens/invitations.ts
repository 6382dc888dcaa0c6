/**
 * The screen of a team invitation's link (the mail's link; log in first, with the invited address):
 *
 *   GET  /user/invitations/:token          the team, the role and Accept
 *   POST /user/invitations/:token/accept   join the team (TeamsService.accept, as the API)
 *
 * Another address's token is a 404 like an unknown one; a used, revoked or expired one says why.
 */
import { Elysia, t } from 'elysia'
import { HttpError } from '../../lib/errors.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import { roleLabel } from '../../modules/plans/roles.ts'
import { emptyForm } from '../kit/forms.ts'
import { screens, type ScreenContext } from '../kit/guard.ts'
import { invitationView } from '../views/invitations.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const TokenPath = t.Object({ token: t.String() })

export function invitationScreens(deps: ScreenDeps<'accounts' | 'teams'>) {
  const { services, config } = deps
  const screen = screens({ accounts: services.accounts, config })

  const offerPage = async (user: Owner, token: string, render: ScreenContext['render'], form = emptyForm(), status = 200) => {
    const offer = await services.teams.invitationOffer(user, token)
    return render({ title: `Join ${offer.teamName}`, crumbs: [{ label: 'Pages', href: '/user' }, { label: 'Invitation' }], noReferrer: true, noindex: true }, invitationView(offer, token, form), status)
  }

  return new Elysia()
    .get(
      '/user/invitations/:token',
      screen(({ user, params, render }) => offerPage(user, params.token ?? '', render)),
      { params: TokenPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A team invitation (the link in the mail)') },
    )
    .post(
      '/user/invitations/:token/accept',
      screen(async ({ user, params, render, redirect }) => {
        const token = params.token ?? ''
        try {
          const team = await services.teams.accept(user, token)
          return redirect('/user/account', `You joined ${team.name} as ${roleLabel(team.role)}.`)
        } catch (error) {
          // A refused (409) or closed (410) invitation shows the invitation again with what happened.
          if (error instanceof HttpError && (error.status === 409 || error.status === 410)) {
            return offerPage(user, token, render, { values: {}, errors: { _form: error.message } }, error.status)
          }
          throw error
        }
      }),
      { params: TokenPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse, 409: HtmlResponse, 410: HtmlResponse }, detail: detail('Accept a team invitation (form post)') },
    )
}
