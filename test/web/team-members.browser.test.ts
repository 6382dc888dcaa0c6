/**
 * The members and invitations screen of the acting team, in real Chromium with mail off: the owner
 * opens it from the Teams screen, invites someone and sees the link to pass on; the invitee opens
 * it, joins and appears in the members list; the owner changes their role; an admin sees no
 * controls on the owner and cannot invite above their role; a viewer sees the lists and no button,
 * and their forged posts are refused (403) with nothing changed; the owner revokes an invitation
 * and removes a member after a confirmation. Also: markup in a team's name and in a typed address
 * stays text, a cross-site post is 403, a bad address, a duplicate and a full plan are errors in the form,
 * a11y and layouts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { checkA11y, checkLayouts, postForm, startWebApp, type Owner, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 11, 7, 12, 0, 0)
const TEAM = '<img src=x onerror="window.pwned=1">Night Ops'

let app: WebApp
let invitee: Owner
let inviteeContext: BrowserContext
let tab: Page

beforeAll(async () => {
  // Mail is off (no SMTP settings): invitations answer their link. Growth: 10 seats.
  app = await startWebApp({ now: NOW, plan: 'growth' })
  invitee = await app.createOwner('free')
})
afterAll(async () => {
  await inviteeContext?.close()
  await app.close()
})

const services = () => app.server.ctx.app.services
const actingOwner = async (context: BrowserContext) => {
  const token = (await app.cookieOf(context)).split('=')[1]!
  return (await services().accounts.authenticateSession(decodeURIComponent(token)))!
}
const pwned = (page: Page) => page.evaluate(() => (window as { pwned?: number }).pwned)
const memberRow = (page: Page, email: string) => page.getByRole('table', { name: /Members of/ }).getByRole('row').filter({ hasText: email })

describe('team members and invitations in the browser', () => {
  test('the owner invites with mail off and sees the link; the invitee joins and is listed; the owner changes their role', async () => {
    const page = app.page
    await services().teams.create(await actingOwner(app.context), TEAM)
    await page.goto(`${app.base}/user/teams`)
    await page.getByRole('button', { name: /^Act in .*Night Ops$/ }).click()
    await page.waitForURL(`${app.base}/user`)
    await page.goto(`${app.base}/user/teams`)
    await page.getByRole('link', { name: 'Members and invitations' }).click()
    await page.waitForURL(`${app.base}/user/team`)
    expect(await page.locator('h1').textContent()).toBe(`Members of ${TEAM}`)
    expect(await pwned(page)).toBeUndefined()
    expect(await page.getByText('1 of 10 used').isVisible()).toBe(true)
    expect(await memberRow(page, app.owner.email).getByText('Last owner').isVisible()).toBe(true)
    expect(await memberRow(page, app.owner.email).getByRole('button').count()).toBe(0)
    expect(await page.getByText('No pending invitations.').isVisible()).toBe(true)

    await page.getByLabel('Email address').fill(invitee.email.toUpperCase())
    await page.getByLabel('Role', { exact: true }).selectOption('editor')
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await page.waitForURL(`${app.base}/user/team/invitations`)
    expect(await page.getByRole('status').filter({ hasText: `Invitation for ${invitee.email} made. Mail is off` }).isVisible()).toBe(true)
    const link = await page.getByRole('textbox', { name: `Invitation link for ${invitee.email}` }).inputValue()
    expect(link).toMatch(new RegExp(`^${app.base}/user/invitations/[A-Za-z0-9_-]{43}$`))
    const pending = page.getByRole('table', { name: 'Pending invitations' }).getByRole('row').filter({ hasText: invitee.email })
    expect(await pending.getByRole('cell', { name: 'Editor' }).isVisible()).toBe(true)
    expect(await pending.getByRole('button', { name: `Revoke the invitation of ${invitee.email}` }).isVisible()).toBe(true)
    expect(await page.getByText('2 of 10 used').isVisible()).toBe(true)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'team-members-owner', ['Members of', 'Invitation link for', 'Pending invitations', 'Invite someone'])

    // The invitee opens the link, joins, and acts in the team.
    ;({ context: inviteeContext, page: tab } = await app.loginAs(invitee))
    await tab.goto(link)
    await tab.getByRole('button', { name: /^Join .*Night Ops$/ }).click()
    await tab.waitForURL(`${app.base}/user/account`)
    await tab.goto(`${app.base}/user/teams`)
    await tab.getByRole('button', { name: /^Act in .*Night Ops$/ }).click()
    await tab.waitForURL(`${app.base}/user`)
    expect((await actingOwner(inviteeContext)).role).toBe('editor')

    await page.goto(`${app.base}/user/team`)
    expect(await memberRow(page, invitee.email).getByRole('cell', { name: 'Editor', exact: true }).isVisible()).toBe(true)
    expect(await page.getByText('No pending invitations.').isVisible()).toBe(true)
    // The invitee's row has the controls (the last owner's has none, see above).
    await page.getByLabel(`Role of ${invitee.email}`).selectOption('admin')
    await page.getByRole('button', { name: `Change role of ${invitee.email}` }).click()
    await page.waitForURL(`${app.base}/user/team`)
    expect(await page.getByRole('status').filter({ hasText: `${invitee.email} is Admin now.` }).isVisible()).toBe(true)
    expect(await memberRow(page, invitee.email).getByRole('cell', { name: 'Admin', exact: true }).isVisible()).toBe(true)
    expect((await actingOwner(inviteeContext)).role).toBe('admin')
  })

  test('an admin sees no controls on the owner and cannot invite above their role', async () => {
    await tab.goto(`${app.base}/user/team`)
    expect(await memberRow(tab, app.owner.email).getByRole('button').count()).toBe(0)
    expect(await memberRow(tab, app.owner.email).getByRole('link').count()).toBe(0)
    expect(await tab.getByLabel('Role', { exact: true }).locator('option[value="owner"]').count()).toBe(0)
    const cookie = await app.cookieOf(inviteeContext)
    const above = await postForm(app, '/user/team/invitations', { email: 'boss@example.com', role: 'owner' }, { cookie })
    expect(above.status).toBe(400)
    expect(await above.text()).toContain('Role cannot be above your own (Admin)')
    const owner = (await services().teams.members(await actingOwner(app.context))).find((m) => m.role === 'owner')!
    const demote = await postForm(app, `/user/team/members/${owner.userId}/role`, { role: 'viewer' }, { cookie })
    expect(demote.status).toBe(403)
    expect(await demote.text()).toContain('only an owner may change an owner or make one')
    expect((await services().teams.invitations(await actingOwner(app.context))).length).toBe(0)
  })

  test('a viewer sees the lists and no button; their forged posts are refused and change nothing', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/team`)
    await page.getByLabel(`Role of ${invitee.email}`).selectOption('viewer')
    await page.getByRole('button', { name: `Change role of ${invitee.email}` }).click()
    await page.waitForURL(`${app.base}/user/team`)
    await page.getByLabel('Email address').fill('pending@example.com')
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await page.waitForURL(`${app.base}/user/team/invitations`)

    await tab.goto(`${app.base}/user/team`)
    expect(await memberRow(tab, app.owner.email).isVisible()).toBe(true)
    expect(await memberRow(tab, invitee.email).getByRole('cell', { name: 'Viewer', exact: true }).isVisible()).toBe(true)
    expect(await tab.getByRole('table', { name: 'Pending invitations' }).getByText('pending@example.com').isVisible()).toBe(true)
    expect(await tab.locator('main button').count()).toBe(0)
    expect(await tab.locator('main form').count()).toBe(0)
    expect(await tab.getByRole('link', { name: /Remove|Leave/ }).count()).toBe(0)
    expect(await tab.getByText('Your role (Viewer) reads the members').isVisible()).toBe(true)
    await checkA11y(tab)
    await checkLayouts(tab, app.shots, 'team-members-viewer', ['Members of', 'Pending invitations'])

    const cookie = await app.cookieOf(inviteeContext)
    const lead = await actingOwner(app.context)
    const owner = (await services().teams.members(lead)).find((m) => m.role === 'owner')!
    const invitation = (await services().teams.invitations(lead))[0]!
    for (const [path, fields] of [
      ['/user/team/invitations', { email: 'sneaky@example.com', role: 'viewer' }],
      [`/user/team/invitations/${invitation.id}/revoke`, {}],
      [`/user/team/members/${owner.userId}/role`, { role: 'viewer' }],
      [`/user/team/members/${(await actingOwner(inviteeContext)).userId}/role`, { role: 'admin' }],
      [`/user/team/members/${owner.userId}/remove`, {}],
    ] as const) {
      const response = await postForm(app, path, fields, { cookie })
      expect({ path, status: response.status }).toEqual({ path, status: 403 })
    }
    // Not even the confirmation of a removal opens for a viewer.
    expect((await tab.goto(`${app.base}/user/team/members/${owner.userId}/remove`))!.status()).toBe(403)
    expect((await services().teams.invitations(lead)).map((i) => i.email)).toEqual(['pending@example.com'])
    expect((await services().teams.members(lead)).map((m) => m.role).sort()).toEqual(['owner', 'viewer'])
  })

  test('errors in the form: a bad address, markup in it, a member already, invited already, no seat left; a cross-site post is 403', async () => {
    const page = app.page
    const cookie = await app.cookieOf(app.context)
    await page.goto(`${app.base}/user/team`)
    const markup = '"><img src=x onerror="window.pwned=1">@example.com'
    await page.getByLabel('Email address').fill(markup)
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await page.waitForURL(`${app.base}/user/team/invitations`)
    expect(await page.locator('#f-email-error').textContent()).toBe('Email address is not a valid address')
    expect(await page.getByLabel('Email address').getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByLabel('Email address').inputValue()).toBe(markup)
    expect(await page.getByRole('alert').getByRole('link', { name: 'Email address is not a valid address' }).isVisible()).toBe(true)
    expect(await pwned(page)).toBeUndefined()

    await page.getByLabel('Email address').fill(invitee.email)
    await page.getByRole('button', { name: 'Send invitation' }).click()
    expect(await page.locator('.form-error').textContent()).toBe(`${invitee.email} is a member of ${TEAM} already`)
    expect(await pwned(page)).toBeUndefined()
    const again = await postForm(app, '/user/team/invitations', { email: 'pending@example.com', role: 'viewer' }, { cookie })
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('pending@example.com has a pending invitation already: revoke it to send a new one')

    const crossSite = await postForm(app, '/user/team/invitations', { email: 'elsewhere@example.com', role: 'viewer' }, { cookie, origin: 'https://evil.example' })
    expect(crossSite.status).toBe(403)
    const lead = await actingOwner(app.context)
    expect((await services().teams.invitations(lead)).map((i) => i.email)).toEqual(['pending@example.com'])
    expect((await postForm(app, `/user/team/members/${lead.userId}/remove`, {}, { cookie, origin: 'https://evil.example' })).status).toBe(403)
    expect((await postForm(app, '/user/team/members/999999/remove', {}, { cookie })).status).toBe(404)
    // No seat left: a Free team has one, its owner's.
    const solo = await app.createOwner('free')
    const { context: soloContext } = await app.loginAs(solo)
    const full = await postForm(app, '/user/team/invitations', { email: 'crowd@example.com', role: 'viewer' }, { cookie: await app.cookieOf(soloContext) })
    expect(full.status).toBe(409)
    expect(await full.text()).toContain('the Free plan has 1 seat (members and pending invitations), all taken')
    await soloContext.close()

    // The last owner stays: the server says so even when the button is not shown.
    const last = await postForm(app, `/user/team/members/${lead.userId}/remove`, {}, { cookie })
    expect(last.status).toBe(409)
    expect(await last.text()).toContain('a team keeps at least one owner')
  })

  test('the owner revokes an invitation and removes a member after a confirmation', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/team`)
    await page.getByRole('button', { name: 'Revoke the invitation of pending@example.com' }).click()
    await page.waitForURL(`${app.base}/user/team`)
    expect(await page.getByRole('status').filter({ hasText: 'Invitation of pending@example.com revoked' }).isVisible()).toBe(true)
    expect(await page.getByText('No pending invitations.').isVisible()).toBe(true)

    await page.getByRole('link', { name: `Remove ${invitee.email}` }).click()
    await page.waitForURL(/\/user\/team\/members\/\d+\/remove$/)
    expect(await page.locator('h1').textContent()).toBe(`Remove ${invitee.email}?`)
    await checkA11y(page)
    await page.getByRole('button', { name: 'Remove member' }).click()
    await page.waitForURL(`${app.base}/user/team`)
    expect(await page.getByRole('status').filter({ hasText: `${invitee.email} removed from` }).isVisible()).toBe(true)
    expect(await memberRow(page, invitee.email).count()).toBe(0)
    expect(await page.getByText('1 of 10 used').isVisible()).toBe(true)
    expect((await services().teams.members(await actingOwner(app.context))).length).toBe(1)
  })
})
