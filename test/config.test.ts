import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../src/config.ts'

describe('loadConfig', () => {
  test('embedded defaults', () => {
    const config = loadConfig({})
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      databasePath: 'db/lantern.sqlite',
      baseUrl: 'http://localhost:3000',
      scheme: 'http',
      statusDomain: 'localhost:3000',
      defaultPlan: 'enterprise',
      signup: 'closed',
      metrics: { monitorSeries: true, monitorSeriesMax: 10_000 },
      operations: { workers: 1, requestLog: false, rateLimitPerMinute: 600, trustedProxies: ['127.0.0.1', '::1'] },
      monitorPrivateTargets: false,
      mail: { enabled: false, from: undefined, host: undefined, port: 587, security: 'starttls', user: undefined, password: undefined, tlsCaFile: undefined, dkim: undefined },
      channels: { telegramApiUrl: 'https://api.telegram.org', slackApiUrl: 'https://slack.com/api', ntfyUrl: 'https://ntfy.sh', pagerDutyEventsUrl: 'https://events.pagerduty.com/v2/enqueue' },
    })
    expect(Object.isFrozen(config)).toBe(true)
  })

  test('derives BASE_URL and STATUS_DOMAIN from PORT, and takes explicit values as given', () => {
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080')
    const config = loadConfig({ BASE_URL: 'https://status.example.com/', STATUS_DOMAIN: 'Status.Example.com', DEFAULT_PLAN: 'free' })
    expect(config.baseUrl).toBe('https://status.example.com')
    expect(config.scheme).toBe('https')
    expect(config.statusDomain).toBe('status.example.com')
    expect(config.defaultPlan).toBe('free')
  })

  test('MONITOR_PRIVATE_TARGETS: 1, a list of networks, or a clear error', () => {
    expect(loadConfig({ MONITOR_PRIVATE_TARGETS: '1' }).monitorPrivateTargets).toBe(true)
    expect(loadConfig({ MONITOR_PRIVATE_TARGETS: '10.0.0.5' }).monitorPrivateTargets).toEqual(['10.0.0.5/32'])
    expect(() => loadConfig({ MONITOR_PRIVATE_TARGETS: 'lan' })).toThrow(ConfigError)
  })

  test('METRICS_MONITOR_SERIES: on unless switched off; METRICS_MONITOR_SERIES_MAX: a bounded whole number', () => {
    expect(loadConfig({ METRICS_MONITOR_SERIES: 'off' }).metrics.monitorSeries).toBe(false)
    expect(loadConfig({ METRICS_MONITOR_SERIES: '0' }).metrics.monitorSeries).toBe(false)
    expect(loadConfig({ METRICS_MONITOR_SERIES: 'on' }).metrics.monitorSeries).toBe(true)
    expect(loadConfig({ METRICS_MONITOR_SERIES: ' ' }).metrics.monitorSeries).toBe(true)
    expect(loadConfig({ METRICS_MONITOR_SERIES_MAX: '250' }).metrics.monitorSeriesMax).toBe(250)
    expect(() => loadConfig({ METRICS_MONITOR_SERIES_MAX: '0' })).toThrow('METRICS_MONITOR_SERIES_MAX must be an integer from 1 to 1000000, got "0"')
  })

  const bad: Array<[Record<string, string>, string]> = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ BASE_URL: 'not a url' }, 'BASE_URL'],
    [{ BASE_URL: 'ftp://example.com' }, 'BASE_URL'],
    [{ BASE_URL: 'https://example.com/sub/path' }, 'BASE_URL'],
    [{ BASE_URL: 'https://user:pw@example.com' }, 'BASE_URL'],
    [{ STATUS_DOMAIN: 'https://example.com' }, 'STATUS_DOMAIN'],
    [{ STATUS_DOMAIN: 'exa mple.com' }, 'STATUS_DOMAIN'],
    [{ DEFAULT_PLAN: 'platinum' }, 'DEFAULT_PLAN'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'fd00::/8, 10.1.0.0/8' }, 'TRUST_PROXY'],
    [{ METRICS_MONITOR_SERIES: 'maybe' }, 'METRICS_MONITOR_SERIES'],
    [{ METRICS_MONITOR_SERIES_MAX: '10k' }, 'METRICS_MONITOR_SERIES_MAX'],
    [{ METRICS_MONITOR_SERIES_MAX: '2000000' }, 'METRICS_MONITOR_SERIES_MAX'],
    [{ METRICS_MONITOR_SERIES_MAX: '<b>1</b>' }, 'METRICS_MONITOR_SERIES_MAX'],
  ]
  for (const [env, variable] of bad) {
    test(`refuses ${JSON.stringify(env)} with one line naming ${variable}`, () => {
      let error: unknown
      try {
        loadConfig(env)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(ConfigError)
      const message = (error as Error).message
      expect(message.startsWith(variable)).toBe(true)
      expect(message).not.toContain('\n')
    })
  }
})

