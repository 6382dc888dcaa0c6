/**
 * TRUST_PROXY takes CIDR ranges as well as addresses (`10.0.0.0/8, fd00::/8`), IPv4 and IPv6,
 * and a peer seen as an IPv4-mapped IPv6 address (`::ffff:10.1.2.3`, a dual-stack socket) matches
 * its IPv4 range.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { startServer, type RunningServer } from '../../src/main.ts'
import { clientAddress, trustedProxyMatcher } from '../../src/http/edge/client-address.ts'

const trusted = (setting: string) => trustedProxyMatcher(loadConfig({ TRUST_PROXY: setting }).operations.trustedProxies)

describe('matching', () => {
  test('IPv4 ranges, single addresses and the edges of a range', () => {
    const proxies = trusted('10.0.0.0/8, 192.168.1.7, 172.16.0.0/12')
    expect(['10.0.0.0', '10.255.255.255', '10.1.2.3', '192.168.1.7', '172.31.255.1'].filter((ip) => proxies.has(ip))).toHaveLength(5)
    expect(['11.0.0.0', '9.255.255.255', '192.168.1.8', '172.32.0.1', '::1', 'fd00::1'].filter((ip) => proxies.has(ip))).toEqual([])
  })

  test('IPv6 ranges, and IPv4-mapped peers match their IPv4 range', () => {
    const proxies = trusted('fd00::/8, 2001:db8:0:1::/64, 10.0.0.0/8')
    expect(proxies.has('fd12:3456::1')).toBe(true)
    expect(proxies.has('2001:db8:0:1:ffff::9')).toBe(true)
    expect(proxies.has('2001:db8:0:2::1')).toBe(false)
    expect(proxies.has('fe80::1')).toBe(false)
    expect(clientAddress('::ffff:10.1.2.3', '203.0.113.7', proxies)).toBe('203.0.113.7')
    expect(clientAddress('::ffff:11.1.2.3', '203.0.113.7', proxies)).toBe('11.1.2.3')
    // A mapped range written in IPv6 form is the same as its IPv4 range.
    expect(trusted('::ffff:10.0.0.0/104').has('10.9.9.9')).toBe(true)
    expect(trusted('0.0.0.0/0').has('203.0.113.9')).toBe(true)
    expect(trusted('::/0').has('2001:db8::1')).toBe(true)
  })

  test('X-Forwarded-For hops inside a trusted range are skipped, right to left', () => {
    const proxies = trusted('127.0.0.1, 10.0.0.0/8')
    expect(clientAddress('127.0.0.1', '203.0.113.7, 10.0.0.9, 10.200.0.1', proxies)).toBe('203.0.113.7')
  })
})

describe('configuration', () => {
  test('ranges are kept in canonical form next to addresses', () => {
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8 , FD00::/8, 127.0.0.1, ::ffff:10.0.0.0/104 ' }).operations.trustedProxies).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      '127.0.0.1',
      '10.0.0.0/8',
    ])
  })

  for (const value of ['10.0.0.0/33', '10.0.0.0/', '10.0.0.0/8/8', 'fd00::/129', '10.0.0.0/-1', '10.0.0.0/8.5', 'fd00::/x', 'proxy.local/8', '10.1.2.3/8', '/8']) {
    test(`refuses TRUST_PROXY=${value} with one line naming the variable`, () => {
      let message = ''
      try {
        loadConfig({ TRUST_PROXY: value })
      } catch (error) {
        message = (error as Error).message
      }
      expect(message.startsWith('TRUST_PROXY')).toBe(true)
      expect(message).toContain(value)
      expect(message).not.toContain('\n')
    })
  }
})

describe('through a listening server', () => {
  let server: RunningServer
  let dir: string
  const lines: string[] = []
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lantern-trust-'))
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'db.sqlite'), REQUEST_LOG: '1', TRUST_PROXY: '127.0.0.0/8' }),
      { log: (line) => lines.push(line) },
    )
  })
  afterAll(async () => {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('a proxy inside a trusted range is believed: the request log shows the forwarded client', async () => {
    await (await fetch(`http://127.0.0.1:${server.port}/healthz`, { headers: { 'x-forwarded-for': '198.51.100.23' } })).arrayBuffer()
    for (let i = 0; i < 100 && lines.length === 0; i++) await Bun.sleep(10)
    expect(JSON.parse(lines.at(-1)!).ip).toBe('198.51.100.23')
  })
})
