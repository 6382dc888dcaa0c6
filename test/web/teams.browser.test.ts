/**
 * Teams in real Chromium: an owner creates a team on the Teams screen and acts in it, invites a
 * person (the mail through a real SMTP server), who opens the link, logs in, joins with the role
 * of the invitation, acts in the team and sees its page and not their own. Also: another address's
 * link is 404, a used link says so, a team that is not yours is 404, a cross-site post is 403,
 * markup in a team's name stays text, a11y and layouts. The members screen mails an invitation
 * when mail is on and says so.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startSmtp, type SmtpHarness } from '../helpers/smtp.ts'
import { checkA11y, checkLayouts, OWNER_PASSWORD, postForm, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 11, 6, 12, 0, 0)
const MARKUP = '<img src=x onerror="window.pwned=1">Ops'

let smtp: SmtpHarness
let app: WebApp

beforeAll(async () => {
  smtp = await startSmtp()
  app = await startWebApp({ now: NOW, env: { ...smtp.env } })
})
afterAll(async () => {
  await app.close()
  await smtp.close()
})

const services = () => app.server.ctx.app.services
/** The owner the browser of `context` acts as (its session), as the server sees it. */
const actingOwner = async (context: Parameters<WebApp['cookieOf']>[0]) => {
  const token = (await app.cookieOf(context)).split('=')[1]!
  return (await services().accounts.authenticateSession(decodeURIComponent(token)))!
}

