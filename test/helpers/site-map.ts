/**
 * Every page Lantern renders, over seeded data that fills its tables: the owner's screens, the
 * service host's public pages (front page, sign-in, docs, blog, changelog, embed preview, shared
 * analytics, error pages), the status hosts' pages (home, history, incident, subscribe and its mail
 * links, the gate of a private page, error pages) and first-run setup.
 *
 * The routes come from the app itself (`App.routes`, through `routeList`): every GET route of both hosts is either
 * listed as a page here, answers something other than HTML, or is named in NOT_PAGES with the reason,
 * else `sitePages` reports it, so a new screen cannot be forgotten. The browser sweep
 * (test/e2e/screens-sweep.browser.test.ts) and the HTML check (test/e2e/html-valid.test.ts) walk
 * the same list.
 */
import { SubscribersRepo } from '../../src/modules/subscribers/repo.ts'
import { ToolChecksRepo } from '../../src/modules/lookup-tools/repo.ts'
import type { Owner } from '../../src/modules/accounts/service.ts'
import type { App } from '../../src/app.ts'
import { BLOG, DOCS } from '../../src/content/index.ts'
import type { ListeningContext } from './listening.ts'
import { schedulerFor } from '../modules/monitors/scheduling.ts'
import { OWNER_PASSWORD } from './webapp.ts'

const DAY = 86_400_000
/** A 1×1 PNG (a red pixel): the seeded logo and favicon. */
export const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0))

export interface SitePage {
  /** The route pattern (or, for pages outside the route table, the path) it stands for. */
  route: string
  url: string
  /** Who looks: the seeded owner (session cookie) or a visitor without one. */
  as: 'owner' | 'visitor'
  /** The status it must answer with (error pages are pages too). */
  status: number
}

export interface Seed {
  ids: Record<string, number | string>
  slug: string
  privateSlug: string
  blockedSlug: string
  shareToken: string
  transferToken: string
  resetToken: string
  invitationToken: string
  confirmToken: string
  manageToken: string
}

/** A page load from a browser, so analytics counts it (bots and missing agents are not counted). */
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36'

/**
 * Seeds a page with grouped components, 40 days of status history, page views over 7 days,
 * monitors with results against a local target, SLA targets, an incident, a maintenance window,
 * a template, a channel, a kept lookup, a subscriber, a share link and a pending transfer; a private
 * and a blocked page. The monitors run three times a minute apart, so the clock ends 3 minutes on.
 * Needs MONITOR_PRIVATE_TARGETS (the target is on loopback) and mail settings (the subscribe form).
 */
