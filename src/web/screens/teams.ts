/**
 * The teams screen (views in views/teams.ts), on the TeamsService methods the API calls:
 *
 *   GET  /user/teams              your teams, your role in each, the one this browser acts in
 *   POST /user/teams              create a shared team (you are its owner)
 *   POST /user/teams/:id/choose   this browser acts in that team from the next request on
 *
 * The acting team's members and invitations have their own screen (screens/team-members.ts).
 */
import { Elysia, t } from 'elysia'
import { badRequest, notFound } from '../../lib/errors.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import { emptyForm, errorStatus, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens, type ScreenContext } from '../kit/guard.ts'
import { teamsView } from '../views/teams.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })

export function teamScreens(deps: ScreenDeps<'accounts' | 'teams'>) {
  const { services, config } = deps
  const screen = screens({ accounts: services.accounts, config })

  const teamsPage = async (user: Owner, render: ScreenContext['render'], form: FormState = emptyForm(), status = 200) =>
    render({ title: 'Teams', crumbs: [{ label: 'Teams' }] }, teamsView(await services.teams.teamsOf(user), user.id, form), status)

  return new Elysia()
    .get('/user/teams', screen(({ user, render }) => teamsPage(user, render)), {
      response: { 200: HtmlResponse },
      detail: detail('Your teams and the one you act in'),
    })
    .post(
      '/user/teams',
      screen(async ({ user, body, render, redirect }) => {
        const name = typeof (body as { name?: unknown } | undefined)?.name === 'string' ? (body as { name: string }).name : ''
        try {
          const team = await services.teams.create(user, name)
          return redirect('/user/teams', `Team ${team.name} created. Act in it to add its pages and invite people.`)
        } catch (error) {
          return teamsPage(user, render, serviceErrorState(error, { values: { name }, errors: {} }), errorStatus(error))
        }
      }),
      { response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse }, detail: detail('Create a team (form post)') },
    )
    .post(
      '/user/teams/:id/choose',
      screen(async ({ user, params, redirect }) => {
        const teamId = idParam(params.id)
        const team = (await services.teams.teamsOf(user)).find((candidate) => candidate.id === teamId)
        if (!team) throw notFound('no such team')
        if (user.sessionId === null) throw badRequest('only a browser session chooses a team')
        await services.accounts.chooseTeam(user.sessionId, team.id)
        return redirect('/user', `You act in ${team.name} now.`)
      }),
      { params: t.Object({ id: t.String() }), response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Act in one of your teams (form post)') },
    )
}
