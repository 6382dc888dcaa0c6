/**
 * Page transfers over the real app, real SQLite and a real SMTP server: start (password, ownership,
 * no address oracle), the offer mail and its link, accept (one transaction, race, plan slots),
 * decline, cancel, expiry, and the caches following the new owner at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type ReceivedMail, type SmtpHarness } from '../../helpers/smtp.ts'
import type { Plan } from '../../../src/modules/plans/matrix.ts'

const PASSWORD = 'correct horse battery'
const DAY = 86_400_000

let smtp: SmtpHarness
let ctx: TestContext
let pageCounter = 0

beforeAll(async () => {
  smtp = await startSmtp()
  ctx = await createTestContext({ env: { ...smtp.env }, now: Date.UTC(2026, 10, 23, 12) })
})
afterAll(async () => {
  await ctx.close()
  await smtp.close()
})

type Owner = Awaited<ReturnType<TestContext['createOwner']>>

const api = (path: string, key: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
const start = (owner: Owner, pageId: number, email: string, password = PASSWORD) =>
  api(`/status-pages/${pageId}/transfer`, owner.key, { method: 'POST', json: { email, password } })
const accept = (token: string, as: Owner) => api(`/transfers/${token}/accept`, as.key, { method: 'POST' })

async function pageOf(owner: Owner, extra: Record<string, unknown> = {}) {
  const n = ++pageCounter
  return ctx.createPage(owner.key, { slug: `moving-${n}`, name: `Moving page ${n}`, ...extra })
}

async function addPushMonitors(owner: Owner, pageId: number, count: number, interval = 300) {
  for (let i = 0; i < count; i++) {
    const response = await api('/monitors', owner.key, { method: 'POST', json: { name: `job ${i}`, type: 'push', interval_seconds: interval, status_page_id: pageId } })
    expect(response.status).toBe(201)
  }
}

/** Delivers the outbox, then waits for the mail to `to` whose subject holds `subject`. */
async function mailTo(to: string, subject: string): Promise<ReceivedMail> {
  await ctx.app.services.outboxWorker.drain()
  return smtp.waitFor((mail) => mail.to === to && mail.subject.includes(subject))
}

/** The accept link of the offer mail for `pageName`, and its token. */
async function offerLink(to: string, pageName: string): Promise<{ link: string; token: string }> {
  const mail = await mailTo(to, `"${pageName}"`)
  const link = /https?:\/\/\S+\/user\/transfers\/([A-Za-z0-9_-]+)/.exec(mail.text)
  expect(link).not.toBeNull()
  return { link: link![0], token: link![1]! }
}

const owners = async (from: Plan = 'enterprise', to: Plan = 'enterprise') => ({ alice: await ctx.createOwner(from), bob: await ctx.createOwner(to) })

describe('start', () => {
  test('wrong password → 400 and nothing pending; non-owner → 404; bad or own address → 400', async () => {
    const { alice, bob } = await owners()
    const page = await pageOf(alice)
    const wrong = await start(alice, page.id, bob.user.email, 'not my password')
    expect(wrong.status).toBe(400)
    expect(await json(wrong)).toEqual({ error: 'password is wrong' })
    expect(await json(await api(`/status-pages/${page.id}/transfer`, alice.key))).toEqual({ data: null })

    expect((await start(bob, page.id, bob.user.email)).status).toBe(404)
    expect((await api(`/status-pages/${page.id}/transfer`, bob.key)).status).toBe(404)
    expect((await start(alice, page.id, 'not an address')).status).toBe(400)
    expect((await api(`/status-pages/${page.id}/transfer`, alice.key, { method: 'POST', json: { email: bob.user.email } })).status).toBe(400)
    const own = await start(alice, page.id, alice.user.email.toUpperCase())
    expect(own.status).toBe(400)
    expect((await json(own)).error).toStartWith('email ')
    expect(await json(await api(`/status-pages/${page.id}/transfer`, alice.key))).toEqual({ data: null })
  })

  test('an address without an account gets the same answer and notice, and no mail', async () => {
    const { alice, bob } = await owners()
    const known = await pageOf(alice)
    const unknown = await pageOf(alice)
    const toKnown = await start(alice, known.id, bob.user.email)
    const toUnknown = await start(alice, unknown.id, 'nobody-here@example.com')
    expect([toKnown.status, toUnknown.status]).toEqual([201, 201])
    const shape = (body: any) => Object.keys(body.data).sort()
    expect(shape(await json(toUnknown))).toEqual(shape(await json(toKnown)))
    const pending = await json(await api(`/status-pages/${unknown.id}/transfer`, alice.key))
    expect(pending.data).toMatchObject({ status: 'pending', to_email: 'nobody-here@example.com', status_page_id: unknown.id })
    // Both owners' notices arrive; the known recipient gets the offer, the unknown address nothing.
    await mailTo(alice.user.email, `Transfer of "${unknown.name}" started`)
    await offerLink(bob.user.email, known.name)
    expect(smtp.mails.some((mail) => mail.to === 'nobody-here@example.com')).toBe(false)
    // One pending transfer per page.
    expect((await start(alice, known.id, bob.user.email)).status).toBe(409)
  })
})