describe('single sign-on settings (OIDC_*)', () => {
  const oidc = { OIDC_ISSUER: 'https://id.example.com/realms/acme/', OIDC_CLIENT_ID: 'lantern', OIDC_CLIENT_SECRET: 's3cret value' }

  test('none set: off', () => {
    expect(loadConfig({}).oidc).toBeUndefined()
  })

  test('all three: the issuer without its trailing slash, the redirect URI on BASE_URL, the default name, https only', () => {
    expect(loadConfig({ ...oidc, BASE_URL: 'https://status.example.com' }).oidc).toEqual({
      issuer: 'https://id.example.com/realms/acme',
      clientId: 'lantern',
      clientSecret: 's3cret value',
      name: 'single sign-on',
      redirectUri: 'https://status.example.com/user/sso/callback',
      allowInsecureRequests: false,
    })
    expect(loadConfig({ ...oidc, OIDC_NAME: ' Keycloak ' }).oidc?.name).toBe('Keycloak')
  })

  test('plain http only for a provider on loopback', () => {
    for (const issuer of ['http://127.0.0.1:8080', 'http://localhost:8080/auth', 'http://[::1]:9000']) {
      expect(loadConfig({ ...oidc, OIDC_ISSUER: issuer }).oidc?.allowInsecureRequests).toBe(true)
    }
    expect(() => loadConfig({ ...oidc, OIDC_ISSUER: 'http://id.example.com' })).toThrow('OIDC_ISSUER must use https (plain http only for a provider on 127.0.0.1, ::1 or localhost), got "http://id.example.com"')
    expect(() => loadConfig({ ...oidc, OIDC_ISSUER: 'http://10.0.0.5' })).toThrow('OIDC_ISSUER must use https')
  })

  const bad: [Record<string, string>, string][] = [
    [{ OIDC_ISSUER: 'https://id.example.com' }, 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (or none of them)'],
    [{ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'lantern' }, 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (or none of them)'],
    [{ OIDC_CLIENT_SECRET: 'x' }, 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (or none of them)'],
    [{ OIDC_NAME: 'Keycloak' }, 'OIDC_NAME needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET'],
    [{ ...oidc, OIDC_ISSUER: 'not a url' }, 'OIDC_ISSUER must be an absolute https URL, got "not a url"'],
    [{ ...oidc, OIDC_ISSUER: 'ftp://id.example.com' }, 'OIDC_ISSUER must use https'],
    [{ ...oidc, OIDC_ISSUER: 'https://user:pw@id.example.com' }, 'OIDC_ISSUER must be a URL without credentials, query or fragment'],
    [{ ...oidc, OIDC_ISSUER: 'https://id.example.com/?realm=x' }, 'OIDC_ISSUER must be a URL without credentials, query or fragment'],
    [{ ...oidc, OIDC_CLIENT_ID: 'two words' }, 'OIDC_CLIENT_ID must be 1 to 255 printable ASCII characters without spaces'],
    [{ ...oidc, OIDC_CLIENT_SECRET: 'a\u0000b' }, 'OIDC_CLIENT_SECRET must be at most 1024 characters without control characters'],
    [{ ...oidc, OIDC_NAME: 'x'.repeat(61) }, 'OIDC_NAME must be at most 60 characters without control characters'],
  ]
  for (const [env, message] of bad) {
    test(`refuses ${JSON.stringify(env).slice(0, 90)} with one line`, () => {
      let error: unknown
      try {
        loadConfig(env)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message.startsWith(message)).toBe(true)
      expect((error as Error).message).not.toContain('\n')
      // The secret is never echoed.
      expect((error as Error).message).not.toContain('s3cret')
    })
  }
})
