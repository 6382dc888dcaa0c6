import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { argon2idHasher } from '../../src/lib/password.ts'
import { createServices } from '../../src/services.ts'
import { fastTestHasher } from '../helpers/password.ts'

const dir = mkdtempSync(join(tmpdir(), 'lantern-password-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('the production hasher stores argon2id and checks it; an unreadable hash is false, not an error', async () => {
  const hash = await argon2idHasher.hash('correct horse battery')
  expect(hash.startsWith('$argon2id$')).toBe(true)
  expect(await argon2idHasher.verify('correct horse battery', hash)).toBe(true)
  expect(await argon2idHasher.verify('wrong horse battery', hash)).toBe(false)
  expect(await argon2idHasher.verify('x', 'not a hash')).toBe(false)
})

test('without a hasher, createServices hashes with argon2id (the CLI and the server pass none)', async () => {
  const database = openDatabase(join(dir, 'db.sqlite'))
  await migrateToLatest(database.db)
  const services = createServices({ db: database.db, config: loadConfig({ DATABASE_PATH: join(dir, 'db.sqlite') }) })
  await services.accounts.createUser({ email: 'a@example.com', password: 'correct horse battery' })
  const row = await database.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow()
  expect(row.password_hash.startsWith('$argon2id$')).toBe(true)
  await database.close()
})

test('the fast test hasher is salted, checks passwords and never accepts a real hash', async () => {
  const [a, b] = [await fastTestHasher.hash('secret!!1'), await fastTestHasher.hash('secret!!1')]
  expect(a).not.toBe(b)
  expect(await fastTestHasher.verify('secret!!1', a)).toBe(true)
  expect(await fastTestHasher.verify('secret!!2', a)).toBe(false)
  expect(await fastTestHasher.verify('secret!!1', await argon2idHasher.hash('secret!!1'))).toBe(false)
})
