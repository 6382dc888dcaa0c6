/**
 * Uploads of the Import screen (importers/uploads.ts): the same plans as `lantern import` from a
 * file's bytes; a Kuma database in WAL mode (as Kuma runs it) reads without its -wal file; the
 * temporary copy is gone after a run and after a failed one; sizes, SQLite's header and UTF-8 are
 * checked before anything is written.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HttpError } from '../../../src/lib/errors.ts'
import { readKumaDatabase } from '../../../src/modules/importers/kuma-read.ts'
import { planFromKuma } from '../../../src/modules/importers/kuma-map.ts'
import { readGatusConfig } from '../../../src/modules/importers/gatus-read.ts'
import { planFromGatus } from '../../../src/modules/importers/gatus-map.ts'
import { gatusPlanFromUpload, kumaPlanFromUpload } from '../../../src/modules/importers/uploads.ts'
import { GATUS_UPLOAD_MAX_BYTES, KUMA_UPLOAD_MAX_BYTES } from '../../../src/modules/importers/types.ts'

const FIXTURES = join(import.meta.dir, '../../fixtures/importers')
const KUMA2 = join(FIXTURES, 'uptime-kuma-2.5.3.db')
const GATUS = join(FIXTURES, 'gatus-config.yaml')

let root: string
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'uploads-test-'))
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

const failure = async (run: () => unknown): Promise<{ status: number; message: string }> => {
  try {
    await run()
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, message: error.message }
    throw error
  }
  throw new Error('it did not fail')
}

test('a Kuma database from its bytes is the plan the command makes; in WAL mode too; no copy is left', async () => {
  const plan = await kumaPlanFromUpload(new Uint8Array(readFileSync(KUMA2)), 'kuma.db', { tempRoot: root })
  expect(plan).toEqual(planFromKuma(readKumaDatabase(KUMA2)))
  const wal = join(root, 'wal.db')
  copyFileSync(KUMA2, wal)
  const db = new Database(wal)
  db.run('PRAGMA journal_mode = WAL')
  db.close()
  const bytes = new Uint8Array(readFileSync(wal))
  expect([bytes[18], bytes[19]]).toEqual([2, 2])
  expect((await kumaPlanFromUpload(bytes, 'kuma.db', { tempRoot: root })).monitors.length).toBe(plan.monitors.length)
  expect(readdirSync(root).filter((name) => name.startsWith('lantern-import-'))).toEqual([])
})

test('what is not a Kuma database is refused by its chosen name, and no copy is left', async () => {
  expect(await failure(() => kumaPlanFromUpload(new Uint8Array(), 'kuma.db', { tempRoot: root }))).toEqual({ status: 400, message: 'kuma.db is empty: choose an Uptime Kuma database' })
  expect(await failure(() => kumaPlanFromUpload(new TextEncoder().encode('hello'), 'kuma.db', { tempRoot: root }))).toMatchObject({ status: 400, message: expect.stringMatching(new RegExp(`^${RegExp.escape('kuma.db is not an SQLite database')}`)) })
  expect(await failure(() => kumaPlanFromUpload(new Uint8Array(KUMA_UPLOAD_MAX_BYTES + 1), 'huge.db', { tempRoot: root }))).toMatchObject({ status: 413, message: expect.stringMatching(new RegExp(`^${RegExp.escape('huge.db is larger than 50 MB')}`)) })
  // An SQLite header over damaged pages: it is written, read, refused, and removed.
  const damaged = new Uint8Array(readFileSync(KUMA2))
  damaged.fill(0x5a, 100, 60_000)
  const refused = await failure(() => kumaPlanFromUpload(damaged, 'damaged.db', { tempRoot: root }))
  expect(refused.status).toBe(400)
  expect(refused.message).toStartWith('damaged.db ')
  expect(refused.message).not.toContain(root)
  expect(readdirSync(root).filter((name) => name.startsWith('lantern-import-'))).toEqual([])
})

test('a Gatus configuration from its bytes; bad YAML, not UTF-8 and too large are refused', async () => {
  expect(gatusPlanFromUpload(new Uint8Array(readFileSync(GATUS)), 'config.yaml')).toEqual(planFromGatus(await readGatusConfig(GATUS)))
  expect(await failure(() => gatusPlanFromUpload(new TextEncoder().encode('a: [\n'), 'config.yaml'))).toMatchObject({ status: 400, message: expect.stringMatching(new RegExp(`^${RegExp.escape('config.yaml is not valid YAML')}`)) })
  expect(await failure(() => gatusPlanFromUpload(Uint8Array.of(0xff, 0xfe, 0x41), 'config.yaml'))).toEqual({ status: 400, message: 'config.yaml is not a Gatus configuration (not UTF-8 text)' })
  expect(await failure(() => gatusPlanFromUpload(new Uint8Array(GATUS_UPLOAD_MAX_BYTES + 1).fill(0x61), 'big.yaml'))).toMatchObject({ status: 413, message: expect.stringMatching(new RegExp(`^${RegExp.escape('big.yaml is larger than 1 MB')}`)) })
})
