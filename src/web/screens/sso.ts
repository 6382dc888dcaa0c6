/**
 * Single sign-on with the instance's OpenID provider (modules/sso/service.ts):
 *
 *   GET /user/sso/start      a new sign-in: its cookie (state, nonce and PKCE verifier kept on the
 *                            server under its hash), then off to the provider
 *   GET /user/sso/callback   back from the provider: the checks, the account, the session
 *
 * Both are 404 without OIDC_* settings. The cookie is HttpOnly and SameSite=Lax (the provider's
 * redirect back is a top-level GET, which Lax lets through), lives 10 minutes, only on /user/sso,
 * and is cleared on the way back whatever happens; its sign-in works once.
 */
import { Elysia, t } from 'elysia'
import type { Config } from '../../config.ts'
import { clearCookie, readCookie, serializeCookie } from '../../lib/cookies.ts'
import { clientKey } from '../../http/context.ts'
import { summarizeUserAgent } from '../../modules/accounts/user-agent.ts'
import { roleLabel } from '../../modules/plans/roles.ts'
import { SSO_LOGIN_TTL_MS, SsoError, type SsoSignIn } from '../../modules/sso/service.ts'
import { flashCookie } from '../kit/flash.ts'
import { htmlPage, redirect, safeNext, sessionCookie } from '../responses.ts'
import { ssoErrorView } from '../views/sso.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const Param = (max: number) => t.Optional(t.String({ maxLength: max }))

export const SSO_COOKIE = 'lantern_sso'
const cookiePath = '/user/sso'
const ssoCookie = (config: Config, token: string) =>
  serializeCookie(SSO_COOKIE, token, { secure: config.scheme === 'https', maxAgeSeconds: SSO_LOGIN_TTL_MS / 1000, path: cookiePath })
const endSsoCookie = (config: Config) => clearCookie(SSO_COOKIE, { secure: config.scheme === 'https' }).replace('Path=/', `Path=${cookiePath}`)

/** What the first page after signing in says about the team of the address's domain. */
function joinNotice(signIn: SsoSignIn): string | undefined {
  const { join } = signIn
  if (join?.outcome === 'joined') return `You joined the team ${join.teamName} as ${roleLabel(join.role)}: it claimed the domain of your address. Act in it from Teams.`
  if (join?.outcome === 'full') return `The team ${join.teamName} claimed the domain of your address, but all its seats are taken: ask its admin to free one. You are signed in.`
  if (signIn.how === 'created') return 'Your account is made and signed in through single sign-on. It has no password: to have one too, use "Forgot password?" on the login page.'
  return undefined
}

export function ssoScreens(deps: ScreenDeps<'sso'>) {
  const { config } = deps
  const { sso } = deps.services
  const refused = (error: unknown, headers: Record<string, string> = {}) => {
    if (!(error instanceof SsoError)) throw error
    return htmlPage(ssoErrorView(error.message), error.status, headers)
  }
  const off = () => htmlPage(ssoErrorView('Single sign-on is not set up on this Lantern: log in with your email and password.'), 404)

  return new Elysia()
    .get(
      '/user/sso/start',
      async ({ query }) => {
        if (!sso.available) return off()
        try {
          const { token, url } = await sso.begin(safeNext(query.next))
          return redirect(url, 303, { 'set-cookie': ssoCookie(config, token) })
        } catch (error) {
          return refused(error)
        }
      },
      {
        query: t.Object({ next: Param(4000) }),
        response: { 303: t.Void(), 404: HtmlResponse, 502: HtmlResponse },
        detail: detail('Single sign-on: start (to the provider)'),
      },
    )
    .get(
      '/user/sso/callback',
      async ({ request }) => {
        if (!sso.available) return off()
        const clear = { 'set-cookie': endSsoCookie(config) }
        // The URL the provider sent the browser to, on this service's own origin (never the Host header's).
        const callbackUrl = new URL(`/user/sso/callback${new URL(request.url).search}`, config.baseUrl)
        try {
          const signIn = await sso.complete(readCookie(request.headers.get('cookie'), SSO_COOKIE), callbackUrl, {
            address: clientKey(request),
            userAgent: request.headers.get('user-agent'),
            client: summarizeUserAgent(request.headers.get('user-agent')),
          })
          const headers = new Headers({ location: signIn.next, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
          headers.append('set-cookie', clear['set-cookie'])
          headers.append('set-cookie', sessionCookie(config, signIn.sessionToken))
          const notice = joinNotice(signIn)
          if (notice) headers.append('set-cookie', flashCookie(config, { kind: signIn.join?.outcome === 'full' ? 'error' : 'notice', text: notice }))
          return new Response(null, { status: 303, headers })
        } catch (error) {
          return refused(error, clear)
        }
      },
      {
        query: t.Object(
          { code: Param(4000), state: Param(1000), iss: Param(2000), error: Param(200), error_description: Param(1000), session_state: Param(1000) },
          { additionalProperties: true },
        ),
        response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 502: HtmlResponse },
        detail: detail('Single sign-on: back from the provider (the session)'),
      },
    )
}