describe('teams in the browser', () => {
  test('create a team, act in it, invite; the invitee joins through the mailed link and acts in the team', async () => {
    const page = app.page
    await app.server.ctx.createPage(app.owner.key, { slug: 'personal-one', name: 'Personal One' })
    await page.goto(`${app.base}/user`)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Teams' }).click()
    await page.waitForURL(`${app.base}/user/teams`)
    expect(await page.getByRole('row', { name: /\(personal\)/ }).getByText('Acting in it').isVisible()).toBe(true)

    await page.getByLabel('Team name').fill('Night Shift')
    await page.getByRole('button', { name: 'Create team' }).click()
    await page.waitForURL(`${app.base}/user/teams`)
    expect(await page.getByRole('status').filter({ hasText: 'Team Night Shift created' }).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Act in Night Shift' }).click()
    await page.waitForURL(`${app.base}/user`)
    expect(await page.getByRole('status').filter({ hasText: 'You act in Night Shift now.' }).isVisible()).toBe(true)
    // The team has no pages yet: the personal one is not shown while acting in the team.
    expect(await page.getByText('Personal One').count()).toBe(0)
    await page.goto(`${app.base}/user/teams`)
    expect(await page.getByRole('row', { name: /Night Shift/ }).getByText('Acting in it').isVisible()).toBe(true)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'teams', ['Your teams', 'Create a team'])

    const lead = await actingOwner(app.context)
    expect(lead.teamName).toBe('Night Shift')
    await services().pages.create(lead, { slug: 'night-shift', name: 'Night Shift Status' })
    const invitee = await app.createOwner('free')
    const stranger = await app.createOwner('free')
    await services().teams.invite(lead, { email: invitee.email, role: 'editor' })
    await services().outboxWorker.drain()
    const mail = await smtp.waitFor((m) => m.to === invitee.email && m.subject.includes('"Night Shift"'))
    const link = /http:\/\/\S+\/user\/invitations\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]
    expect(link.startsWith(`${app.base}/user/invitations/`)).toBe(true)

    // Someone else logged in: the link is not theirs (404, as an unknown one).
    const { context: strangerContext, page: strangerTab } = await app.loginAs(stranger)
    expect((await strangerTab.goto(link))!.status()).toBe(404)
    await strangerContext.close()

    // The invitee: logs in from the link and lands on the invitation.
    const other = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
    const tab = await other.newPage()
    await tab.goto(link)
    await tab.waitForURL(/\/user\/login\?next=/)
    await tab.getByLabel('Email').fill(invitee.email)
    await tab.getByLabel('Password').fill(OWNER_PASSWORD)
    await tab.getByRole('button', { name: 'Log in' }).click()
    await tab.waitForURL(link)
    expect(await tab.locator('h1').textContent()).toBe('Join Night Shift')
    expect(await tab.getByText('Editor: Pages, components, monitors', { exact: false }).isVisible()).toBe(true)
    await checkA11y(tab)
    await checkLayouts(tab, app.shots, 'invitation', ['Join Night Shift', 'Invitation expires'])
    await tab.getByRole('button', { name: 'Join Night Shift' }).click()
    await tab.waitForURL(`${app.base}/user/account`)
    expect(await tab.getByRole('status').filter({ hasText: 'You joined Night Shift as Editor.' }).isVisible()).toBe(true)

    await tab.goto(`${app.base}/user/teams`)
    expect(await tab.getByRole('row', { name: /Night Shift/ }).getByRole('cell', { name: 'Editor' }).isVisible()).toBe(true)
    await tab.getByRole('button', { name: 'Act in Night Shift' }).click()
    await tab.waitForURL(`${app.base}/user`)
    expect(await tab.getByRole('table').getByRole('link', { name: 'Night Shift Status' }).isVisible()).toBe(true)
    expect((await actingOwner(other)).role).toBe('editor')

    // The link works once.
    await tab.goto(link)
    expect(await tab.getByRole('status').filter({ hasText: 'This invitation was used already.' }).isVisible()).toBe(true)
    expect(await tab.getByRole('button', { name: 'Join Night Shift' }).count()).toBe(0)
    await other.close()

    // With mail on, the members screen mails an invitation and says so (no link on the screen).
    await page.goto(`${app.base}/user/team`)
    await page.getByLabel('Email address').fill('later@example.com')
    await page.getByLabel('Role', { exact: true }).selectOption('responder')
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await page.waitForURL(`${app.base}/user/team`)
    expect(await page.getByRole('status').filter({ hasText: 'Invitation mailed to later@example.com.' }).isVisible()).toBe(true)
    expect(await page.getByRole('textbox', { name: /Invitation link/ }).count()).toBe(0)
    expect(await page.getByRole('table', { name: 'Pending invitations' }).getByRole('row').filter({ hasText: 'later@example.com' }).getByRole('cell', { name: 'Responder' }).isVisible()).toBe(true)
    await services().outboxWorker.drain()
    const later = await smtp.waitFor((m) => m.to === 'later@example.com' && m.subject.includes('"Night Shift"'))
    expect(later.text).toContain('as Responder')
  })

  test('markup in a name stays text; a team that is not yours is 404; a cross-site post is 403; a bad name is 400', async () => {
    const page = app.page
    const cookie = await app.cookieOf(app.context)
    await page.goto(`${app.base}/user/teams`)
    await page.getByLabel('Team name').fill(MARKUP)
    await page.getByRole('button', { name: 'Create team' }).click()
    await page.waitForURL(`${app.base}/user/teams`)
    expect(await page.getByRole('row', { name: /Ops/ }).getByRole('rowheader').textContent()).toBe(MARKUP)
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()

    const someone = await app.createOwner('free')
    const theirs = (await services().teams.teamsOf(await services().accounts.personalTeamOwner((await services().accounts.findUserByEmail(someone.email))!)))[0]!
    expect((await postForm(app, `/user/teams/${theirs.id}/choose`, {}, { cookie })).status).toBe(404)
    expect((await postForm(app, '/user/teams/not-a-number/choose', {}, { cookie })).status).toBe(404)
    const before = (await services().teams.teamsOf(await actingOwner(app.context))).length
    expect((await postForm(app, '/user/teams', { name: 'Elsewhere' }, { cookie, origin: 'https://evil.example' })).status).toBe(403)
    const blank = await postForm(app, '/user/teams', { name: '   ' }, { cookie })
    expect(blank.status).toBe(400)
    expect(await blank.text()).toContain('Team name must not be empty')
    expect((await services().teams.teamsOf(await actingOwner(app.context))).length).toBe(before)
  })
})
