/**
 * Two-factor sign-in (two-factor/service.ts): the account's screen and the login's second step.
 *
 *   GET  /user/two-factor                 on or off; an enrolment in progress shows its QR code
 *   POST /user/two-factor/enrol           a new secret (QR code and text)
 *   POST /user/two-factor/confirm         a code from the app turns it on → the recovery codes, once
 *   POST /user/two-factor/disable         with the password
 *   GET  /user/login/two-factor           the code form of a sign-in whose password was right
 *   POST /user/login/two-factor           a code or a recovery code → the session
 *
 * Posts must come from this site (Origin rule) or they are 403.
 */
import { Elysia, t } from 'elysia'
import type { Config } from '../../config.ts'
import { clearCookie, readCookie, serializeCookie } from '../../lib/cookies.ts'
import { HttpError } from '../../lib/errors.ts'
import { isCrossSite } from '../../modules/accounts/auth.ts'
import { TooManyAttempts, type Owner } from '../../modules/accounts/service.ts'
import { CHALLENGE_TTL_MS } from '../../modules/two-factor/service.ts'
import { clientKey } from '../../http/context.ts'
import { emptyForm, errorStatus, formFields, serviceErrorState, type FormState } from '../kit/forms.ts'
import { crossSitePage, screens } from '../kit/guard.ts'
import { flashCookie } from '../kit/flash.ts'
import { htmlPage, redirect, safeNext, sessionCookie } from '../responses.ts'
import { accountCrumbs, ACCOUNT_HEAD } from '../views/account.ts'
import { twoFactorStepView, twoFactorView } from '../views/two-factor.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const CodeBody = t.Object({ code: t.Optional(t.String({ maxLength: 100, description: 'A code of the app or a recovery code' })), next: t.Optional(t.String({ maxLength: 4000 })) })

/** The browser's token of a sign-in waiting for its second factor, only on the login paths. */
export const CHALLENGE_COOKIE = 'lantern_2fa'
const cookiePath = '/user/login'
export const challengeCookie = (config: Config, token: string) =>
  serializeCookie(CHALLENGE_COOKIE, token, { secure: config.scheme === 'https', maxAgeSeconds: CHALLENGE_TTL_MS / 1000, path: cookiePath })
export const endChallengeCookie = (config: Config) => clearCookie(CHALLENGE_COOKIE, { secure: config.scheme === 'https' }).replace('Path=/', `Path=${cookiePath}`)

/**
 * The person of a screen's owner: their user id, never the acting team's `id` (a member acting in
 * a shared team has a team id that may be another user's id).
 */
const person = (user: Owner) => ({ id: user.userId, email: user.email })

export const clientOf = (request: Request, server: { requestIP(request: Request): { address: string } | null } | null) =>
  clientKey(request) !== 'unknown' ? clientKey(request) : (server?.requestIP(request)?.address ?? 'unknown')

