import { describe, expect, test } from 'bun:test'
import { normalizeHost } from '../../src/lib/host.ts'
import { createHostRouter, requestHost } from '../../src/http/host-router.ts'

const router = createHostRouter({ baseUrl: 'https://lantern.example.com', statusDomain: 'status.example.com' })

describe('host router (pure)', () => {
  const table: Array<[string | null, unknown]> = [
    // the service host, however it is written
    ['lantern.example.com', { kind: 'service' }],
    ['LANTERN.Example.COM', { kind: 'service' }],
    ['lantern.example.com:8443', { kind: 'service' }],
    ['lantern.example.com.', { kind: 'service' }],
    ['lantern.example.com.:443', { kind: 'service' }],
    // addresses and a missing Host reach the service (health checks, local tools)
    ['127.0.0.1:3000', { kind: 'service' }],
    ['[::1]:3000', { kind: 'service' }],
    [null, { kind: 'service' }],
    // status subdomains
    ['acme.status.example.com', { kind: 'status', slug: 'acme', host: 'acme.status.example.com' }],
    ['ACME.Status.Example.com:443', { kind: 'status', slug: 'acme', host: 'acme.status.example.com' }],
    ['acme.status.example.com.', { kind: 'status', slug: 'acme', host: 'acme.status.example.com' }],
    ['my-shop-2.status.example.com', { kind: 'status', slug: 'my-shop-2', host: 'my-shop-2.status.example.com' }],
    // not a page under the status domain
    ['status.example.com', { kind: 'unknown' }],
    ['a.b.status.example.com', { kind: 'unknown' }],
    ['-bad.status.example.com', { kind: 'unknown' }],
    [`${'a'.repeat(64)}.status.example.com`, { kind: 'unknown' }],
    // custom domains (IDN in punycode)
    ['status.acme.io', { kind: 'custom', host: 'status.acme.io' }],
    ['a.io', { kind: 'custom', host: 'a.io' }],
    ['Status.ACME.io:8080', { kind: 'custom', host: 'status.acme.io' }],
    ['status.bücher.de', { kind: 'custom', host: 'status.xn--bcher-kva.de' }],
    ['status.xn--bcher-kva.de', { kind: 'custom', host: 'status.xn--bcher-kva.de' }],
    ['bücher.status.example.com', { kind: 'status', slug: 'xn--bcher-kva', host: 'xn--bcher-kva.status.example.com' }],
    // garbage
    ['', { kind: 'service' }],
    ['localhost', { kind: 'unknown' }],
    ['exa mple.com', { kind: 'unknown' }],
    ['evil.com/path', { kind: 'unknown' }],
    ['user@evil.com', { kind: 'unknown' }],
    ['x'.repeat(400), { kind: 'unknown' }],
    ['under_score.example.com', { kind: 'unknown' }],
  ]
  for (const [host, expected] of table) {
    test(`${JSON.stringify(host)?.slice(0, 60)} → ${(expected as { kind: string }).kind}`, () => {
      expect(router.route(host)).toEqual(expected as never)
    })
  }

  test('a status domain with a port and the service on the same host (local defaults)', () => {
    const local = createHostRouter({ baseUrl: 'http://localhost:3000', statusDomain: 'localhost:3000' })
    expect(local.route('localhost:3000')).toEqual({ kind: 'service' })
    expect(local.route('acme.localhost:3000')).toEqual({ kind: 'status', slug: 'acme', host: 'acme.localhost' })
    expect(local.route('acme.localhost:51234')).toEqual({ kind: 'status', slug: 'acme', host: 'acme.localhost' })
  })

  test('the service host wins over the status pattern when it lies under the status domain', () => {
    const nested = createHostRouter({ baseUrl: 'https://app.example.com', statusDomain: 'example.com' })
    expect(nested.route('app.example.com')).toEqual({ kind: 'service' })
    expect(nested.route('acme.example.com')).toEqual({ kind: 'status', slug: 'acme', host: 'acme.example.com' })
  })

  test('normalizeHost and requestHost', () => {
    expect(normalizeHost(' Foo.Example.COM.:80 ')).toBe('foo.example.com')
    expect(normalizeHost('')).toBeUndefined()
    expect(normalizeHost('a b')).toBeUndefined()
    expect(requestHost(new Request('https://Acme.status.test:8443/x?y=1'))).toBe('acme.status.test:8443')
    expect(requestHost(new Request('http://a.io'))).toBe('a.io')
  })
})