describe('accept', () => {
  test('the mail link shows the offer; accepting moves page and monitors, old owner 404 at once, caches follow, both mailed', async () => {
    const { alice, bob } = await owners('enterprise', 'free')
    const page = await pageOf(alice)
    await addPushMonitors(alice, page.id, 2)
    const component = await api(`/status-pages/${page.id}/components`, alice.key, { method: 'POST', json: { name: 'API' } })
    expect(component.status).toBe(201)
    // Cached answers that depend on the owner's plan (enterprise: allowed).
    const badgeText = async () => (await ctx.request(`/badge/${page.slug}.svg`)).text()
    expect(await badgeText()).toContain(page.name)
    expect((await ctx.request(`/api/embed/status?slug=${page.slug}`)).status).toBe(200)
    expect(await badgeText()).toContain(page.name)

    expect((await start(alice, page.id, bob.user.email)).status).toBe(201)
    const { link, token } = await offerLink(bob.user.email, page.name)
    expect(link).toBe(`${ctx.config.baseUrl}/user/transfers/${token}`)

    // Only the recipient can read the offer.
    expect((await api(`/transfers/${token}`, alice.key)).status).toBe(404)
    const offer = await json(await api(`/transfers/${token}`, bob.key))
    expect(offer.data).toMatchObject({ status: 'pending', page_name: page.name, monitor_count: 2, component_count: 1, custom_domain: null, from_email: alice.user.email })
    expect(offer.data.moves.length).toBeGreaterThan(0)
    expect(offer.data.stays.join(' ')).toContain('notification channels')

    const accepted = await accept(token, bob)
    expect(accepted.status).toBe(200)
    expect((await json(accepted)).data).toMatchObject({ status: 'accepted', status_page_id: page.id })

    expect((await api(`/status-pages/${page.id}`, alice.key)).status).toBe(404)
    expect((await api(`/status-pages/${page.id}`, bob.key)).status).toBe(200)
    const bobMonitors = await json(await api('/monitors', bob.key))
    expect(bobMonitors.data.filter((m: any) => m.status_page_id === page.id)).toHaveLength(2)
    expect((await json(await api('/monitors', alice.key))).data.filter((m: any) => m.status_page_id === page.id)).toHaveLength(0)
    expect((await api(`/status-pages/${page.id}/components`, bob.key)).status).toBe(200)
    // The free plan has no badge and no status JSON: the cached answers are gone at once.
    const badge = await badgeText()
    expect(badge).not.toContain(page.name)
    expect(badge).toContain('Unknown')
    expect((await ctx.request(`/api/embed/status?slug=${page.slug}`)).status).toBe(403)

    await mailTo(alice.user.email, `now belongs to ${bob.user.email}`)
    await mailTo(bob.user.email, `"${page.name}" is now yours`)
    // The link is spent.
    expect((await accept(token, bob)).status).toBe(409)
  })

  test('two accepts race: exactly one wins; the old owner\'s analytics share links are revoked', async () => {
    const { alice, bob } = await owners()
    const page = await pageOf(alice)
    await addPushMonitors(alice, page.id, 3)
    const shares = ctx.app.services.shareTokens
    await shares.create(alice.user, page.id, { label: 'for the board' })
    await start(alice, page.id, bob.user.email)
    const { token } = await offerLink(bob.user.email, page.name)
    // Three clicks at once over HTTP (the interleaved case at the decision itself is the next test).
    const answers = await Promise.all([accept(token, bob), accept(token, bob), accept(token, bob)])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409])
    expect((await json(await api('/monitors', bob.key))).data.filter((m: any) => m.status_page_id === page.id)).toHaveLength(3)
    expect((await shares.list(bob.user, page.id)).map((token) => token.state)).toEqual(['revoked'])
    // One winner, one pair of mails.
    await mailTo(alice.user.email, `"${page.name}" now belongs to`)
    expect(smtp.mails.filter((mail) => mail.subject.startsWith(`"${page.name}" now belongs to`))).toHaveLength(1)
  })

  test('two accepts that both saw the offer pending (service level, interleaved): exactly one moves the page', async () => {
    // Over HTTP each request runs to its end before the next one reads (the store answers at once), so
    // here the two accepts are interleaved on purpose: both read "pending" before either decides.
    const { alice, bob } = await owners()
    const page = await pageOf(alice)
    const { transfers } = ctx.app.services
    await transfers.startAsAdministrator(alice.user, page.id, bob.user.email)
    const outcomes = await Promise.allSettled([transfers.acceptForPage(bob.user, page.id), transfers.acceptForPage(bob.user, page.id)])
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? 'won' : (o.reason as { status: number }).status)).sort()).toEqual([409, 'won'])
  })

  test('no free slot on the recipient plan → 409 naming the limit, nothing moved, still pending', async () => {
    const { alice, bob } = await owners('enterprise', 'free')
    await addPushMonitors(bob, (await pageOf(bob)).id, 3)
    const page = await pageOf(alice)
    await addPushMonitors(alice, page.id, 3)
    await start(alice, page.id, bob.user.email)
    const { token } = await offerLink(bob.user.email, page.name)
    const refused = await accept(token, bob)
    expect(refused.status).toBe(409)
    expect((await json(refused)).error).toBe('monitor limit: the Free plan allows 5 monitors; you have 3 and this page brings 3')
    expect((await api(`/status-pages/${page.id}`, alice.key)).status).toBe(200)
    expect((await api(`/status-pages/${page.id}`, bob.key)).status).toBe(404)
    expect((await json(await api('/monitors', alice.key))).data.filter((m: any) => m.status_page_id === page.id)).toHaveLength(3)
    expect((await json(await api(`/status-pages/${page.id}/transfer`, alice.key))).data.status).toBe('pending')
  })

  test('components with automatic incidents count against the recipient plan: over it → 409 naming the limit, nothing moved', async () => {
    const { alice, bob } = await owners('enterprise', 'pro')
    const optIn = async (owner: Owner, pageId: number, count: number) => {
      const ids: number[] = []
      for (let i = 0; i < count; i++) {
        const created = await api(`/status-pages/${pageId}/components`, owner.key, { method: 'POST', json: { name: `Part ${i + 1}` } })
        ids.push((await json(created)).data.id)
      }
      expect((await api(`/status-pages/${pageId}/auto-incidents`, owner.key, { method: 'PATCH', json: { auto_incidents: true, component_ids: ids } })).status).toBe(200)
    }
    await optIn(bob, (await pageOf(bob)).id, 4)
    const page = await pageOf(alice)
    await optIn(alice, page.id, 2)
    await start(alice, page.id, bob.user.email)
    const { token } = await offerLink(bob.user.email, page.name)
    const refused = await accept(token, bob)
    expect(refused.status).toBe(409)
    expect((await json(refused)).error).toBe(
      'automatic incidents limit: the Pro plan allows automatic incidents on 5 components; you have 4 and this page brings 2',
    )
    expect((await api(`/status-pages/${page.id}`, alice.key)).status).toBe(200)
    expect((await api(`/status-pages/${page.id}`, bob.key)).status).toBe(404)
    expect((await json(await api(`/status-pages/${page.id}/auto-incidents`, alice.key))).data.plan.used).toBe(2)
    expect((await json(await api(`/status-pages/${page.id}/transfer`, alice.key))).data.status).toBe('pending')

    // One opted-in component fewer fits exactly (4 + 1 = 5): the same offer is accepted.
    const kept = (await json(await api(`/status-pages/${page.id}/auto-incidents`, alice.key))).data.components[0].id
    expect((await api(`/status-pages/${page.id}/auto-incidents`, alice.key, { method: 'PATCH', json: { component_ids: [kept] } })).status).toBe(200)
    expect((await accept(token, bob)).status).toBe(200)
    expect((await json(await api(`/status-pages/${page.id}/auto-incidents`, bob.key))).data.plan.used).toBe(5)
  })

  test("the page's subscribers count against the recipient plan's per-page limit: over it → 409 naming it, nothing moved", async () => {
    const { alice, bob } = await owners('enterprise', 'free')
    const page = await pageOf(alice)
    const csv = ['email', ...Array.from({ length: 101 }, (_, i) => `reader${i}@example.com`)].join('\n')
    const imported = await api(`/status-pages/${page.id}/subscribers/import`, alice.key, { method: 'POST', json: { csv, consent: true } })
    expect(imported.status).toBe(200)
    await start(alice, page.id, bob.user.email)
    const { token } = await offerLink(bob.user.email, page.name)
    const refused = await accept(token, bob)
    expect(refused.status).toBe(409)
    expect((await json(refused)).error).toBe('subscriber limit: the Free plan allows 100 subscribers per page; this page has 101')
    expect((await api(`/status-pages/${page.id}`, bob.key)).status).toBe(404)
    expect((await json(await api(`/status-pages/${page.id}/transfer`, alice.key))).data.status).toBe('pending')
    // One fewer fits exactly.
    const list = (await json(await api(`/status-pages/${page.id}/subscribers`, alice.key))).data
    const first = (list.subscribers ?? list)[0].id
    expect((await api(`/status-pages/${page.id}/subscribers/${first}`, alice.key, { method: 'DELETE' })).status).toBeLessThan(300)
    expect((await accept(token, bob)).status).toBe(200)
  })

  test('a custom domain needs the plan that has custom domains', async () => {
    const { alice, bob } = await owners('enterprise', 'free')
    const page = await pageOf(alice, { custom_domain: `status-${pageCounter + 1}.acme.example` })
    await start(alice, page.id, bob.user.email)
    const { token } = await offerLink(bob.user.email, page.name)
    const refused = await accept(token, bob)
    expect(refused.status).toBe(409)
    expect((await json(refused)).error).toStartWith('custom domain and private pages: ')
    expect((await api(`/status-pages/${page.id}`, alice.key)).status).toBe(200)
  })

  test('someone else holding the link gets 404 and changes nothing', async () => {
    const { alice, bob } = await owners()
    const mallory = await ctx.createOwner('enterprise')
    const page = await pageOf(alice)
    await start(alice, page.id, bob.user.email)
    const { token } = await offerLink(bob.user.email, page.name)
    expect((await accept(token, mallory)).status).toBe(404)
    expect((await api(`/transfers/${token}/decline`, mallory.key, { method: 'POST' })).status).toBe(404)
    expect((await api(`/transfers/${'x'.repeat(43)}/accept`, bob.key, { method: 'POST' })).status).toBe(404)
    expect((await json(await api(`/status-pages/${page.id}/transfer`, alice.key))).data.status).toBe('pending')
  })
})