export async function seedSite(server: ListeningContext, owner: Owner, options: { target: string }): Promise<Seed> {
  const ctx = server.ctx
  const services = ctx.app.services
  const now = ctx.clock.now()
  const today = now - (now % DAY)
  const page = await services.pages.create(owner, { name: 'Acme Cloud', slug: 'sweep' })
  const website = await services.components.create(owner, page.id, { name: 'Website', group: 'Frontend' })
  const api = await services.components.create(owner, page.id, { name: 'API', group: 'Backend', type: 'api' })
  await services.components.create(owner, page.id, { name: 'Database', group: 'Backend', status: 'degraded' })
  for (const [component, downDay] of [[website, 12], [api, 3]] as const) {
    await services.components.importHistory(owner, component.id, [
      { status: 'up', at: new Date(today - 40 * DAY).toISOString() },
      { status: 'down', at: new Date(today - downDay * DAY + 10 * 3_600_000).toISOString() },
      { status: 'up', at: new Date(today - downDay * DAY + 11 * 3_600_000).toISOString() },
    ])
  }
  // Page views on each of the last 7 days, today included.
  for (let day = 6; day >= 0; day--) {
    ctx.clock.set(today - day * DAY + 9 * 3_600_000)
    for (let visitor = 0; visitor < 3 + day; visitor++) {
      services.pageViews.record(page.id, new Request(`${server.statusHost('sweep')}/`, { headers: { 'user-agent': BROWSER_UA } }), { clientAddress: `198.51.100.${visitor + 1}` })
    }
    await services.pageViews.flush()
  }
  ctx.clock.set(now)

  const template = await services.incidents.createTemplate(owner, { name: 'Outage', title: '{{component}} outage', message: 'We are investigating problems with {{component}}.' })
  const incident = await services.incidents.create(owner, { status_page_id: page.id, title: 'Website outage', message: 'Looking into it.', component_ids: [website.id] })
  // A resolved incident with Markdown in its update and a published postmortem (the postmortem form and the public section).
  const postmortem = await services.incidents.create(owner, { status_page_id: page.id, title: 'API errors', message: 'Fixed: see [the notes](https://example.com/n).\n\n- **retried**\n- `queue` drained', state: 'resolved' })
  await services.incidents.savePostmortem(owner, postmortem.id, { body: 'What *happened*:\n\n1. a bad deploy\n2. a slow rollback\n\n```\nerror: reset\n```' })
  await services.incidents.publishPostmortem(owner, postmortem.id, {})
  const maintenance = await services.maintenances.create(owner, {
    status_page_id: page.id,
    title: 'Database upgrade',
    start_at: new Date(now + DAY - 3 * 3_600_000).toISOString(),
    end_at: new Date(now + DAY - 3_600_000).toISOString(),
  })
  // A timeline on the window (its screen and the status page show it).
  await services.maintenances.addUpdate(owner, maintenance.id, { message: 'Moved by an hour: see [the notes](https://example.com/m).\n\n- **replicas** first' })
  const key = (await services.accounts.listApiKeys(owner.id))[0]!
  // Monitors with results: one against the local target (up), one against a path it fails (down).
  const { monitor } = await services.monitors.create(owner, { name: 'Website check', type: 'http', target: `${options.target}/ok`, component_id: website.id, interval_seconds: 60, retries: 0 })
  const { monitor: apiHealth } = await services.monitors.create(owner, { name: 'API health', type: 'http', target: `${options.target}/fail`, interval_seconds: 60, retries: 0 })
  // Behind the failing one: unreachable (its parent is down).
  await services.monitors.create(owner, { name: 'Checkout', type: 'http', target: `${options.target}/ok`, interval_seconds: 60, retries: 0, parents: [apiHealth.id] })
  await services.monitors.create(owner, { name: 'Mail server', type: 'tcp', target: 'mail.example.com:25', enabled: false })
  const scheduler = schedulerFor(ctx)
  for (let run = 0; run < 3; run++) {
    ctx.clock.advance(60_000)
    await scheduler.tick()
    await scheduler.settle()
  }
  for (const { componentId } of await services.sla.targets(owner, page.id)) {
    if (componentId !== website.id) await services.sla.setTarget(owner, componentId, { target_percent: 99.9, public_budget: true })
  }
  // A kept lookup (the Tools result screen), shaped as the DKIM tool answers.
  const dkim = { status: 'warning', reason: 's1: RSA key of 1024 bits; use 2048 or more', selectors: [{ selector: 's1', status: 'warning', reason: 's1: RSA key of 1024 bits; use 2048 or more', key_type: 'rsa', bits: 1024, records: [`v=DKIM1; k=rsa; p=${'A'.repeat(216)}`] }] }
  const toolCheck = await new ToolChecksRepo(ctx.database.db).insertKeeping({ user_id: owner.id, tool: 'dkim', target: 's1 @ example.com', status: 'warning', summary: `DKIM warning: ${dkim.reason}`, result_json: JSON.stringify({ domain: 'example.com', dkim }), created_at: now }, 1_000)
  await services.branding.setImage(owner, page.id, 'logo', PNG)
  await services.branding.setImage(owner, page.id, 'favicon', PNG)
  const channel = await services.channels.create(owner, { type: 'webhook', name: 'Ops hook', url: 'https://hooks.example.com/lantern', secret: 'sweep-secret-0123456789abcdef' })
  const subscriber = await services.subscribers.add(owner, page.id, { email: 'reader@example.com', consent: true })
  // A webhook subscriber: its own screen (delivery log, signing secret).
  const webhookSubscriber = await services.subscribers.add(owner, page.id, { kind: 'webhook', url: 'https://hooks.example.com/subscriber', consent: true })
  const share = await services.shareTokens.create(owner, page.id, { label: 'Board' })

  // Another owner offers the owner a page: the offer's screen opens with the mailed token.
  const giver = await services.accounts.personalTeamOwner(await services.accounts.createUser({ email: 'giver@example.com', password: OWNER_PASSWORD, plan: 'enterprise' }))
  const offered = await services.pages.create(giver, { name: 'Offered Co', slug: 'sweep-offered' })
  await services.transfers.start(giver, offered.id, { email: owner.email, password: OWNER_PASSWORD }, '127.0.0.1')
  // The other owner invites the owner to their team: the invitation's screen opens with the mailed token.
  await services.teams.invite(giver, { email: owner.email, role: 'viewer' })
  // The owner's team has a second member (invited and joined through the mailed link) and a pending
  // invitation: the members screen shows both tables with their buttons, and a removal's confirmation.
  await services.teams.invite(owner, { email: 'member@example.com', role: 'editor' })
  const member = await services.accounts.personalTeamOwner(await services.accounts.createUser({ email: 'member@example.com', password: OWNER_PASSWORD, plan: 'free' }))
  await services.teams.accept(member, await mailedToken(server, /\/user\/invitations\/([A-Za-z0-9_-]+)/, member.email))
  await services.teams.invite(owner, { email: 'pending@example.com', role: 'viewer' })
  // The audit log screen lists changes made through routes (the seed calls services): two made-up ones.
  const audited = { owner, address: '198.51.100.9', client: 'Firefox on Linux' }
  await services.audit.recordRequest({ ...audited, method: 'POST', route: '/user/api/v1/status-pages', params: {}, body: { name: 'Sweep Co', slug: 'sweep' } })
  await services.audit.recordRequest({ ...audited, method: 'PATCH', route: '/user/api/v1/status-pages/:id', params: { id: String(page.id) }, body: { name: 'Sweep Co' } })
  // The other owner forgot their password: the new-password form opens with the mailed token.
  await services.passwordResets.request(giver.email, '127.0.0.1')
  // A visitor subscribes on the page: the confirmation link is in the queued mail.
  const subscribe = await ctx.request(`${server.statusHost('sweep')}/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.statusHost('sweep'), 'x-forwarded-for': '198.51.100.77' },
    body: new URLSearchParams({ email: 'visitor@example.com', website: '' }).toString(),
  })
  if (subscribe.status !== 200) throw new Error(`subscribe: ${subscribe.status} ${await subscribe.text()}`)

  const privatePage = await services.pages.create(owner, { name: 'Private Co', slug: 'sweep-private', visibility: 'private' })
  await services.pageAccessSettings.setPassword(owner, privatePage.id, 'gate password 42')
  await services.pages.create(owner, { name: 'Blocked Co', slug: 'sweep-blocked' })
  await services.pages.setBlocked('sweep-blocked', true)

  const subscribers = new SubscribersRepo(ctx.database.db)
  const row = (await ctx.database.db.selectFrom('subscribers').select(['id', 'manage_key']).where('id', '=', subscriber.id).executeTakeFirstOrThrow())
  const manageToken = await services.subscribers.tokens.token(subscribers, row.id, row.manage_key)

  return {
    ids: { page: page.id, component: website.id, incident: incident.id, postmortem: postmortem.id, template: template.id, maintenance: maintenance.id, key: key.id, monitor: monitor.id, toolCheck, channel: channel.id, subscriber: webhookSubscriber.id, offered: offered.id, member: member.userId },
    slug: 'sweep',
    privateSlug: 'sweep-private',
    blockedSlug: 'sweep-blocked',
    shareToken: share.secret,
    transferToken: await mailedToken(server, /\/user\/transfers\/([A-Za-z0-9_-]+)/),
    resetToken: await mailedToken(server, /\/user\/password-reset\/([A-Za-z0-9_-]+)/),
    invitationToken: await mailedToken(server, /\/user\/invitations\/([A-Za-z0-9_-]+)/, owner.email),
    confirmToken: await mailedToken(server, /\/subscribe\/confirm\?token=([A-Za-z0-9_-]+)/),
    manageToken,
  }
}

/** Every route of the service host and of status hosts, as one list (the sweep and the HTML check walk it). */
export function routeList(app: App): Array<{ host: 'service' | 'status'; method: string; path: string }> {
  return [
    ...app.routes.service.map((route) => ({ host: 'service' as const, method: route.method, path: route.path })),
    ...app.routes.statusHost.map((route) => ({ host: 'status' as const, method: route.method, path: route.path })),
  ]
}

/** A token out of a queued mail (the outbox row's text), as its recipient (`to`, else anyone) would follow it. */
async function mailedToken(server: ListeningContext, link: RegExp, to?: string): Promise<string> {
  const rows = await server.ctx.database.db.selectFrom('outbox').select('payload_json').execute()
  for (const row of rows) {
    if (to !== undefined && (JSON.parse(row.payload_json) as { mail?: { to?: string } }).mail?.to !== to) continue
    const found = link.exec(row.payload_json)
    if (found) return found[1]!
  }
  throw new Error(`no queued mail${to ? ` to ${to}` : ''} holds ${link}`)
}

/** Which seeded value fills `:param` of a route, by the segment before it; undefined when none does. */
function fillRoute(route: string, seed: Seed, tags: { docs: string; blog: string }): string | undefined {
  const segments = route.split('/')
  let known = true
  const path = segments
    .map((segment, i) => {
      if (segment === '*') return ((known = false), 'no-such-file')
      if (!segment.startsWith(':')) return segment
      const owner = `${segments[i - 1]}/${segment}`
      const value = {
        'pages/:id': seed.ids.page,
        'analytics/:id': seed.ids.page,
        'components/:cid': seed.ids.component,
        'incidents/:id': seed.ids.incident,
        'templates/:id': seed.ids.template,
        'maintenance/:id': seed.ids.maintenance,
        'api-keys/:id': seed.ids.key,
        'members/:user_id': seed.ids.member,
        'monitors/:id': seed.ids.monitor,
        'checks/:id': seed.ids.toolCheck,
        'notifications/:id': seed.ids.channel,
        'subscribers/:sid': seed.ids.subscriber,
        'tools/:tool': 'dkim',
        'branding/:kind': 'logo',
        'transfers/:token': seed.transferToken,
        'password-reset/:token': seed.resetToken,
        'invitations/:token': seed.invitationToken,
        'tag/:tag': segments[i - 2] === 'blog' ? tags.blog : tags.docs,
      }[owner]
      if (value === undefined) known = false
      // Parameters of files and machine routes: a name that is no file (their answers are not pages).
      return value === undefined ? 'x' : String(value)
    })
    .join('/')
  return known ? path : undefined
}

/** Pages of one route that differ by a query or by the value of their parameter. */
const VARIANTS: Record<string, string[]> = {
  '/user/notifications/new': ['?type=webhook', '?type=email'],
  '/user/monitors/new': ['', '?type=http', '?type=keyword', '?type=json', '?type=tcp', '?type=push', '?type=dns', '?type=ssl', '?type=ping', '?type=domain_expiry', '?type=redis', '?type=postgres', '?type=websocket', '?type=smtp'],
  '/embed/preview': ['?slug=sweep'],
  '/user/team/audit': ['', '?action=status-pages.patch&from=2020-01-01'],
  '/docs/:slug': Object.keys(DOCS).map((slug) => `/docs/${slug}`),
  '/blog/:slug': Object.keys(BLOG).map((slug) => `/blog/${slug}`),
}

/** Pages under /user that a visitor sees (the owner is sent on). */
const VISITOR_SCREENS = new Set(['/user/login', '/user/signup', '/user/password-reset', '/user/password-reset/:token'])

/** GET routes that are not pages of their own, or are reached another way (each with the reason). */
export const NOT_PAGES: Record<string, string> = {
  '/user/login/two-factor': 'opens only during a sign-in with two-factor on (its cookie): test/web/two-factor.browser.test.ts',
  '/user/setup': 'only while there are no users: swept on a fresh instance (setupPage)',
  '/user/sso/start': 'redirects to the identity provider (no page of its own): test/web/sso.browser.test.ts',
  '/user/sso/callback': 'the way back from the identity provider: its refusal page is listed below, the rest in test/web/sso.browser.test.ts',
  '/analytics/:id': 'opens with a share token only: listed with one below',
  '/subscribe/confirm': 'opens with a mailed token only: listed with one below',
  '/subscribe/manage': 'opens with a mailed token only: listed with one below',
  '/unsubscribe': 'opens with a mailed token only: listed with one below',
  '/user/monitors/live': "the list's live part, an HTML fragment its page replaces (the page is swept): test/web/live-monitors.browser.test.ts",
  '/user/monitors/:id/live': "a monitor's live parts, an HTML fragment its page replaces (the page is swept): test/web/live-monitors.browser.test.ts",
}

const isHtml = (response: Response) => (response.headers.get('content-type') ?? '').includes('text/html')

/** The first tag an index page links to. */
async function firstTag(server: ListeningContext, section: 'docs' | 'blog'): Promise<string> {
  const index = await (await server.ctx.request(`${server.base}/${section}/`)).text()
  const tag = new RegExp(`href="/${section}/tag/([^"]+)"`).exec(index)?.[1]
  if (!tag) throw new Error(`/${section}/ links to no tag`)
  return decodeURIComponent(tag)
}

