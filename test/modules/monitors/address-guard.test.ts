import { describe, expect, test } from 'bun:test'
import { AddressRefused, canonicalHost, classifyAddress, createAddressGuard, readPrivateTargets } from '../../../src/lib/address-guard.ts'

describe('canonicalHost reads odd IPv4 forms as the WHATWG URL parser does', () => {
  const TABLE: Array<[string, string | undefined]> = [
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
    ['LocalHost', 'localhost'],
    ['example.com.', 'example.com.'],
    ['', undefined],
    ['a b', undefined],
    ['user@host', undefined],
    ['256.256.256.256', undefined],
  ]
  for (const [input, expected] of TABLE) {
    test(`${JSON.stringify(input)} → ${expected}`, () => expect(canonicalHost(input)).toBe(expected))
  }
})

describe('classifyAddress', () => {
  // [address, allowed without the flag, allowed with MONITOR_PRIVATE_TARGETS=1]
  const TABLE: Array<[string, boolean, boolean]> = [
    ['93.184.216.34', true, true],
    ['2606:4700:4700::1111', true, true],
    ['127.0.0.1', false, true],
    ['127.255.0.9', false, true],
    ['10.0.0.1', false, true],
    ['172.16.5.4', false, true],
    ['192.168.1.1', false, true],
    ['100.64.0.1', false, true],
    ['169.254.1.1', false, true],
    ['::1', false, true],
    ['fe80::1', false, true],
    ['fd12:3456::1', false, true],
    ['::ffff:127.0.0.1', false, true],
    ['::ffff:8.8.8.8', true, true],
    ['64:ff9b::7f00:1', false, true],
    ['64:ff9b::808:808', true, true],
    ['2002:7f00:1::1', false, true],
    // Always refused: metadata, unspecified, multicast, reserved, translated forms.
    ['169.254.169.254', false, false],
    ['::ffff:169.254.169.254', false, false],
    ['64:ff9b::a9fe:a9fe', false, false],
    ['fd00:ec2::254', false, false],
    ['100.100.100.200', false, false],
    ['168.63.129.16', false, false],
    ['0.0.0.0', false, false],
    ['::', false, false],
    ['224.0.0.1', false, false],
    ['255.255.255.255', false, false],
    ['198.18.0.1', false, false],
    ['192.0.2.1', false, false],
    ['240.0.0.1', false, false],
    ['ff02::1', false, false],
    ['2001:db8::1', false, false],
    ['2001::1', false, false],
    ['::7f00:1', false, false],
    ['64:ff9b:1::1', false, false],
    ['not-an-ip', false, false],
  ]
  for (const [address, open, withFlag] of TABLE) {
    test(`${address}: ${open ? 'allowed' : 'refused'} / with flag ${withFlag ? 'allowed' : 'refused'}`, () => {
      expect(classifyAddress(address, false).allowed).toBe(open)
      expect(classifyAddress(address, true).allowed).toBe(withFlag)
    })
  }

  test('the reason names the range and the flag', () => {
    const verdict = classifyAddress('10.1.2.3', false)
    expect(verdict).toEqual({ allowed: false, why: 'a private address (MONITOR_PRIVATE_TARGETS=1 allows it)' })
    expect(classifyAddress('169.254.169.254', true)).toEqual({ allowed: false, why: 'a cloud metadata address' })
  })
})