describe('decline, cancel, expiry', () => {
  test('decline: both parties told, the page stays', async () => {
    const { alice, bob } = await owners()
    const page = await pageOf(alice)
    await start(alice, page.id, bob.user.email)
    const { token } = await offerLink(bob.user.email, page.name)
    const declined = await api(`/transfers/${token}/decline`, bob.key, { method: 'POST' })
    expect(declined.status).toBe(200)
    expect((await json(declined)).data.status).toBe('declined')
    expect((await api(`/status-pages/${page.id}`, alice.key)).status).toBe(200)
    expect((await accept(token, bob)).status).toBe(410)
    await mailTo(alice.user.email, `Transfer of "${page.name}" declined`)
    await mailTo(bob.user.email, `You declined "${page.name}"`)
  })

  test('cancel: the recipient is told, the link answers 410, a new transfer may start', async () => {
    const { alice, bob } = await owners()
    const page = await pageOf(alice)
    await start(alice, page.id, bob.user.email)
    const { token } = await offerLink(bob.user.email, page.name)
    expect((await api(`/status-pages/${page.id}/transfer`, bob.key, { method: 'DELETE' })).status).toBe(404)
    const cancelled = await api(`/status-pages/${page.id}/transfer`, alice.key, { method: 'DELETE' })
    expect(cancelled.status).toBe(200)
    expect((await json(cancelled)).data.status).toBe('cancelled')
    expect((await api(`/status-pages/${page.id}/transfer`, alice.key, { method: 'DELETE' })).status).toBe(404)
    const gone = await accept(token, bob)
    expect(gone.status).toBe(410)
    expect(await json(gone)).toEqual({ error: 'this transfer was cancelled' })
    await mailTo(bob.user.email, `The offer of "${page.name}" was withdrawn`)
    expect((await start(alice, page.id, bob.user.email)).status).toBe(201)
  })

  test('after 7 days: accept → 410, both parties told once; the sweeper expires offers nobody opens', async () => {
    const { alice, bob } = await owners()
    const page = await pageOf(alice)
    const quiet = await pageOf(alice)
    await start(alice, page.id, bob.user.email)
    await start(alice, quiet.id, bob.user.email)
    const { token } = await offerLink(bob.user.email, page.name)
    ctx.clock.advance(7 * DAY)
    try {
      const expired = await accept(token, bob)
      expect(expired.status).toBe(410)
      expect(await json(expired)).toEqual({ error: 'this transfer has expired' })
      expect((await accept(token, bob)).status).toBe(410)
      expect((await api(`/status-pages/${page.id}`, alice.key)).status).toBe(200)
      expect((await json(await api(`/transfers/${token}`, bob.key))).data.status).toBe('expired')
      expect(await ctx.app.services.transfers.expireDue()).toBeGreaterThanOrEqual(1)
      expect((await json(await api(`/status-pages/${quiet.id}/transfer`, alice.key))).data).toBeNull()
      await mailTo(alice.user.email, `Transfer of "${page.name}" expired`)
      await mailTo(bob.user.email, `The offer of "${quiet.name}" expired`)
      expect(smtp.mails.filter((mail) => mail.subject === `Transfer of "${page.name}" expired`)).toHaveLength(1)
    } finally {
      ctx.clock.advance(-7 * DAY)
    }
  })
})
