/** `lantern probe-token create|list|revoke` on the suite's database: printed once, listed without the secret, revoked → 401. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../../src/cli.ts'
import { freshTestDatabase, type TestDatabase } from '../../helpers/database.ts'
import { ProbesRepo } from '../../../src/modules/probes/repo.ts'

let dir: string
let database: TestDatabase
let env: Record<string, string>
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-probe-cli-'))
  database = await freshTestDatabase(dir)
  env = { BASE_URL: 'https://lantern.test', ...database.env }
})
afterAll(async () => {
  await database.dispose()
  rmSync(dir, { recursive: true, force: true })
})

async function cli(...args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(args, env, { out: (line) => out.push(line), err: (line) => err.push(line) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

test('create prints the token once; list never shows it; revoke ends it and its region', async () => {
  const created = await cli('probe-token', 'create', '--region', 'eu-west')
  expect(created.code).toBe(0)
  expect(created.out).toMatch(/^lpt_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/)
  const token = created.out
  // Only a hash is stored.
  const rows = await new ProbesRepo(database.handle.db).listTokens()
  expect(JSON.stringify(rows)).not.toContain(token.slice(17))

  const listed = await cli('probe-token', 'list')
  expect(listed.code).toBe(0)
  const line = JSON.parse(listed.out)
  expect(line).toMatchObject({ id: 1, region: 'eu-west', prefix: token.slice(0, 16), last_used_at: null, revoked: false })
  expect(listed.out).not.toContain(token.slice(17))

  const revoked = await cli('probe-token', 'revoke', '--id', String(line.id))
  expect(revoked.code).toBe(0)
  expect(JSON.parse(revoked.out).revoked).toBe(true)
  expect(await new ProbesRepo(database.handle.db).liveRegions()).toEqual([])
})

test('bad input: one line, exit 1', async () => {
  for (const [args, message] of [
    [['probe-token', 'create'], '--region is required'],
    [['probe-token', 'create', '--region', 'EU West'], '--region must be a short name'],
    [['probe-token', 'create', '--region', 'local'], 'region "local" is the server itself'],
    [['probe-token', 'revoke', '--id', 'x'], '--id must be a positive integer'],
    [['probe-token', 'revoke', '--id', '999'], 'no probe token 999'],
  ] as const) {
    const result = await cli(...args)
    expect(result.code).toBe(1)
    expect(result.err).toContain(message)
    expect(result.err.split('\n')).toHaveLength(1)
  }
})
