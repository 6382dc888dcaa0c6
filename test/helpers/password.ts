/**
 * A fast stand-in for argon2id, for tests that do not test hashing: a salted SHA-256 behind a marker
 * that no real hash starts with. Never used in src/ (a SHA-256 is no way to store a password).
 */
import { constantTimeEqual, randomToken, sha256Hex } from '../../src/lib/crypto.ts'
import type { PasswordHasher } from '../../src/lib/password.ts'

const MARKER = 'test-sha256$'

export const fastTestHasher: PasswordHasher = {
  async hash(password) {
    const salt = randomToken(8)
    return `${MARKER}${salt}$${await sha256Hex(`${salt}$${password}`)}`
  },
  async verify(password, hash) {
    if (!hash.startsWith(MARKER)) return false
    const [salt, digest] = hash.slice(MARKER.length).split('$')
    if (salt === undefined || digest === undefined) return false
    return constantTimeEqual(await sha256Hex(`${salt}$${password}`), digest)
  },
  needsRehash: (hash) => !hash.startsWith(MARKER),
  timingHash: `${MARKER}0000000000$${'0'.repeat(64)}`,
}
