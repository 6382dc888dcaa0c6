/**
 * The forms of cron push monitors, ping and domain expiry in real Chromium: the next runs follow the
 * cron expression and zone as they are typed (and say why one would be refused); the push URL names
 * /start and /fail; a server that cannot send ICMP says so on the ping form; a domain expiry monitor
 * is made through the type chooser. axe on each form.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkA11y, type WebApp, startWebApp } from '../helpers/webapp.ts'

let app: WebApp
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-ping-web-'))
  const ping = join(dir, 'ping')
  // As iputils fails where neither an ICMP socket nor CAP_NET_RAW is allowed.
  writeFileSync(ping, "#!/bin/sh\necho 'ping: socket: Operation not permitted' >&2\nexit 2\n")
  chmodSync(ping, 0o755)
  app = await startWebApp({ now: Date.UTC(2026, 10, 28, 12), env: { PING_COMMAND: ping } })
  app.page.setDefaultTimeout(15_000)
})
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('monitor forms of cron pushes, ping and domain expiry', () => {
  test('a push monitor shows its next runs as the cron expression and zone are typed', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/monitors/new?type=push`)
    const next = page.locator('#cron-next')
    expect(await next.innerText()).toBe('No schedule: the interval is used.')
    await page.getByLabel('Name', { exact: true }).fill('Nightly backup')
    await page.getByLabel('Cron schedule', { exact: true }).fill('0 3 * * *')
    await page.getByLabel('Time zone of the schedule', { exact: true }).fill('Europe/Berlin')
    await expect_(() => next.innerText(), (text) => text.includes('Sun, 29 Nov 2026, 03:00 Europe/Berlin (02:00 UTC)'))
    expect(await next.locator('li').count()).toBe(5)
    await page.getByLabel('Cron schedule', { exact: true }).fill('61 3 * * *')
    await expect_(() => next.innerText(), (text) => text.startsWith('Not saved like this: the schedule is not a valid cron expression'))
    await page.getByLabel('Cron schedule', { exact: true }).fill('30 6 * * 1-5')
    await expect_(() => next.innerText(), (text) => text.includes('Mon, 30 Nov 2026, 06:30 Europe/Berlin (05:30 UTC)'))
    await checkA11y(page)
    // A push monitor's page comes back from the POST itself: its URL is shown only there.
    await page.getByRole('button', { name: 'Create monitor' }).click()
    await page.getByRole('region', { name: 'Your push URL' }).waitFor()
    const notice = await page.getByRole('region', { name: 'Your push URL' }).innerText()
    expect(notice).toContain('…/start')
    expect(notice).toContain('…/fail')
    // The edit form shows the saved schedule and its next runs without any typing.
    await page.getByRole('link', { name: /^Edit/ }).first().click()
    await page.waitForURL(/\/edit$/)
    expect(await page.getByLabel('Cron schedule', { exact: true }).inputValue()).toBe('30 6 * * 1-5')
    expect(await page.locator('#cron-next').innerText()).toContain('06:30 Europe/Berlin')
  })

  test('where the server cannot send ICMP, the ping form says why and suggests a TCP check', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/monitors/new?type=ping`)
    const note = await page.locator('#type-unavailable').innerText()
    expect(note).toContain('This server cannot run this check.')
    expect(note).toContain('socket: Operation not permitted')
    expect(note).toContain('use a TCP check')
    await checkA11y(page)
  })

  test('a domain expiry monitor is made through the type chooser', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/monitors/new`)
    await page.getByRole('link', { name: 'Domain expiry (RDAP)', exact: true }).click()
    await page.getByLabel('Name', { exact: true }).fill('Our domain')
    await page.getByLabel('Target', { exact: true }).fill('example.com')
    await checkA11y(page)
    await page.getByRole('button', { name: 'Create monitor' }).click()
    await page.waitForURL(/\/user\/monitors\/\d+$/)
    expect(await page.locator('main').innerText()).toContain('example.com')
  })
})

/** Polls until `ok` holds for what `read` answers (the preview is fetched after a short pause). */
async function expect_(read: () => Promise<string>, ok: (text: string) => boolean): Promise<void> {
  let last = ''
  for (let i = 0; i < 100; i++) {
    last = await read()
    if (ok(last)) return
    await Bun.sleep(50)
  }
  throw new Error(`not seen; last: ${last}`)
}
