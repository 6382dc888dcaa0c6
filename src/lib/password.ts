/**
 * Password hashing. Services take a `PasswordHasher`, so the algorithm is chosen where the objects
 * are built (argon2id in production; tests that do not test hashing pass a fast one).
 */

export interface PasswordHasher {
  hash(password: string): Promise<string>
  /** False for a wrong password and for a hash it cannot read; never throws. */
  verify(password: string, hash: string): Promise<boolean>
}

/** The production hasher: argon2id through Bun's native implementation (this file is the edge). */
export const argon2idHasher: PasswordHasher = {
  hash: (password) => Bun.password.hash(password, { algorithm: 'argon2id' }),
  async verify(password, hash) {
    try {
      return await Bun.password.verify(password, hash)
    } catch {
      return false
    }
  },
}
