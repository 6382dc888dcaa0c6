/**
 * Passkeys (passkeys/service.ts): the account's screen and the JSON the passkey script calls.
 *
 *   GET  /user/passkeys                          the list and "Add a passkey"
 *   POST /user/passkeys/options                  JSON: the password → options for navigator.credentials.create
 *   POST /user/passkeys                          JSON: the browser's answer and a name → added
 *   POST /user/passkeys/:id/rename               form
 *   GET  /user/passkeys/:id/remove               confirmation          POST … remove
 *   POST /user/passkeys/sign-in/options          JSON, signed out: options for a password-free sign-in
 *                                                (and the browser's cookie; throttled per address)
 *   POST /user/passkeys/sign-in                  JSON, signed out: the answer and that cookie → the session
 *   POST /user/login/two-factor/passkey/options  JSON: options for the second step (the 2FA cookie)
 *   POST /user/login/two-factor/passkey          JSON: the answer → the session
 *
 * Every post must come from this site (Origin rule) or it is 403. Adding, renaming and removing go
 * through the screen guard, which records them in the audit log; the options calls write nothing
 * an owner would look for, so they skip it.
 */
import { Elysia, t } from 'elysia'
import type { Config } from '../../config.ts'
import { clearCookie, readCookie, serializeCookie } from '../../lib/cookies.ts'
import { errorResponse, HttpError } from '../../lib/errors.ts'
import { isCrossSite, isSameOrigin } from '../../modules/accounts/auth.ts'
import { TooManyAttempts } from '../../modules/accounts/service.ts'
import { AddPasskeyBody, CeremonyOptions, ErrorBody, NextLocation, PasskeySignInBody, RegistrationOptionsBody } from '../../modules/passkeys/model.ts'
import { TooManySignIns } from '../../modules/passkeys/service.ts'
import { CEREMONY_TTL_MS } from '../../modules/passkeys/types.ts'
import { formFields } from '../kit/forms.ts'
import { idParam, screens } from '../kit/guard.ts'
import { flashCookie } from '../kit/flash.ts'
import { safeNext, sessionCookie, sessionUser } from '../responses.ts'
import { accountCrumbs, ACCOUNT_HEAD } from '../views/account.ts'
import { passkeysView, PASSKEYS_SCRIPT, removePasskeyView } from '../views/passkeys.ts'
import { emptyForm } from '../kit/forms.ts'
import { CHALLENGE_COOKIE, clientOf, endChallengeCookie } from './two-factor.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const JSON_ERRORS = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 410: ErrorBody, 429: ErrorBody }

const json = (value: unknown, status = 200, headers?: Headers): Response => {
  const out = new Headers(headers)
  out.set('content-type', 'application/json; charset=utf-8')
  out.set('cache-control', 'no-store')
  return new Response(JSON.stringify(value), { status, headers: out })
}

/** A service's error as the shared JSON error body (never a 500 for a refusal). */
function jsonError(error: unknown): Response {
  if (error instanceof TooManyAttempts) return errorResponse(429, 'too many attempts: try again in a few minutes', { 'retry-after': String(error.retryAfterSeconds) })
  if (error instanceof TooManySignIns) return errorResponse(429, error.message, { 'retry-after': String(error.retryAfterSeconds) })
  if (error instanceof HttpError) return errorResponse(error.status, error.message)
  throw error
}

/**
 * The browser's half of a password-free sign-in (service.ts signInOptions): only on the two sign-in
 * paths, Strict (no other site's page makes the browser send it), as long as the challenge lives.
 */
export const SIGN_IN_COOKIE = 'lantern_passkey_sign_in'
const signInCookiePath = '/user/passkeys/sign-in'
const signInCookie = (config: Config, token: string) =>
  serializeCookie(SIGN_IN_COOKIE, token, { secure: config.scheme === 'https', maxAgeSeconds: CEREMONY_TTL_MS / 1000, path: signInCookiePath, sameSite: 'Strict' })
