/** TOTP against the RFC 6238 and RFC 4226 test vectors, the window edges on fixed instants, and replay. */
import { describe, expect, test } from 'bun:test'
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri, totpCode, totpStep } from '../../src/lib/totp.ts'

const RFC_KEY = new TextEncoder().encode('12345678901234567890')
const RFC_SECRET = base32Encode(RFC_KEY)

describe('codes', () => {
  test('RFC 4226 HOTP vectors', async () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489']
    for (let counter = 0; counter < 10; counter++) expect(await hotp(RFC_KEY, counter)).toBe(expected[counter]!)
  })

  test('RFC 6238 SHA-1 vectors (the last 6 of the 8 digits)', async () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ]
    for (const [seconds, code] of vectors) expect(await totpCode(RFC_SECRET, seconds * 1000)).toBe(code.slice(2))
  })

  test('base32 round trip; a new secret is 160 bits', () => {
    expect(RFC_SECRET).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')
    expect(base32Decode(RFC_SECRET.toLowerCase().replace(/(.{4})/g, '$1 '))).toEqual(RFC_KEY)
    expect(base32Decode('not base32!')).toBeUndefined()
    const secret = newTotpSecret()
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(base32Decode(secret)!.length).toBe(20)
  })

  test('the otpauth URI names the issuer and account', () => {
    expect(otpauthUri('ABC', 'me@example.com', 'Lantern')).toBe('otpauth://totp/Lantern:me%40example.com?secret=ABC&issuer=Lantern&algorithm=SHA1&digits=6&period=30')
  })
})

describe('window edges (fixed instants)', () => {
  const stepStart = 1_700_000_010_000 // a multiple of 30 s
  test('the current step and one either side count; two away do not', async () => {
    expect(stepStart % 30_000).toBe(0)
    const step = totpStep(stepStart)
    const at = (n: number) => totpCode(RFC_SECRET, (step + n) * 30_000)
    expect(await matchTotp(RFC_SECRET, await at(0), stepStart)).toBe(step)
    expect(await matchTotp(RFC_SECRET, await at(-1), stepStart)).toBe(step - 1)
    expect(await matchTotp(RFC_SECRET, await at(1), stepStart)).toBe(step + 1)
    expect(await matchTotp(RFC_SECRET, await at(-2), stepStart)).toBeUndefined()
    expect(await matchTotp(RFC_SECRET, await at(2), stepStart)).toBeUndefined()
    // The last millisecond of a step still accepts the previous one; the next millisecond does not.
    const previous = await at(-1)
    expect(await matchTotp(RFC_SECRET, previous, stepStart + 29_999)).toBe(step - 1)
    expect(await matchTotp(RFC_SECRET, previous, stepStart + 30_000)).toBeUndefined()
  })

  test('a used step (or an earlier one) is refused: no replay', async () => {
    const step = totpStep(stepStart)
    const code = await totpCode(RFC_SECRET, stepStart)
    expect(await matchTotp(RFC_SECRET, code, stepStart, step - 1)).toBe(step)
    expect(await matchTotp(RFC_SECRET, code, stepStart, step)).toBeUndefined()
    expect(await matchTotp(RFC_SECRET, await totpCode(RFC_SECRET, stepStart - 30_000), stepStart, step)).toBeUndefined()
  })

  test('malformed codes are refused', async () => {
    for (const code of ['', '12345', '1234567', 'abcdef', '12 34 5x']) expect(await matchTotp(RFC_SECRET, code, stepStart)).toBeUndefined()
    expect(await matchTotp(RFC_SECRET, (await totpCode(RFC_SECRET, stepStart)).replace(/^(...)/, '$1 '), stepStart)).toBe(totpStep(stepStart))
  })
})
