import { describe, expect, test } from 'bun:test'
import { RouteMatcher } from '../../../src/modules/metrics/route-matcher.ts'

describe('RouteMatcher', () => {
  const matcher = new RouteMatcher(['/', '/healthz', '/badge/:slug', '/badge/:slug/uptime.svg', '/user/api/v1/status-pages/', '/user/api/v1/status-pages/:id', '/docs/*', '/api/v2/incidents/unresolved.json', '/api/v2/incidents/:id'])

  test('paths map to their pattern; parameters never leak', () => {
    expect(matcher.match('/')).toBe('/')
    expect(matcher.match('/healthz')).toBe('/healthz')
    expect(matcher.match('/badge/acme.svg')).toBe('/badge/:slug')
    expect(matcher.match('/badge/acme/uptime.svg')).toBe('/badge/:slug/uptime.svg')
    expect(matcher.match('/user/api/v1/status-pages')).toBe('/user/api/v1/status-pages')
    expect(matcher.match('/user/api/v1/status-pages/')).toBe('/user/api/v1/status-pages')
    expect(matcher.match('/user/api/v1/status-pages/42')).toBe('/user/api/v1/status-pages/:id')
    expect(matcher.match('/docs/operations')).toBe('/docs/*')
    expect(matcher.match('/docs/a/b/c')).toBe('/docs/*')
  })

  test('static segments win over parameters; unknown shapes are undefined', () => {
    expect(matcher.match('/api/v2/incidents/unresolved.json')).toBe('/api/v2/incidents/unresolved.json')
    expect(matcher.match('/api/v2/incidents/7')).toBe('/api/v2/incidents/:id')
    expect(matcher.match('/badge')).toBeUndefined()
    expect(matcher.match('/badge//uptime.svg')).toBeUndefined()
    expect(matcher.match('/badge/a/b/c')).toBeUndefined()
    expect(matcher.match('/nothing')).toBeUndefined()
    expect(matcher.match('')).toBeUndefined()
  })
})