const endSignInCookie = (config: Config) => clearCookie(SIGN_IN_COOKIE, { secure: config.scheme === 'https', path: signInCookiePath, sameSite: 'Strict' })

/** `response` with one more Set-Cookie. */
function withCookie(response: Response, cookie: string): Response {
  response.headers.append('set-cookie', cookie)
  return response
}

export function passkeyScreens(deps: ScreenDeps<'accounts' | 'passkeys' | 'twoFactor'>) {
  const { config } = deps
  const { accounts, passkeys, twoFactor } = deps.services
  const screen = screens({ accounts, config })
  const page = { title: 'Passkeys', head: ACCOUNT_HEAD, crumbs: accountCrumbs('Passkeys'), scripts: [PASSKEYS_SCRIPT] }

  /** A signed-in JSON call from this site: the person, or the refusal. */
  const signedIn = async (request: Request) => {
    if (!isSameOrigin(request, accounts.serviceOrigin)) return errorResponse(403, 'this request must come from this site')
    const user = await sessionUser(accounts, request)
    return user ?? errorResponse(401, 'log in first')
  }

  /** A session for `userId`, answered as where to go next. */
  const signInAnswer = async (request: Request, userId: number, next: string, endCookie: string) => {
    const session = await accounts.startSession(userId, request.headers.get('user-agent'))
    const headers = new Headers({ 'referrer-policy': 'no-referrer' })
    headers.append('set-cookie', sessionCookie(config, session))
    headers.append('set-cookie', endCookie)
    return json({ location: next }, 200, headers)
  }

  return new Elysia()
    .get(
      '/user/passkeys',
      screen(async ({ user, render }) => render(page, passkeysView({ passkeys: await passkeys.list(user.userId), state: emptyForm() }))),
      { response: { 200: HtmlResponse }, detail: detail('Passkeys: the list and "Add a passkey"') },
    )
    .post(
      '/user/passkeys/options',
      async ({ request, body, server }) => {
        const user = await signedIn(request)
        if (user instanceof Response) return user
        try {
          // The password first (counted like a login guess): the challenge made next is the proof.
          await accounts.confirmPassword(user.userId, body.password, clientOf(request, server))
          return json(await passkeys.registrationOptions({ id: user.userId, email: user.email }))
        } catch (error) {
          return jsonError(error)
        }
      },
      { body: RegistrationOptionsBody, response: { 200: CeremonyOptions, ...JSON_ERRORS }, detail: detail('Passkeys: the password, then options to add one (JSON, for the page script)') },
    )
    .post(
      '/user/passkeys',
      screen(async ({ user, body }) => {
        const input = body as typeof AddPasskeyBody.static
        try {
          const added = await passkeys.register(user.userId, input.response, input.name)
          return json({ location: '/user/passkeys' }, 200, new Headers({ 'set-cookie': flashCookie(config, { kind: 'notice', text: `Passkey "${added.name}" added.` }) }))
        } catch (error) {
          return jsonError(error)
        }
      }),
      { body: AddPasskeyBody, response: { 200: NextLocation, ...JSON_ERRORS }, detail: detail('Passkeys: add one with the browser answer (JSON, for the page script)') },
    )
    .post(
      '/user/passkeys/:id/rename',
      screen(async ({ user, params, body, redirect }) => {
        try {
          const renamed = await passkeys.rename(user.userId, idParam(params.id), formFields(body).name ?? '')
          return redirect('/user/passkeys', `Passkey renamed to "${renamed.name}".`)
        } catch (error) {
          if (error instanceof HttpError && error.status === 400) return redirect('/user/passkeys', { kind: 'error', text: `Not renamed: ${error.message}.` })
          throw error
        }
      }),
      { params: IdPath, body: t.Object({ name: t.Optional(t.String({ maxLength: 1000 })) }), response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Passkeys: rename one (form post)') },
    )
    .get(
      '/user/passkeys/:id/remove',
      screen(async ({ user, params, render }) => {
        const passkey = await passkeys.get(user.userId, idParam(params.id))
        return render({ title: `Remove ${passkey.name}`, crumbs: [{ label: 'Account', href: '/user/account' }, { label: 'Passkeys', href: '/user/passkeys' }, { label: 'Remove' }] }, removePasskeyView(passkey))
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('Passkeys: confirm removal') },
    )
    .post(
      '/user/passkeys/:id/remove',
      screen(async ({ user, params, redirect }) => {
        const id = idParam(params.id)
        const passkey = await passkeys.get(user.userId, id)
        await passkeys.remove(user.userId, id)
        return redirect('/user/passkeys', `Passkey "${passkey.name}" removed.`)
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Passkeys: remove one (form post)') },
    )
    .post(
      '/user/passkeys/sign-in/options',
      async ({ request, server }) => {
        if (isCrossSite(request, accounts.serviceOrigin)) return errorResponse(403, 'this request must come from this site')
        try {
          const { options, browserToken } = await passkeys.signInOptions(clientOf(request, server))
          return json(options, 200, new Headers({ 'set-cookie': signInCookie(config, browserToken) }))
        } catch (error) {
          return jsonError(error)
        }
      },
      { response: { 200: CeremonyOptions, 403: ErrorBody, 429: ErrorBody }, detail: detail('Login: options for a password-free sign-in with a passkey (JSON; sets the browser cookie the answer needs)') },
    )
    .post(
      '/user/passkeys/sign-in',
      async ({ request, body, server }) => {
        if (isCrossSite(request, accounts.serviceOrigin)) return errorResponse(403, 'this request must come from this site')
        // Spent by this answer, right or wrong: the cookie goes with it.
        const browserToken = readCookie(request.headers.get('cookie'), SIGN_IN_COOKIE)
        try {
          const userId = await passkeys.signIn(body.response, clientOf(request, server), browserToken)
          return await signInAnswer(request, userId, safeNext(body.next), endSignInCookie(config))
        } catch (error) {
          return withCookie(jsonError(error), endSignInCookie(config))
        }
      },
      { body: PasskeySignInBody, response: { 200: NextLocation, ...JSON_ERRORS }, detail: detail('Login: a password-free sign-in with a passkey (JSON)') },
    )
    .post(
      '/user/login/two-factor/passkey/options',
      async ({ request }) => {
        if (isCrossSite(request, accounts.serviceOrigin)) return errorResponse(403, 'this request must come from this site')
        const userId = await twoFactor.challengeUser(readCookie(request.headers.get('cookie'), CHALLENGE_COOKIE) ?? '')
        if (userId === undefined) return errorResponse(410, 'this sign-in has expired: log in again')
        try {
          return json(await passkeys.secondFactorOptions(userId))
        } catch (error) {
          return jsonError(error)
        }
      },
      { response: { 200: CeremonyOptions, ...JSON_ERRORS }, detail: detail('Login: options for the passkey as the second factor (JSON)') },
    )
    .post(
      '/user/login/two-factor/passkey',
      async ({ request, body, server }) => {
        if (isCrossSite(request, accounts.serviceOrigin)) return errorResponse(403, 'this request must come from this site')
        const token = readCookie(request.headers.get('cookie'), CHALLENGE_COOKIE) ?? ''
        try {
          const userId = await twoFactor.challengeUser(token)
          if (userId === undefined) return errorResponse(410, 'this sign-in has expired: log in again')
          await passkeys.verifySecondFactor(userId, body.response, clientOf(request, server))
          await twoFactor.endChallenge(token)
          return await signInAnswer(request, userId, safeNext(body.next), endChallengeCookie(config))
        } catch (error) {
          return jsonError(error)
        }
      },
      { body: PasskeySignInBody, response: { 200: NextLocation, ...JSON_ERRORS }, detail: detail('Login: the passkey as the second factor (JSON)') },
    )
}
