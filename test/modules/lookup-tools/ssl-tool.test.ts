/**
 * The SSL lookup tool runs the SSL monitor's check through the address guard against a local TLS
 * server (a throwaway PKI): the report comes back, with the chain and OCSP details only on paid plans.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { DAY_MS } from '../../../src/lib/time.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { testDeps } from '../monitors/fixtures.ts'
import { makeChainPki, startTlsServer, type Listening } from '../monitors/tool-fixtures.ts'

const HOST = 'ssl.test'
let ctx: TestContext
let server: Listening

beforeAll(async () => {
  const pki = makeChainPki(HOST)
  server = await startTlsServer(pki.valid.cert + pki.intermediate, pki.valid.key)
  const now = pki.valid.notAfter - 20 * DAY_MS
  // Loopback allowed for this one network only, as an instance with MONITOR_PRIVATE_TARGETS=127.0.0.1/32 would.
  const checkDeps = testDeps({ allowPrivate: ['127.0.0.1/32'], names: { [HOST]: ['127.0.0.1'] }, clock: new ManualClock(now), trustedCa: pki.root })
  ctx = await createTestContext({ now, checkDeps })
})
afterAll(async () => {
  await ctx.close()
  await server.close()
})

test('an SSL lookup answers the certificate report; chain and OCSP details on paid plans only', async () => {
  const free = await ctx.createOwner('free')
  const paid = await ctx.createOwner('pro')
  const run = async (key: string) => {
    const response = await ctx.request('/user/api/v1/tools/lookups', { method: 'POST', key, json: { tool: 'ssl', target: `${HOST}:${server.port}` } })
    expect(response.status).toBe(201)
    return (await json(response)).data
  }
  const forFree = await run(free.key)
  expect(forFree).toMatchObject({ tool: 'ssl', target: `${HOST}:${server.port}`, status: 'pass', result: { kind: 'ssl', host: HOST, hostCovered: true, trusted: true, daysLeft: 20, chain: null, ocsp: null } })
  const forPaid = await run(paid.key)
  expect(forPaid.result.chain).toMatchObject({ complete: true })
})
