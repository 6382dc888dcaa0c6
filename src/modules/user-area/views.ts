/**
 * Server-rendered HTML of the user area with ghtml: every interpolation is escaped unless marked
 * `!` (only for fragments built by these templates). No inline scripts or styles: a strict CSP can
 * forbid them; behaviour lives in /static/analytics/dashboard.js, looks in /static/user/user.css.
 */
import { html } from '../../lib/html.ts'
import type { User } from '../accounts/service.ts'

export interface LayoutOptions {
  title: string
  user?: User
  /** Extra tags for the head (already safe HTML). */
  head?: string
  /** Scripts loaded at the end (paths on our origin). */
  scripts?: string[]
  /** ES module scripts, run after `scripts` (paths on our origin). */
  modules?: string[]
  noindex?: boolean
  /** Pages whose URL holds a secret (shared analytics) send no referrer at all. */
  noReferrer?: boolean
}

export function layout(options: LayoutOptions, body: string): string {
  const nav = options.user
    ? html`<nav class="nav" aria-label="User area">
        <a class="brand" href="/user">Lantern</a>
        <a href="/user">Pages</a>
        <a href="/user/analytics">Analytics</a>
        <a href="/user/password">Password</a>
        <span class="who">${options.user.email}</span>
        <form method="post" action="/user/logout" class="inline"><button type="submit" class="link">Log out</button></form>
      </nav>`
    : html`<nav class="nav"><span class="brand">Lantern</span></nav>`
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="${options.noReferrer ? 'no-referrer' : 'same-origin'}">
!${options.noindex ? '<meta name="robots" content="noindex, nofollow">' : ''}
<title>${options.title} · Lantern</title>
<link rel="stylesheet" href="/static/user/user.css">
!${options.head ?? ''}
</head>
<body>
<header>!${nav}</header>
<main>!${body}</main>
!${(options.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
!${(options.modules ?? []).map((src) => html`<script type="module" src="${src}"></script>`)}
</body>
</html>`
}

export function loginPage(options: { error?: string; email?: string; next?: string; signupOpen: boolean }): string {
  return layout(
    { title: 'Log in' },
    html`<section class="card narrow">
  <h1>Log in</h1>
  !${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
  <form method="post" action="/user/login">
    <input type="hidden" name="next" value="${options.next ?? '/user'}">
    <label>Email <input type="email" name="email" autocomplete="username" required value="${options.email ?? ''}"></label>
    <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
    <button type="submit">Log in</button>
  </form>
  !${options.signupOpen ? html`<p>No account yet? <a href="/user/signup">Sign up</a>.</p>` : ''}
</section>`,
  )
}

export function signupPage(options: { error?: string; email?: string }): string {
  return layout(
    { title: 'Sign up' },
    html`<section class="card narrow">
  <h1>Create an account</h1>
  !${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
  <form method="post" action="/user/signup">
    <label>Email <input type="email" name="email" autocomplete="username" required value="${options.email ?? ''}"></label>
    <label>Password (at least 8 characters) <input type="password" name="password" autocomplete="new-password" minlength="8" required></label>
    <button type="submit">Sign up</button>
  </form>
  <p>Already have an account? <a href="/user/login">Log in</a>.</p>
</section>`,
  )
}

export function passwordPage(user: User, options: { error?: string; done?: boolean }): string {
  return layout(
    { title: 'Change password', user },
    html`<section class="card narrow">
  <h1>Change password</h1>
  <p>Changing your password logs out every other browser signed in to this account.</p>
  !${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
  !${options.done ? html`<p class="notice" role="status">Password changed. Other sessions were logged out.</p>` : ''}
  <form method="post" action="/user/password">
    <label>Current password <input type="password" name="current_password" autocomplete="current-password" required></label>
    <label>New password (at least 8 characters) <input type="password" name="new_password" autocomplete="new-password" minlength="8" required></label>
    <button type="submit">Change password</button>
  </form>
</section>`,
  )
}

export function homePage(user: User, pages: ReadonlyArray<{ id: number; name: string; slug: string; blocked: number; url: string }>): string {
  const rows = pages.map(
    (page) => html`<tr>
      <td>${page.name}</td>
      <td><a href="${page.url}">${page.slug}</a>!${page.blocked ? ' <span class="badge">blocked</span>' : ''}</td>
      <td><a href="/user/analytics/${page.id}">Analytics</a></td>
    </tr>`,
  )
  return layout(
    { title: 'Your status pages', user },
    html`<section class="card">
  <h1>Your status pages</h1>
  !${
    pages.length === 0
      ? html`<p>You have no status pages yet. Create one with the management API: <code>POST /user/api/v1/status-pages</code> with <code>{"slug": "acme", "name": "Acme"}</code> (see <a href="/swagger">the API docs</a>).</p>`
      : html`<table><thead><tr><th>Name</th><th>Page</th><th></th></tr></thead><tbody>!${rows}</tbody></table>`
  }
</section>`,
  )
}

export function messagePage(title: string, message: string, user?: User): string {
  return layout({ title, user }, html`<section class="card narrow"><h1>${title}</h1><p>${message}</p></section>`)
}
