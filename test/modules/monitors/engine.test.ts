/** The engine's entry: validation for the API, runCheck's promise never to throw, a run with retries. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createAddressGuard } from '../../../src/lib/address-guard.ts'
import { createCheckDeps, defaultTimeoutMs, runCheck, validateSpec, type MonitorSpec } from '../../../src/modules/monitors/kinds/index.ts'
import { runMonitor } from '../../../src/modules/monitors/run/index.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { testDeps } from './fixtures.ts'

const strict = createAddressGuard({ resolve: async () => [], allowPrivate: false })

describe('validateSpec', () => {
  const TABLE: Array<[string, MonitorSpec, Array<[string, string | RegExp]>]> = [
    ['a good HTTP spec', { type: 'http', url: 'https://example.com/health', timeoutMs: 10_000, acceptedStatus: '200-299,301', conditions: ['[STATUS] == 200'] }, []],
    ['a loopback URL', { type: 'http', url: 'http://0x7f.1/', timeoutMs: 1_000 }, [['url', '127.0.0.1 is a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it)']]],
    ['a metadata URL', { type: 'http', url: 'http://169.254.169.254/latest', timeoutMs: 1_000 }, [['url', '169.254.169.254 is a cloud metadata address']]],
    ['credentials and another scheme', { type: 'http', url: 'ftp://a:b@example.com/', timeoutMs: 1_000 }, [['url', 'must use http or https']]],
    ['credentials', { type: 'http', url: 'https://a:b@example.com/', timeoutMs: 1_000 }, [['url', /credentials/]]],
    [
      'bad status codes, header, condition, timeout',
      { type: 'http', url: 'https://example.com/', timeoutMs: 50, acceptedStatus: '200-199', headers: { 'Bad Name': 'x', ok: 'a\r\nb' }, conditions: ['[STATUS] = 1'] },
      [
        ['timeoutMs', 'timeout must be from 100 to 60000 ms'],
        ['headers', '"Bad Name" is not a header name'],
        ['headers', 'ok must be one line of at most 4096 characters'],
        ['acceptedStatus', '"200-199" must be codes from 100 to 599, low to high'],
        ['conditions', 'condition 1: "=" is not an operator; use "==" at column 10'],
      ],
    ],
    ['HEAD with a keyword', { type: 'http', url: 'https://example.com/', method: 'HEAD', timeoutMs: 1_000, keyword: { text: 'ok' } }, [['method', /HEAD request has no body/]]],
    ['degraded threshold above the timeout', { type: 'tcp', host: 'db.example.com', port: 5432, timeoutMs: 1_000, degradedAfterMs: 1_000 }, [['degradedAfterMs', /below the timeout/]]],
    ['a TCP port out of range', { type: 'tcp', host: 'db.example.com', port: 70_000, timeoutMs: 1_000 }, [['port', 'port must be from 1 to 65535']]],
    ['TLS thresholds upside down', { type: 'tls', host: 'example.com', timeoutMs: 1_000, degradedBelowDays: 5, failBelowDays: 10 }, [['failBelowDays', 'must not be above degradedBelowDays']]],
    ['a DNS spec with a loopback resolver', { type: 'dns', name: 'example.com', recordType: 'TXT', timeoutMs: 1_000, resolver: '127.0.0.1:53' }, [['resolver', /loopback/]]],
    ['a DNS spec with a bad name and type', { type: 'dns', name: 'bad name', recordType: 'SRV' as never, timeoutMs: 1_000 }, [['name', 'must be a DNS name'], ['recordType', 'must be one of A, AAAA, CNAME, MX, TXT']]],
  ]
  for (const [name, spec, expected] of TABLE) {
    test(name, () => {
      const problems = validateSpec(spec, strict)
      expect(problems.map((p) => p.field)).toEqual(expected.map(([field]) => field))
      problems.forEach((problem, i) => expect(problem.message).toMatch(expected[i]![1]))
    })
  }

  test('condition problems carry index and position for the API', () => {
    const problems = validateSpec({ type: 'http', url: 'https://example.com/', timeoutMs: 1_000, conditions: ['[STATUS] == 200', '[BODY].x == UP'] }, strict)
    expect(problems).toEqual([{ field: 'conditions', message: expect.stringContaining('condition 2:'), index: 1, position: 12 }])
  })
})

describe('runCheck and runMonitor', () => {
  let target: ReturnType<typeof Bun.serve>
  let calls = 0
  beforeAll(() => {
    target = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('hi', { status: ++calls < 3 ? 503 : 200 }) })
  })
  afterAll(() => target.stop(true))

  test('an unknown type or a broken spec is a misconfigured result (the settings, not the target), not a throw', async () => {
    const deps = testDeps({ allowPrivate: false })
    expect(await runCheck({ type: 'gopher' } as never, deps)).toEqual({ outcome: 'misconfigured', responseTimeMs: null, message: `unknown monitor type "gopher". Fix: edit the monitor's settings.` })
    expect(await runCheck({ type: 'http', url: 'not a url', timeoutMs: 100 }, deps)).toMatchObject({ outcome: 'misconfigured', message: "the URL is not valid. Fix: edit the monitor's target." })
    expect(await runCheck({ type: 'http', url: 'ftp://example.com/', timeoutMs: 100 }, deps)).toMatchObject({ outcome: 'misconfigured', message: "cannot fetch a ftp: URL. Fix: edit the monitor's target." })
    expect(await runCheck({ type: 'http', url: 'https://example.com/', acceptedStatus: '999-1', timeoutMs: 100 }, deps)).toMatchObject({ outcome: 'misconfigured' })
  })

  test('a run retries a failing target with the injected sleep and reports the attempts', async () => {
    const sleeps: number[] = []
    const result = await runMonitor({ type: 'http', url: `http://127.0.0.1:${target.port}/`, timeoutMs: 1_000 }, testDeps({ allowPrivate: true }), { retries: 2, retryDelayMs: 2_000 }, async (ms) => {
      sleeps.push(ms)
    })
    expect(result).toMatchObject({ outcome: 'ok', statusCode: 200, attempts: 3 })
    expect(sleeps).toEqual([2_000, 2_000])
  })

  test('createCheckDeps reads MONITOR_PRIVATE_TARGETS and finds the system resolvers', () => {
    const deps = createCheckDeps({ env: { MONITOR_PRIVATE_TARGETS: '192.168.0.0/16' }, clock: new ManualClock() })
    expect(deps.guard.allowPrivate).toEqual(['192.168.0.0/16'])
    expect(Array.isArray(deps.dnsServers)).toBe(true)
    expect(createCheckDeps({ env: {}, clock: new ManualClock() }).guard.allowPrivate).toBe(false)
  })

  test('the default timeout is min(10 s, 0.8 × interval)', () => {
    expect(defaultTimeoutMs(30)).toBe(10_000)
    expect(defaultTimeoutMs(10)).toBe(8_000)
    expect(defaultTimeoutMs(300)).toBe(10_000)
  })
})