/**
 * Every page to sweep: each GET route of the app filled from `seed` and asked once (as the owner
 * under /user, else as a visitor; one redirect on the same host followed); those that answer HTML
 * with 200 are pages, plus the error pages, the gate and what a token opens. `unlisted` names the GET
 * routes filled from the seed that answered an error in HTML: a page the sweep cannot reach.
 */
export async function sitePages(server: ListeningContext, seed: Seed, ownerCookie: string): Promise<{ pages: SitePage[]; unlisted: string[] }> {
  const tags = { docs: await firstTag(server, 'docs'), blog: await firstTag(server, 'blog') }
  const pages: SitePage[] = []
  const unlisted: string[] = []
  const status = (slug: string) => server.statusHost(slug)
  for (const route of routeList(server.ctx.app)) {
    if (route.method !== 'GET' || route.path in NOT_PAGES) continue
    const as = route.host === 'service' && route.path.startsWith('/user') && !VISITOR_SCREENS.has(route.path) ? 'owner' : 'visitor'
    const origin = route.host === 'service' ? server.base : status(seed.slug)
    const filled = fillRoute(route.path, seed, tags)
    const variants = (VARIANTS[route.path] ?? ['']).map((variant) => (variant.startsWith('/') ? variant : `${filled ?? fillRoute(route.path, seed, tags) ?? route.path}${variant}`))
    for (const path of variants) {
      let url = `${origin}${path.replace(/\/x(\/|$)/g, '/x$1')}`
      const headers = { accept: 'text/html', ...(as === 'owner' ? { cookie: ownerCookie } : {}) }
      let response = await server.ctx.request(url, { headers })
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel()
        url = new URL(location, url).href
        response = await server.ctx.request(url, { headers })
      }
      await response.body?.cancel()
      if (!isHtml(response)) continue
      if (response.status === 200) pages.push({ route: route.path, url, as, status: 200 })
      // A made-up file name or token answers the HTML error page, swept below; seeded ids must not.
      else if (filled !== undefined || VARIANTS[route.path]) unlisted.push(`${route.host} ${url}: HTML with status ${response.status}`)
    }
  }
  const visitor = (route: string, url: string, code = 200): SitePage => ({ route, url, as: 'visitor', status: code })
  pages.push(
    visitor('service 404', `${server.base}/no-such-page`, 404),
    visitor('/analytics/:id (shared)', `${server.base}/analytics/${seed.ids.page}?token=${seed.shareToken}`),
    visitor('/analytics/:id (refused token)', `${server.base}/analytics/${seed.ids.page}?token=lsh_revoked_0000`, 403),
    visitor('status /subscribe/confirm', `${status(seed.slug)}/subscribe/confirm?token=${seed.confirmToken}`),
    visitor('status /subscribe/manage', `${status(seed.slug)}/subscribe/manage?token=${seed.manageToken}`),
    visitor('status /unsubscribe', `${status(seed.slug)}/unsubscribe?token=${seed.manageToken}`),
    visitor('/user/sso/callback (no sign-in under way)', `${server.base}/user/sso/callback?code=x&state=y`, 400),
    visitor('/user/password-reset/:token (dead link)', `${server.base}/user/password-reset/${'x'.repeat(43)}`, 410),
    visitor('status /subscribe/confirm (expired)', `${status(seed.slug)}/subscribe/confirm?token=${'x'.repeat(43)}`, 404),
    visitor('status 404', `${status(seed.slug)}/no-such-page`, 404),
    visitor('status incident with a postmortem', `${status(seed.slug)}/incidents/${seed.ids.postmortem}`),
    { route: '/user/incidents/:id (postmortem)', url: `${server.base}/user/incidents/${seed.ids.postmortem}`, as: 'owner', status: 200 },
    visitor('status incident 404', `${status(seed.slug)}/incidents/999999`, 404),
    visitor('status gate', `${status(seed.privateSlug)}/`, 401),
    visitor('status blocked', `${status(seed.blockedSlug)}/`, 503),
    visitor('unknown status host', `${status('no-such-page-here')}/`, 404),
  )
  return { pages: dedupe(pages), unlisted }
}

