import { describe, expect, test } from 'bun:test'
import { HttpError } from '../../../src/lib/errors.ts'
import { parseCustomDomain } from '../../../src/modules/status-pages/domain.ts'
import { parseSlug, slugForLookup } from '../../../src/modules/status-pages/slug.ts'

const message = (fn: () => unknown): string => {
  try {
    fn()
  } catch (error) {
    if (error instanceof HttpError && error.status === 400) return error.message
    throw error
  }
  throw new Error('expected a 400')
}

describe('slugs', () => {
  test('accepts DNS labels and stores them lower-case', () => {
    expect(parseSlug('Acme')).toBe('acme')
    expect(parseSlug('  my-status-2 ')).toBe('my-status-2')
    expect(parseSlug('a')).toBe('a')
    expect(parseSlug('a'.repeat(63))).toBe('a'.repeat(63))
  })
  test('refuses what cannot be a DNS label, and reserved names', () => {
    expect(message(() => parseSlug(''))).toBe('slug is required')
    expect(message(() => parseSlug('a'.repeat(64)))).toContain('at most 63')
    for (const bad of ['-acme', 'acme-', 'ac_me', 'ac.me', 'ác', '<b>', 'a b', '\u212Acme']) {
      expect(message(() => parseSlug(bad))).toContain('DNS label')
    }
    for (const reserved of ['www', 'API', 'app', 'admin', 'static', 'mail']) {
      expect(message(() => parseSlug(reserved))).toContain('reserved')
    }
  })
  test('lookup form lower-cases ASCII only', () => {
    expect(slugForLookup('ACME')).toBe('acme')
    expect(slugForLookup('\u212Acme')).toBeUndefined()
    expect(slugForLookup('x'.repeat(64))).toBeUndefined()
  })
})

describe('custom domains', () => {
  test('normalises case, trailing dot and IDN', () => {
    expect(parseCustomDomain('Status.Example.COM')).toBe('status.example.com')
    expect(parseCustomDomain('status.example.com.')).toBe('status.example.com')
    expect(parseCustomDomain('bücher.example')).toBe('xn--bcher-kva.example')
    expect(parseCustomDomain('ＳＴＡＴＵＳ.example.com')).toBe('status.example.com') // full-width letters
  })
  test('refuses schemes, ports, paths, credentials, IPs and single labels', () => {
    expect(message(() => parseCustomDomain('https://status.example.com'))).toContain('bare host name')
    expect(message(() => parseCustomDomain('status.example.com/x'))).toContain('bare host name')
    expect(message(() => parseCustomDomain('user@status.example.com'))).toContain('bare host name')
    expect(message(() => parseCustomDomain('status.example.com:8443'))).toContain('without port')
    expect(message(() => parseCustomDomain('[::1]'))).toContain('without port')
    expect(message(() => parseCustomDomain('192.168.1.10'))).toContain('IP address')
    expect(message(() => parseCustomDomain('localhost'))).toContain('two labels')
    expect(message(() => parseCustomDomain('   '))).toContain('must not be empty')
    expect(message(() => parseCustomDomain('a'.repeat(300)))).toContain('253')
    expect(message(() => parseCustomDomain('exa_mple.com'))).toContain('not a valid host name')
    expect(message(() => parseCustomDomain('<script>.com'))).toContain('not a valid host name')
  })
})
