/** Single sign-on: the login screen's button, and the page of a sign-in that was refused. */
import { html } from '../../lib/html.ts'
import { layout } from '../kit/layout.ts'

/** "Sign in with <provider>" under the password form; `next` comes along to the provider and back. */
export function ssoButton(providerName: string, next: string): string {
  const href = next === '/user' ? '/user/sso/start' : `/user/sso/start?next=${encodeURIComponent(next)}`
  return html`<p class="sso"><a class="button secondary" href="${href}">Sign in with ${providerName}</a></p>`
}

export function ssoErrorView(message: string): string {
  return layout(
    { title: 'Single sign-on did not work', noindex: true },
    html`<section class="card narrow">
  <h1>Single sign-on did not work</h1>
  <p role="alert">${message}</p>
  <p>You are not signed in.</p>
  <p><a href="/user/login">Back to log in</a></p>
</section>`,
  )
}
