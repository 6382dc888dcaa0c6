/**
 * A team that requires two-factor, in real Chromium: the owner (Business) cannot turn it on before
 * they have two-factor themselves, then does, on the team screen's Security card; a member without
 * two-factor who acts in the team is sent from every screen to the enrolment with why, still
 * reaches their account and the teams screen (and acts in their personal team freely), enrols with
 * a code of the app (the test's clock), and then reaches the team's screens, listed as On. A viewer
 * reads the setting as text; a team on a plan without it says which plans have it. a11y.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { totpCode } from '../../src/lib/totp.ts'
import { checkA11y, checkLayouts, startWebApp, type Owner, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 11, 7, 12, 0, 0)

let app: WebApp
beforeAll(async () => {
  app = await startWebApp({ now: NOW, plan: 'business' })
})
afterAll(() => app.close())

const services = () => app.server.ctx.app.services
const memberRow = (page: Page, email: string) => page.getByRole('table', { name: /Members of/ }).getByRole('row').filter({ hasText: email })

/** `member` joins the owner's team with `role` (the invitation's link, accepted by the service). */
async function join(member: Owner, role: 'editor' | 'viewer'): Promise<void> {
  const { teams } = services()
  const { link } = await teams.invite(app.owner.user, { email: member.email, role })
  await teams.accept(member.user, link!.split('/').at(-1)!)
}

async function enrol(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Set up two-factor' }).click()
  await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor()
  const secret = (await page.locator('code.secret').textContent())!.replace(/\s/g, '')
  await page.getByLabel('Code', { exact: true }).fill(await totpCode(secret, app.server.ctx.clock.now()))
  await page.getByRole('button', { name: 'Turn two-factor on' }).click()
  await page.getByRole('heading', { name: 'Two-factor sign-in is on' }).waitFor()
}

test('the owner requires two-factor; a member without it is sent to enrol, enrols, then reaches the screens', async () => {
  const teamName = app.owner.user.teamName
  const member = await app.createOwner('free')
  const viewer = await app.createOwner('free')
  await join(member, 'editor')
  await join(viewer, 'viewer')
  const page = app.page

  // Without two-factor of their own, the owner's save is refused with the fix; nothing changes.
  await page.goto(`${app.base}/user/team`)
  expect(await memberRow(page, member.email).getByRole('cell', { name: 'Off', exact: true }).isVisible()).toBe(true)
  expect(await page.getByText('To require it, first turn on two-factor sign-in for your own account.').isVisible()).toBe(true)
  const box = page.getByRole('checkbox', { name: 'Require two-factor sign-in for every member' })
  expect(await box.isChecked()).toBe(false)
  await box.check()
  await page.getByRole('button', { name: 'Save security settings' }).click()
  await page.getByRole('alert').filter({ hasText: 'turn on two-factor sign-in for your own account first' }).waitFor()
  expect((await services().teams.current(app.owner.user)).requireTwoFactor).toBe(false)

  // With two-factor on, the owner turns it on.
  await page.goto(`${app.base}/user/two-factor`)
  await enrol(page)
  await page.goto(`${app.base}/user/team`)
  expect(await memberRow(page, app.owner.email).getByRole('cell', { name: 'On', exact: true }).isVisible()).toBe(true)
  await box.check()
  await page.getByRole('button', { name: 'Save security settings' }).click()
  await page.waitForURL(`${app.base}/user/team`)
  await page.getByRole('status').filter({ hasText: `${teamName} requires two-factor sign-in of every member now.` }).waitFor()
  expect(await box.isChecked()).toBe(true)
  expect(await page.getByText('2 members have two-factor off').isVisible()).toBe(true)
  await checkA11y(page)
  await checkLayouts(page, app.shots, 'team-two-factor-owner', ['Security', 'Require two-factor sign-in for every member', 'Two-factor'])

  // The member acts in the team: every screen sends them to enrol, saying why.
  const { context, page: tab } = await app.loginAs(member)
  await tab.goto(`${app.base}/user/teams`)
  await tab.getByRole('button', { name: new RegExp(`^Act in .*${teamName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).click()
  await tab.waitForURL(`${app.base}/user/two-factor`)
  const why = `${teamName} requires two-factor sign-in: turn it on to go on`
  await tab.getByRole('alert').filter({ hasText: why }).waitFor()
  await checkA11y(tab)
  for (const path of ['/user', '/user/team', '/user/pages', '/user/api-keys']) {
    const answer = await fetch(`${app.base}${path}`, { headers: { cookie: await app.cookieOf(context) }, redirect: 'manual' })
    expect({ path, status: answer.status, location: answer.headers.get('location') }).toEqual({ path, status: 303, location: '/user/two-factor' })
  }
  // Their account and the teams screen still open.
  await tab.goto(`${app.base}/user/account`)
  expect(new URL(tab.url()).pathname).toBe('/user/account')
  await tab.goto(`${app.base}/user/teams`)
  expect(new URL(tab.url()).pathname).toBe('/user/teams')

  // Enrolled, the member reaches the team's screens, and the owner sees them On.
  await tab.goto(`${app.base}/user/two-factor`)
  await enrol(tab)
  // The enrolment is the member's own, not that of the user whose id is the acting team's.
  expect(await services().twoFactor.isEnabled(member.user.userId)).toBe(true)
  await tab.goto(`${app.base}/user/team`)
  expect(new URL(tab.url()).pathname).toBe('/user/team')
  expect(await tab.getByText('Every member must have two-factor sign-in on to act in this team').isVisible()).toBe(true)
  // An editor reads the setting; no form.
  expect(await tab.getByRole('checkbox', { name: 'Require two-factor sign-in for every member' }).count()).toBe(0)
  await tab.goto(`${app.base}/user`)
  expect(new URL(tab.url()).pathname).toBe('/user')
  await page.goto(`${app.base}/user/team`)
  expect(await memberRow(page, member.email).getByRole('cell', { name: 'On', exact: true }).isVisible()).toBe(true)
  expect(await memberRow(page, viewer.email).getByRole('cell', { name: 'Off', exact: true }).isVisible()).toBe(true)
  await context.close()
})

test('a member without two-factor switches to their personal team and works there', async () => {
  const member = await app.createOwner('free')
  await join(member, 'viewer')
  const { context, page } = await app.loginAs(member)
  await page.goto(`${app.base}/user/teams`)
  await page.getByRole('button', { name: new RegExp(`^Act in .*${app.owner.user.teamName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).click()
  await page.waitForURL(`${app.base}/user/two-factor`)
  await page.goto(`${app.base}/user/teams`)
  await page.getByRole('button', { name: new RegExp(`^Act in .*${member.user.teamName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).click()
  await page.waitForURL(`${app.base}/user`)
  await page.goto(`${app.base}/user/team`)
  expect(new URL(page.url()).pathname).toBe('/user/team')
  // Free has no such setting: the card says which plans have it, and offers no form.
  expect(await page.getByText('Requiring two-factor of members comes with the Business, OSS Hero or Enterprise plans; this team is on Free.').isVisible()).toBe(true)
  expect(await page.getByRole('checkbox', { name: 'Require two-factor sign-in for every member' }).count()).toBe(0)
  await context.close()
})