export function twoFactorScreens(deps: ScreenDeps<'accounts' | 'twoFactor' | 'passkeys'>) {
  const { config } = deps
  const { accounts, twoFactor, passkeys } = deps.services
  /** Which second factors the sign-in's step offers. */
  const factorsOf = async (userId: number) => ({ authenticator: await twoFactor.isEnabled(userId), passkey: await passkeys.has(userId) })
  const screen = screens({ accounts, config })
  const page = { title: 'Two-factor sign-in', head: ACCOUNT_HEAD, crumbs: accountCrumbs('Two-factor sign-in') }

  return new Elysia()
    .get(
      '/user/two-factor',
      screen(async ({ user, render }) => {
        const status = await twoFactor.status(user.userId)
        const enrolment = status.enabled ? undefined : await twoFactor.pendingEnrolment(person(user))
        return render(page, twoFactorView({ ...status, enrolment, state: emptyForm() }))
      }),
      { response: { 200: HtmlResponse }, detail: detail('Two-factor sign-in: on or off, enrolment') },
    )
    .post(
      '/user/two-factor/enrol',
      screen(async ({ user, render }) => {
        const enrolment = await twoFactor.beginEnrolment(person(user))
        return render(page, twoFactorView({ enabled: false, recoveryCodesLeft: 0, enrolment, state: emptyForm() }))
      }),
      { response: { 200: HtmlResponse, 403: HtmlResponse, 409: HtmlResponse }, detail: detail('Two-factor: start the enrolment (form post)') },
    )
    .post(
      '/user/two-factor/confirm',
      screen(async ({ user, body, request, render }) => {
        const code = formFields(body).code ?? ''
        try {
          const recoveryCodes = await twoFactor.confirmEnrolment(person(user), code, clientKey(request))
          return render({ ...page, flash: { kind: 'notice', text: 'Two-factor sign-in is on.' } }, twoFactorView({ enabled: true, recoveryCodesLeft: recoveryCodes.length, state: emptyForm(), recoveryCodes }))
        } catch (error) {
          if (error instanceof HttpError && error.status === 404) throw error
          const state: FormState = error instanceof TooManyAttempts ? { values: {}, errors: { _form: 'Too many attempts. Try again in a few minutes.' } } : serviceErrorState(error, emptyForm({ code }))
          return render(page, twoFactorView({ enabled: false, recoveryCodesLeft: 0, enrolment: await twoFactor.pendingEnrolment(person(user)), state }), errorStatus(error))
        }
      }),
      { body: CodeBody, response: { 200: HtmlResponse, 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 429: HtmlResponse }, detail: detail('Two-factor: confirm with a code (form post; the answer shows the recovery codes once)') },
    )
    .post(
      '/user/two-factor/disable',
      screen(async ({ user, body, request, render, redirect: to }) => {
        try {
          await twoFactor.disable(person(user), formFields(body).password ?? '', clientKey(request))
        } catch (error) {
          const state: FormState = error instanceof TooManyAttempts ? { values: {}, errors: { _form: 'Too many attempts. Try again in a few minutes.' } } : serviceErrorState(error, emptyForm())
          return render(page, twoFactorView({ ...(await twoFactor.status(user.userId)), state }), errorStatus(error))
        }
        return to('/user/two-factor', 'Two-factor sign-in is off.')
      }),
      {
        body: t.Object({ password: t.Optional(t.String({ maxLength: 1024, description: 'The account password' })) }),
        response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 429: HtmlResponse },
        detail: detail('Two-factor: turn it off (form post, with the password)'),
      },
    )
    .get(
      '/user/login/two-factor',
      async ({ request, query }) => {
        const token = readCookie(request.headers.get('cookie'), CHALLENGE_COOKIE) ?? ''
        const userId = await twoFactor.challengeUser(token)
        if (userId === undefined) return redirect('/user/login')
        return htmlPage(twoFactorStepView({ next: safeNext(query.next), state: emptyForm(), ...(await factorsOf(userId)) }))
      },
      { query: t.Object({ next: t.Optional(t.String({ maxLength: 4000 })) }), response: { 200: HtmlResponse, 303: t.Void() }, detail: detail('Login: the two-factor code form') },
    )
    .post(
      '/user/login/two-factor',
      async ({ request, body, server }) => {
        if (isCrossSite(request, accounts.serviceOrigin)) return crossSitePage()
        const next = safeNext(body.next)
        const token = readCookie(request.headers.get('cookie'), CHALLENGE_COOKIE) ?? ''
        const userId = await twoFactor.challengeUser(token)
        const factors = userId === undefined ? { authenticator: true, passkey: false } : await factorsOf(userId)
        const again = (text: string, status: number, headers: Record<string, string> = {}) =>
          htmlPage(twoFactorStepView({ next, state: { values: {}, errors: { code: text } }, ...factors }), status, headers)
        try {
          const { userId } = await twoFactor.completeChallenge(token, body.code ?? '', clientOf(request, server))
          const session = await accounts.startSession(userId, request.headers.get('user-agent'))
          const headers = new Headers({ location: next, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
          headers.append('set-cookie', sessionCookie(config, session))
          headers.append('set-cookie', endChallengeCookie(config))
          return new Response(null, { status: 303, headers })
        } catch (error) {
          if (error instanceof TooManyAttempts) return again('Too many attempts. Try again in a few minutes.', 429, { 'retry-after': String(error.retryAfterSeconds) })
          if (error instanceof HttpError && error.status === 401) return again('Code is wrong or was used already.', 401)
          if (error instanceof HttpError && error.status === 410) {
            const headers = new Headers({ location: '/user/login', 'cache-control': 'no-store' })
            headers.append('set-cookie', endChallengeCookie(config))
            headers.append('set-cookie', flashCookie(config, { kind: 'error', text: 'That sign-in expired. Log in again.' }))
            return new Response(null, { status: 303, headers })
          }
          throw error
        }
      },
      { body: CodeBody, response: { 303: t.Void(), 401: HtmlResponse, 403: HtmlResponse, 429: HtmlResponse }, detail: detail('Login: the two-factor code (form post)') },
    )
}