/** One entry per URL: a route listed twice, or a redirect to another route's page, is one page (the route that names it). */
function dedupe(pages: SitePage[]): SitePage[] {
  const names = (page: SitePage) => new RegExp(`^${page.route.replace(/:[a-z_]+/gi, '[^/]+')}/?$`).test(new URL(page.url).pathname)
  const byUrl = new Map<string, SitePage>()
  for (const page of pages) {
    const known = byUrl.get(page.url)
    if (!known || (!names(known) && names(page))) byUrl.set(page.url, page)
  }
  return [...byUrl.values()]
}
/** What the seed needs of the instance: sign-up open, loopback monitor targets, mail on (queued only). */
export const SITE_ENV: Record<string, string> = {
  SIGNUP: 'open',
  MONITOR_PRIVATE_TARGETS: '1',
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: '9',
  SMTP_SECURITY: 'none',
  MAIL_FROM: 'Lantern <status@lantern.test>',
  // Single sign-on set up (the login screen shows its button); the provider is never asked.
  OIDC_ISSUER: 'https://id.lantern.test',
  OIDC_CLIENT_ID: 'lantern',
  OIDC_CLIENT_SECRET: 'a-secret-of-the-site-sweep',
  OIDC_NAME: 'Lantern ID',
}

/** The monitors' target: `/ok` answers 200, anything else 503. */
export function startMonitorTarget(): { url: string; stop(): void } {
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => (new URL(request.url).pathname === '/ok' ? new Response('ok') : new Response('unavailable', { status: 503 })),
  })
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}

/** The session cookie (`name=value`) of `email`, logged in through the form. */
export async function loginCookie(server: ListeningContext, email: string): Promise<string> {
  const response = await server.ctx.request(`${server.base}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.base },
    body: new URLSearchParams({ email, password: OWNER_PASSWORD }).toString(),
  })
  if (response.status !== 303) throw new Error(`login failed: ${response.status}`)
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!
}
