/** Ping (ICMP) with the system's ping against loopback, through the guard; a server that cannot ping says why, in the check, the API and the form. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCheck, validateSpec, type PingSpec } from '../../../src/modules/monitors/kinds/index.ts'
import { parsePingOutput, pingSupport } from '../../../src/modules/monitors/kinds/ping.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { testDeps } from './fixtures.ts'

const names = { 'router.test': ['127.0.0.1'], 'v6.test': ['::1'] }
const spec = (host: string, more: Partial<PingSpec> = {}): PingSpec => ({ type: 'ping', host, timeoutMs: 3_000, ...more })
let dir: string
/** A ping that fails as iputils does where ICMP sockets are not allowed and it has no CAP_NET_RAW. */
let deniedPing: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-ping-'))
  deniedPing = join(dir, 'ping')
  writeFileSync(deniedPing, "#!/bin/sh\necho 'ping: socktype: SOCK_RAW' >&2\necho 'ping: socket: Operation not permitted' >&2\necho 'ping: => missing cap_net_raw+p capability or setuid?' >&2\nexit 2\n")
  chmodSync(deniedPing, 0o755)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('ping checks', () => {
  test('a host that answers: ok, with round trip and no loss; ping is given the checked address', async () => {
    const deps = testDeps({ allowPrivate: ['127.0.0.1/32'], names })
    const result = await runCheck(spec('router.test', { count: 2 }), deps)
    expect(result).toMatchObject({ outcome: 'ok', details: { address: '127.0.0.1', transmitted: 2, received: 2, lossPercent: 0 } })
    expect(result.message).toMatch(/^2 of 2 replies, average round trip [\d.]+ ms$/)
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(0)
    expect(deps.lookups).toEqual(['router.test'])
  })

  test('the guard decides first: loopback refused without the setting, and ping never runs', async () => {
    const result = await runCheck(spec('router.test'), { ...testDeps({ allowPrivate: false, names }), pingCommand: join(dir, 'never-run') })
    expect(result.outcome).toBe('misconfigured')
    expect(result.message).toContain('loopback')
  })

  test('no reply at all fails', async () => {
    // 10.255.255.1: a private address nothing here answers (no route, or silence until the deadline).
    const result = await runCheck(spec('10.255.255.1', { count: 1, timeoutMs: 1_500 }), testDeps({ allowPrivate: true }))
    expect(result.outcome).toBe('fail')
  })

  test('a server that cannot send ICMP: misconfigured, with the reason and a TCP check suggested', async () => {
    for (const command of [deniedPing, join(dir, 'no-such-ping')]) {
      const result = await runCheck(spec('127.0.0.1'), { ...testDeps({ allowPrivate: true }), pingCommand: command })
      expect(result.outcome).toBe('misconfigured')
      expect(result.message).toContain('this server cannot send ICMP echo requests')
      expect(result.message).toContain('use a TCP check')
    }
    expect(await pingSupport(deniedPing)).toEqual({ ok: false, reason: 'this server cannot send ICMP echo requests (socket: Operation not permitted)' })
    expect(await pingSupport()).toEqual({ ok: true })
  })

  test("iputils' summary: partial loss and its round trips are read", () => {
    const stdout = 'PING 192.0.2.1 (192.0.2.1) 56(84) bytes of data.\n\n--- 192.0.2.1 ping statistics ---\n3 packets transmitted, 2 received, 33.3333% packet loss, time 402ms\nrtt min/avg/max/mdev = 10.100/12.550/15.000/2.450 ms\n'
    expect(parsePingOutput(stdout, '')).toEqual({ ran: true, transmitted: 3, received: 2, minMs: 10.1, avgMs: 12.55, maxMs: 15 })
    expect(parsePingOutput('', 'ping: connect: Network is unreachable\n')).toEqual({ ran: false, unavailable: false, error: 'connect: Network is unreachable' })
  })

  test('validation: a host without a port, and a sane count', () => {
    const guard = testDeps({ allowPrivate: false }).guard
    expect(validateSpec(spec('router.example.com'), guard)).toEqual([])
    expect(validateSpec(spec('2606:4700:4700::1111'), guard)).toEqual([])
    expect(validateSpec(spec('router.example.com:22'), guard)[0]?.field).toBe('host')
    expect(validateSpec(spec('https://example.com/'), guard)[0]?.field).toBe('host')
    expect(validateSpec(spec('example.com', { count: 11 }), guard)).toEqual([{ field: 'count', message: 'must be from 1 to 10' }])
  })
})

describe('ping monitors over the API and in the form', () => {
  let ctx: TestContext
  let key: string
  let denied: TestContext
  let deniedKey: string
  beforeAll(async () => {
    ctx = await createTestContext()
    ;({ key } = await ctx.createOwner('pro'))
    denied = await createTestContext({ env: { PING_COMMAND: deniedPing } })
    ;({ key: deniedKey } = await denied.createOwner('pro'))
  })
  afterAll(async () => {
    await ctx.close()
    await denied.close()
  })

  test('where ping works a ping monitor is saved with its count; a port in the target is a 400', async () => {
    const created = await ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { name: 'Router', type: 'ping', target: '8.8.8.8', ping_count: 5 } })
    expect(created.status).toBe(201)
    expect((await json(created)).data).toMatchObject({ type: 'ping', target: '8.8.8.8', options: { ping_count: 5 } })
    const bad = await ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { name: 'Router', type: 'ping', target: 'example.com:22' } })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await json(bad))).toContain('target: must be a host name or an IP address (no port)')
  })

  test('where it cannot, the API refuses with the reason and suggests a TCP check, and the form says so', async () => {
    const refused = await denied.request('/user/api/v1/monitors', { method: 'POST', key: deniedKey, json: { name: 'Router', type: 'ping', target: '8.8.8.8' } })
    expect(refused.status).toBe(400)
    const text = JSON.stringify(await json(refused))
    expect(text).toContain('this server cannot send ICMP echo requests')
    expect(text).toContain('use a TCP check')
  })
})
