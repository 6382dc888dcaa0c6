/**
 * At least once, across a kill -9: a real server process with 1,000 queued mails and a real SMTP
 * server; SIGKILL while it sends, restart, and every mail arrives (some may arrive twice: a mail
 * the relay accepted just before the kill, but not yet marked sent, goes out again).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../../src/db/client.ts'
import { migrateToLatest } from '../../../src/db/migrate.ts'
import { messageIdMaker } from '../../../src/modules/notify/mail.ts'
import { Outbox } from '../../../src/modules/notify/outbox.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { sharedClockEnv } from '../../helpers/shared-clock.ts'

const MAIN = join(import.meta.dir, '../../../src/main.ts')
const MAILS = 1000

let dir: string
let smtp: SmtpHarness

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-kill-'))
  smtp = await startSmtp()
})
afterAll(async () => {
  await smtp.close()
  rmSync(dir, { recursive: true, force: true })
})

function spawnServer(databasePath: string, extraEnv: Record<string, string> = {}) {
  return Bun.spawn([process.execPath, MAIN], {
    env: { PATH: process.env.PATH ?? '', ...sharedClockEnv(), PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: databasePath, ...smtp.env, ...extraEnv },
    stdout: 'pipe',
    stderr: 'pipe',
  })
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(10)
  }
}

const QUEUED_AT = Date.UTC(2026, 0, 1)

describe('the outbox across a kill -9', () => {
  test(`${MAILS} queued mails, SIGKILL mid-batch, restart: every mail delivered at least once`, async () => {
    const databasePath = join(dir, 'kill.sqlite')
    const seeded = openDatabase(databasePath)
    await migrateToLatest(seeded.db)
    await seeded.db.transaction().execute((trx) =>
      // Queued "long ago": due at once whatever the server process's clock says.
      new Outbox(true, { now: () => QUEUED_AT }, messageIdMaker('status@lantern.test', 'https://lantern.test')).enqueue(
        trx,
        Array.from({ length: MAILS }, (_, i) => ({ target: `address:reader${i}@example.com`, mail: { to: `reader${i}@example.com`, subject: `Update ${i}`, text: `Mail ${i}` } })),
      ),
    )
    const ids = (await seeded.db.selectFrom('outbox').select('id').execute()).map((row) => String(row.id))
    expect(ids).toHaveLength(MAILS)
    await seeded.close()

    const first = spawnServer(databasePath)
    // Kill as soon as the batch is under way, far from its end.
    await until(() => smtp.mails.length >= 20, 'the first mails')
    first.kill('SIGKILL')
    await first.exited
    const atKill = smtp.mails.length
    expect(atKill).toBeLessThan(MAILS)

    const check = openDatabase(databasePath)
    const sentBefore = Number((await check.db.selectFrom('outbox').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'sent').executeTakeFirstOrThrow()).n)
    expect(sentBefore).toBeLessThan(MAILS)

    const second = spawnServer(databasePath)
    const received = () => new Set(smtp.mails.map((mail) => mail.headers.get('x-lantern-delivery')))
    await until(() => {
      const got = received()
      return ids.every((id) => got.has(id))
    }, `all ${MAILS} mails`, 120_000)
    await until(
      async () => Number((await check.db.selectFrom('outbox').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'sent').executeTakeFirstOrThrow()).n) === MAILS,
      'every row marked sent',
    )
    second.kill('SIGTERM')
    expect(await second.exited).toBe(0)
    await check.close()

    // Each mail reached its own reader, with the Message-ID its row was queued with: a repeat keeps
    // it, and no two rows share one.
    const messageIds = new Map<string, string>()
    for (const mail of smtp.mails) {
      const id = mail.headers.get('x-lantern-delivery')!
      expect(mail.messageId).toMatch(/^<[A-Za-z0-9_-]{22}\.lantern\.test@lantern\.test>$/)
      expect(messageIds.get(id) ?? mail.messageId).toBe(mail.messageId!)
      messageIds.set(id, mail.messageId!)
    }
    expect(new Set(messageIds.values()).size).toBe(MAILS)
    const repeats = smtp.mails.length - received().size
    console.log(`kill -9: ${atKill} mails before the kill, ${sentBefore} marked sent, ${repeats} sent twice, ${MAILS} of ${MAILS} delivered`)
  }, 240_000)

  test('an unreadable SMTP_TLS_CA_FILE stops the start with one line', async () => {
    const proc = spawnServer(join(dir, 'ca.sqlite'), { SMTP_TLS_CA_FILE: join(dir, 'missing-ca.pem') })
    expect(await proc.exited).toBe(1)
    expect((await new Response(proc.stderr).text()).trim()).toBe(`lantern: SMTP_TLS_CA_FILE cannot be read: ${join(dir, 'missing-ca.pem')} (ENOENT)`)
  })
})
