/**
 * The server kinds in real Chromium: a WebSocket monitor made through the type chooser and form,
 * run by the real scheduler and engine against a Bun.serve websocket, its result read on its
 * screen; a Redis monitor's password never shown in the list or on its screen; axe on the forms.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { runMonitor } from '../../src/modules/monitors/run/index.ts'
import { checkA11y, type WebApp, startWebApp } from '../helpers/webapp.ts'
import { testDeps } from '../modules/monitors/fixtures.ts'
import { schedulerFor } from '../modules/monitors/scheduling.ts'

const HOST = 'live.screen.test'
let app: WebApp
let socketServer: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  socketServer = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request, srv) => (srv.upgrade(request, { data: undefined }) ? undefined : new Response('no', { status: 400 })),
    websocket: {
      message(ws, message) {
        ws.send(message === 'status?' ? '{"status":"green"}' : 'unknown')
      },
    },
  })
  app = await startWebApp({ now: Date.UTC(2026, 10, 28, 9, 0, 0) })
  app.page.setDefaultTimeout(15_000)
})
afterAll(async () => {
  await app.close()
  await socketServer.stop(true)
})

async function runDue(minutes: number) {
  const ctx = app.server.ctx
  const deps = testDeps({ allowPrivate: ['127.0.0.1/32'], names: { [HOST]: ['127.0.0.1'] }, clock: ctx.clock })
  const s = schedulerFor(ctx, { run: (spec, policy, sleep) => runMonitor(spec, deps, policy, sleep) })
  ctx.clock.advance(minutes * 60_000)
  await s.tick()
  await s.settle()
}

async function create(page: Page, typeLabel: string, fill: (page: Page) => Promise<void>): Promise<number> {
  await page.goto(`${app.base}/user/monitors/new`)
  await page.getByRole('link', { name: typeLabel, exact: true }).click()
  await page.waitForURL(/\/user\/monitors\/new\?type=/)
  await checkA11y(page)
  await fill(page)
  await page.getByRole('button', { name: 'Create monitor' }).click()
  await page.waitForURL(/\/user\/monitors\/\d+$/, { timeout: 10_000 }).catch(async (error) => {
    throw new Error(`not created: ${(await page.locator('main').innerText()).slice(0, 600)}`, { cause: error })
  })
  return Number(/\/user\/monitors\/(\d+)/.exec(page.url())![1])
}

describe('server monitors in the browser', () => {
  test('a WebSocket monitor sends its message and passes on the expected reply', async () => {
    const page = app.page
    const id = await create(page, 'WebSocket', async (p) => {
      await p.getByLabel('Name', { exact: true }).fill('Live feed')
      await p.getByLabel('Target', { exact: true }).fill(`ws://${HOST}:${socketServer.port}/feed`)
      await p.getByLabel('Message to send').fill('status?')
      await p.getByLabel('Expected value').fill('"green"')
    })
    const monitor = await app.server.ctx.app.services.monitors.get(app.owner.user, id)
    expect(monitor.definition).toMatchObject({ type: 'websocket', options: { ws_message: 'status?', expected_value: '"green"' } })
    await runDue(2)
    await page.goto(`${app.base}/user/monitors/${id}`)
    expect(await page.locator('main').innerText()).toContain('the WebSocket upgrade succeeded; the reply contains the expected text')
  })

  test('a wrong expected reply is a failed run, with the reply in the message', async () => {
    const page = app.page
    const id = await create(page, 'WebSocket', async (p) => {
      await p.getByLabel('Name', { exact: true }).fill('Live feed, wrong')
      await p.getByLabel('Target', { exact: true }).fill(`ws://${HOST}:${socketServer.port}/feed`)
      await p.getByLabel('Message to send').fill('hello')
      await p.getByLabel('Expected value').fill('green')
      // No retries inside the run: a failed attempt is the run's result at once.
      await p.getByText('Timing and confirmation').click()
      await p.getByLabel('Retries inside a run').fill('0')
    })
    await runDue(2)
    await page.goto(`${app.base}/user/monitors/${id}`)
    expect(await page.locator('main').innerText()).toContain('the reply "unknown" does not contain "green"')
  })

  test('a Redis monitor keeps its password out of the list and its screen; a bad target is an error next to the field', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/monitors/new?type=redis`)
    await page.getByLabel('Name', { exact: true }).fill('Cache')
    await page.getByLabel('Target', { exact: true }).fill('redis://cache.screen.test:6379/x')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    expect(await page.locator('main').innerText()).toContain('The database after the slash must be a number')
    const id = await create(page, 'Redis', async (p) => {
      await p.getByLabel('Name', { exact: true }).fill('Cache')
      await p.getByLabel('Target', { exact: true }).fill('redis://:hunter2-secret@cache.screen.test:6379/0')
      await p.getByLabel('Key').fill('release')
    })
    expect(await page.locator('main').innerText()).toContain('redis://:***@cache.screen.test:6379/0')
    expect(await page.content()).not.toContain('hunter2-secret')
    await page.goto(`${app.base}/user/monitors`)
    expect(await page.locator('main').innerText()).toContain('redis://:***@cache.screen.test')
    expect(await page.content()).not.toContain('hunter2-secret')
    await page.goto(`${app.base}/user/monitors/${id}/edit`)
    expect(await page.getByLabel('Key').inputValue()).toBe('release')
  })
})

describe('10 s intervals in the form', () => {
  test('Enterprise may run a monitor every 10 s; Pro is told its shortest next to the field, and nothing is stored', async () => {
    const page = app.page
    const id = await create(page, 'TCP port', async (p) => {
      expect(await p.locator('main').innerText()).toContain("your plan's shortest is 10 s")
      await p.getByLabel('Name', { exact: true }).fill('Fast port')
      await p.getByLabel('Target', { exact: true }).fill('fast.screen.test:22')
      await p.getByLabel('Interval (seconds)').fill('10')
    })
    expect((await app.server.ctx.app.services.monitors.get(app.owner.user, id)).definition).toMatchObject({ intervalSeconds: 10, timeoutMs: 8_000 })

    const pro = await app.createOwner('pro')
    const { context, page: proPage } = await app.loginAs(pro)
    try {
      await proPage.goto(`${app.base}/user/monitors/new?type=tcp`)
      expect(await proPage.locator('main').innerText()).toContain("your plan's shortest is 30 s")
      await proPage.getByLabel('Name', { exact: true }).fill('Fast port')
      await proPage.getByLabel('Target', { exact: true }).fill('fast.screen.test:22')
      await proPage.getByLabel('Interval (seconds)').fill('10')
      await proPage.getByRole('button', { name: 'Create monitor' }).click()
      expect(await proPage.locator('main').innerText()).toContain("Interval (seconds) 10 is below the Pro plan's minimum of 30 s")
      await checkA11y(proPage)
      expect(await app.server.ctx.app.services.monitors.list(pro.user)).toEqual([])
    } finally {
      await context.close()
    }
  })
})