describe('createAddressGuard', () => {
  const names: Record<string, string[]> = {
    'public.test': ['93.184.216.34', '2606:4700::1'],
    'v6only.test': ['2606:4700::1'],
    'loopback.test': ['127.0.0.1'],
    'mixed.test': ['93.184.216.34', '10.0.0.5'],
    'metadata.test': ['169.254.169.254'],
    localhost: ['127.0.0.1', '::1'],
    'empty.test': [],
  }
  const lookups: string[] = []
  const resolve = async (host: string) => {
    lookups.push(host)
    const found = names[host]
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
    return found
  }
  const strict = createAddressGuard({ resolve, allowPrivate: false })
  const open = createAddressGuard({ resolve, allowPrivate: true })

  test('a public name: resolved once, IPv4 first, every address listed', async () => {
    lookups.length = 0
    expect(await strict.check('public.test')).toEqual({ host: 'public.test', address: '93.184.216.34', family: 4, addresses: ['93.184.216.34', '2606:4700::1'] })
    expect(lookups).toEqual(['public.test'])
    expect((await strict.check('v6only.test')).family).toBe(6)
  })

  const refusedWithout: Array<[string, RegExp]> = [
    ['127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['localhost', /localhost resolves to 127\.0\.0\.1, a loopback address/],
    ['[::ffff:127.0.0.1]', /::ffff:7f00:1 is an IPv6 form of 127\.0\.0\.1, a loopback address/],
    ['loopback.test', /resolves to 127\.0\.0\.1/],
    ['2130706433', /127\.0\.0\.1 is a loopback/],
    ['0177.0.0.1', /127\.0\.0\.1 is a loopback/],
    ['mixed.test', /resolves to 10\.0\.0\.5, a private address/],
  ]
  for (const [host, reason] of refusedWithout) {
    test(`${host} is refused without the flag and allowed with it`, async () => {
      const error = await strict.check(host).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AddressRefused)
      expect((error as Error).message).toMatch(reason)
      expect((await open.check(host)).address).toMatch(/^(127\.0\.0\.1|::ffff:7f00:1|93\.184\.216\.34)$/)
    })
  }

  test('metadata is refused even with the flag, by address and by name', async () => {
    for (const host of ['169.254.169.254', 'metadata.test', '[fd00:ec2::254]', '100.100.100.200', 'metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.']) {
      const error = await open.check(host).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AddressRefused)
    }
  })

  test('names that do not resolve, or resolve to nothing, are refused with the reason', async () => {
    expect(((await strict.check('nowhere.test').catch((e: unknown) => e)) as Error).message).toBe('nowhere.test did not resolve: the name does not exist in DNS (ENOTFOUND)')
    expect(((await strict.check('empty.test').catch((e: unknown) => e)) as Error).message).toBe('empty.test did not resolve to any address')
  })

  test('refusesLiteral judges literals and metadata names without a lookup', () => {
    lookups.length = 0
    expect(strict.refusesLiteral('0x7f.1')).toBe('127.0.0.1 is a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it)')
    expect(open.refusesLiteral('0x7f.1')).toBeUndefined()
    expect(open.refusesLiteral('metadata.google.internal')).toBe('metadata.google.internal is a cloud metadata name')
    expect(strict.refusesLiteral('example.com')).toBeUndefined()
    expect(strict.refusesLiteral('bad host')).toBe('"bad host" is not a valid host')
    expect(lookups).toEqual([])
  })

  test('an aborted signal ends a slow lookup', async () => {
    const slow = createAddressGuard({ resolve: () => new Promise(() => {}), allowPrivate: false })
    const error = await slow.check('slow.test', AbortSignal.timeout(20)).catch((e: unknown) => e)
    expect((error as Error).name).toBe('TimeoutError')
  })
})

describe('readPrivateTargets', () => {
  test('reads 1/true/0/false/unset and rejects anything else', () => {
    expect(readPrivateTargets({})).toBe(false)
    expect(readPrivateTargets({ MONITOR_PRIVATE_TARGETS: '0' })).toBe(false)
    expect(readPrivateTargets({ MONITOR_PRIVATE_TARGETS: '1' })).toBe(true)
    expect(readPrivateTargets({ MONITOR_PRIVATE_TARGETS: 'TRUE' })).toBe(true)
    expect(() => readPrivateTargets({ MONITOR_PRIVATE_TARGETS: 'yes please' })).toThrow('MONITOR_PRIVATE_TARGETS must be 1, 0 or a list of networks')
  })

  test('reads a list of networks; a bare address is one host; octal forms are refused', () => {
    expect(readPrivateTargets({ MONITOR_PRIVATE_TARGETS: '192.168.1.0/24, 10.0.0.5,fd00::/8' })).toEqual(['192.168.1.0/24', '10.0.0.5/32', 'fd00::/8'])
    expect(() => readPrivateTargets({ MONITOR_PRIVATE_TARGETS: '0177.0.0.1/8' })).toThrow('got "0177.0.0.1/8"')
    expect(() => readPrivateTargets({ MONITOR_PRIVATE_TARGETS: '10.0.0.0/33' })).toThrow()
  })
})

describe('a list of private networks', () => {
  const allow = ['192.168.1.0/24', '127.0.0.1/32', 'fd00::/8', '169.254.0.0/16']
  const TABLE: Array<[string, boolean]> = [
    ['192.168.1.77', true],
    ['192.168.2.1', false],
    ['127.0.0.1', true],
    ['127.0.0.2', false],
    ['::ffff:127.0.0.1', true],
    ['fd12::1', true],
    ['fe80::1', false],
    ['8.8.8.8', true],
    // A listed network never opens metadata or non-private ranges.
    ['169.254.169.254', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['10.0.0.1', false],
  ]
  for (const [address, allowed] of TABLE) {
    test(`${address}: ${allowed ? 'allowed' : 'refused'}`, () => expect(classifyAddress(address, allow).allowed).toBe(allowed))
  }
  test('even 0.0.0.0/0 opens only private ranges', () => {
    for (const address of ['10.0.0.1', '127.0.0.2', '100.64.1.1']) expect(classifyAddress(address, ['0.0.0.0/0']).allowed).toBe(true)
    for (const address of ['0.0.0.0', '224.0.0.1', '255.255.255.255', '169.254.169.254', '198.18.0.1']) expect(classifyAddress(address, ['0.0.0.0/0']).allowed).toBe(false)
  })
  test('the reason says the address is outside the list', () => {
    expect(classifyAddress('127.0.0.2', ['127.0.0.1/32'])).toEqual({ allowed: false, why: 'a loopback address (outside the networks MONITOR_PRIVATE_TARGETS lists)' })
  })
})
