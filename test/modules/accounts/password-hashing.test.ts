/**
 * Password hashing as in production (argon2id through Bun, m = 19 MiB, t = 2, p = 1): new hashes
 * carry those settings; a hash made with other settings (Bun's default 64 MiB, or bcrypt) still logs
 * in and is re-hashed at the current ones, for accounts and private-page gates alike; a password
 * changed meanwhile is never put back; an unknown email is checked against a hash of no one's
 * password at the same settings. Real app, real SQLite, real argon2id.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { argon2idHasher, ARGON2ID } from '../../../src/lib/password.ts'
import { AccountsRepo } from '../../../src/modules/accounts/repo.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

const CURRENT = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/
const ORIGIN = 'https://lantern.test'
let ctx: TestContext

beforeAll(async () => {
  ctx = await createTestContext({ realPasswords: true })
})
afterAll(() => ctx.close())

const storedHash = async (email: string) =>
  (await ctx.database.db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow()).password_hash

const login = (email: string, password: string) =>
  ctx.request('/user/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    body: new URLSearchParams({ email, password }).toString(),
  })

/** An account whose stored hash was made elsewhere (another version, another algorithm). */
async function accountWithHash(email: string, hash: string) {
  const user = await ctx.app.services.accounts.createUser({ email, password: 'placeholder password' })
  await ctx.database.db.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute()
  return user
}

describe('the hasher', () => {
  test('new hashes use the chosen settings; the timing hash is at them too and matches nothing', async () => {
    expect(ARGON2ID).toEqual({ algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 })
    const hash = await argon2idHasher.hash('correct horse battery')
    expect(hash).toMatch(CURRENT)
    expect(argon2idHasher.needsRehash(hash)).toBe(false)
    expect(await argon2idHasher.verify('correct horse battery', hash)).toBe(true)
    expect(argon2idHasher.timingHash).toMatch(CURRENT)
    expect(argon2idHasher.needsRehash(argon2idHasher.timingHash)).toBe(false)
    expect(await argon2idHasher.verify('', argon2idHasher.timingHash)).toBe(false)
    expect(await argon2idHasher.verify('correct horse battery', argon2idHasher.timingHash)).toBe(false)
  })

  test('other settings and other algorithms need a re-hash; unreadable hashes verify as false', async () => {
    expect(argon2idHasher.needsRehash(await Bun.password.hash('x', { algorithm: 'argon2id' }))).toBe(true)
    expect(argon2idHasher.needsRehash(await Bun.password.hash('x', { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 3 }))).toBe(true)
    expect(argon2idHasher.needsRehash(await Bun.password.hash('x', { algorithm: 'bcrypt', cost: 4 }))).toBe(true)
    expect(await argon2idHasher.verify('x', 'not a hash')).toBe(false)
  })
})

describe('re-hashing at log in', () => {
  test("a hash of Bun's default settings logs in and is replaced by one at the current settings", async () => {
    const old = await Bun.password.hash('an old long password', { algorithm: 'argon2id' })
    expect(old).toStartWith('$argon2id$v=19$m=65536,t=2,p=1$')
    await accountWithHash('old-argon@example.com', old)
    expect((await login('old-argon@example.com', 'an old long password')).status).toBe(303)
    const now = await storedHash('old-argon@example.com')
    expect(now).toMatch(CURRENT)
    expect((await login('old-argon@example.com', 'an old long password')).status).toBe(303)
    expect(await storedHash('old-argon@example.com')).toBe(now)
  })

  test('a bcrypt hash logs in and becomes argon2id; a wrong password changes nothing', async () => {
    const bcrypt = await Bun.password.hash('a bcrypt password', { algorithm: 'bcrypt', cost: 4 })
    await accountWithHash('bcrypt@example.com', bcrypt)
    expect((await login('bcrypt@example.com', 'not the password')).status).toBe(401)
    expect(await storedHash('bcrypt@example.com')).toBe(bcrypt)
    expect((await login('bcrypt@example.com', 'a bcrypt password')).status).toBe(303)
    expect(await storedHash('bcrypt@example.com')).toMatch(CURRENT)
  })

  test('the re-hash never puts back a password changed in the meantime', async () => {
    const user = await accountWithHash('raced@example.com', await Bun.password.hash('the first password', { algorithm: 'argon2id' }))
    const first = await storedHash('raced@example.com')
    await ctx.app.services.accounts.changePassword(user.id, 'the second password')
    const second = await storedHash('raced@example.com')
    // A re-hash computed from the first password, arriving late.
    await new AccountsRepo(ctx.database.db).rehashPassword(user.id, first, await argon2idHasher.hash('the first password'))
    expect(await storedHash('raced@example.com')).toBe(second)
    expect((await login('raced@example.com', 'the second password')).status).toBe(303)
  })

  test('an unknown email is refused like a wrong password', async () => {
    expect((await login('nobody@example.com', 'whatever password')).status).toBe(401)
  })
})

test('a private page gate: an old hash opens the page and is re-hashed', async () => {
  const owner = await ctx.createOwner('pro')
  const page = await ctx.createPage(owner.key, { slug: 'vault', name: 'Vault', visibility: 'private' })
  const old = await Bun.password.hash('gate password', { algorithm: 'argon2id' })
  await ctx.database.db.insertInto('page_access').values({ page_id: page.id, password_hash: old, embed_token_hash: null, updated_at: 0 }).execute()
  const unlock = await ctx.request('https://vault.status.test/_lantern/access', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.9' },
    body: new URLSearchParams({ password: 'gate password', next: '/' }).toString(),
  })
  expect(unlock.status).toBe(303)
  const stored = await ctx.database.db.selectFrom('page_access').select('password_hash').where('page_id', '=', page.id).executeTakeFirstOrThrow()
  expect(stored.password_hash).toMatch(CURRENT)
})
