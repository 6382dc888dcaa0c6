/**
 * Password hashing. Services take a `PasswordHasher`, so the algorithm is chosen where the objects
 * are built (argon2id in production; tests that do not test hashing pass a fast one).
 *
 * argon2id at m = 19 MiB, t = 2, p = 1: OWASP's first recommended argon2id setting (Password Storage
 * Cheat Sheet), also RFC 9106's memory-constrained option in spirit. It costs ~40 ms of one core and
 * 19 MiB per hash on the 2-core reference machine, where Bun's default (64 MiB, t = 2) cost ~140 ms
 * and 64 MiB: every log in, sign-up and private-page unlock waited for it, and ten logins at once
 * held 640 MiB. Hashes made with other settings (or another algorithm Bun reads) keep verifying and
 * are re-hashed at these settings at the next successful log in or unlock.
 */

export interface PasswordHasher {
  hash(password: string): Promise<string>
  /** False for a wrong password and for a hash it cannot read; never throws. */
  verify(password: string, hash: string): Promise<boolean>
  /** True when `hash` was made with other settings than `hash` uses now: re-hash after a verify. */
  needsRehash(hash: string): boolean
  /**
   * A hash of no one's password at the current settings: verifying against it costs what a real
   * verify costs, so an unknown email takes as long to refuse as a wrong password.
   */
  readonly timingHash: string
}

export const ARGON2ID = { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 } as const
const CURRENT = `$argon2id$v=19$m=${ARGON2ID.memoryCost},t=${ARGON2ID.timeCost},p=1$`

/** The production hasher: argon2id through Bun's native implementation (this file is the edge). */
export const argon2idHasher: PasswordHasher = {
  hash: (password) => Bun.password.hash(password, ARGON2ID),
  async verify(password, hash) {
    try {
      return await Bun.password.verify(password, hash)
    } catch {
      return false
    }
  },
  needsRehash: (hash) => !hash.startsWith(CURRENT),
  timingHash: '$argon2id$v=19$m=19456,t=2,p=1$xSkkUijSpaH/sfpyNonZ7CDA4Xk8naM1ajJwFi7aEWw$xxWbc3yWbC5nlmsisHKZFWgT0yMQMEmhNibC/C+z+QM',
}
