/**
 * A real SMTP server for tests (smtp-server on 127.0.0.1), with STARTTLS (or implicit TLS) under a
 * throwaway CA and a login, parsing every received mail with mailparser.
 *
 *   const smtp = await startSmtp()
 *   const ctx = await createTestContext({ env: { ...smtp.env } })
 *   …enqueue, then await ctx.app.services.outboxWorker.drain()
 *   const mail = await smtp.waitFor((m) => m.to === 'a@example.com')
 *   await smtp.close()
 *
 * `env` holds the SMTP_* settings and MAIL_FROM to pass to the test context or a spawned server.
 */
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer, type SMTPServerAddress } from 'smtp-server'
import { testCa } from './tls-ca.ts'

export interface ReceivedMail {
  /** The envelope: MAIL FROM and RCPT TO as the server saw them. */
  envelopeFrom: string
  envelopeTo: string[]
  /** First recipient of the `To` header (lower case). */
  to: string
  subject: string
  text: string
  html: string | undefined
  messageId: string | undefined
  /** Header values by lower-case name, as strings (mailparser's `headerLines`, unfolded). */
  headers: Map<string, string>
  /** The raw message as received. */
  raw: string
  /** Whether the session was encrypted (STARTTLS or implicit TLS). */
  secure: boolean
  parsed: ParsedMail
}

export interface SmtpHarness {
  port: number
  env: Record<string, string>
  mails: ReceivedMail[]
  /** Resolves with the first mail (already received or arriving within `timeoutMs`) that matches. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
  /** Resolves once `count` mails have arrived. */
  waitForCount(count: number, timeoutMs?: number): Promise<void>
  /** Refuse the next `count` messages with a 451 (temporary failure). */
  refuseNext(count: number): void
  close(): Promise<void>
}

export const SMTP_TEST_USER = 'lantern'
export const SMTP_TEST_PASSWORD = 'smtp-test-password'

export async function startSmtp(options: { security?: 'starttls' | 'tls' | 'none'; from?: string } = {}): Promise<SmtpHarness> {
  const security = options.security ?? 'starttls'
  const ca = testCa()
  const mails: ReceivedMail[] = []
  const waiters = new Set<() => void>()
  let refusals = 0
  let parsing = Promise.resolve()

  async function record(raw: string, session: { envelopeFrom: string; envelopeTo: string[]; secure: boolean }): Promise<void> {
    const parsed = await simpleParser(raw)
    const headers = new Map<string, string>()
    for (const line of parsed.headerLines) {
      const value = line.line.slice(line.line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim()
      headers.set(line.key.toLowerCase(), value)
    }
    const toField = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to
    mails.push({
      envelopeFrom: session.envelopeFrom,
      envelopeTo: session.envelopeTo,
      to: (toField?.value[0]?.address ?? '').toLowerCase(),
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : undefined,
      messageId: parsed.messageId,
      headers,
      raw,
      secure: session.secure,
      parsed,
    })
    for (const wake of waiters) wake()
  }
  const server = new SMTPServer({
    secure: security === 'tls',
    disabledCommands: security === 'none' ? ['STARTTLS', 'AUTH'] : [],
    ...(security !== 'none' ? { key: ca.key, cert: ca.cert } : {}),
    authOptional: security === 'none',
    allowInsecureAuth: false,
    logger: false,
    size: 10 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_TEST_USER && auth.password === SMTP_TEST_PASSWORD) return callback(null, { user: auth.username })
      callback(new Error('invalid login'))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (refusals > 0) {
          refusals--
          const error = new Error('try again later') as Error & { responseCode: number }
          error.responseCode = 451
          return callback(error)
        }
        const raw = Buffer.concat(chunks).toString('utf8')
        // Accept first, parse after: the relay's answer does not wait for the test's bookkeeping.
        const seen = { envelopeFrom: envelopeAddress(session.envelope.mailFrom), envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), secure: session.secure }
        callback()
        parsing = parsing.then(() => record(raw, seen)).catch((error) => console.error('smtp harness: cannot parse a mail', error))
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  // A client that vanishes mid-session (a killed server process) is an event, not a test failure.
  server.on('error', () => {})
  const port = (server.server.address() as { port: number }).port

  const env: Record<string, string> = {
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(port),
    SMTP_SECURITY: security,
    MAIL_FROM: options.from ?? 'Lantern <status@lantern.test>',
    ...(security !== 'none' ? { SMTP_USER: SMTP_TEST_USER, SMTP_PASSWORD: SMTP_TEST_PASSWORD, SMTP_TLS_CA_FILE: ca.caFile } : {}),
  }

  function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (check()) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const wake = () => {
        if (!check()) return
        clearTimeout(timer)
        waiters.delete(wake)
        resolve()
      }
      const timer = setTimeout(() => {
        waiters.delete(wake)
        reject(new Error(`smtp harness: ${what} not received within ${timeoutMs} ms (${mails.length} mails so far)`))
      }, timeoutMs)
      waiters.add(wake)
    })
  }

  return {
    port,
    env,
    mails,
    async waitFor(predicate, timeoutMs = 10_000) {
      await until(() => mails.some(predicate), timeoutMs, 'a matching mail')
      return mails.find(predicate)!
    },
    waitForCount(count, timeoutMs = 10_000) {
      return until(() => mails.length >= count, timeoutMs, `${count} mails`)
    },
    refuseNext(count) {
      refusals = count
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

const envelopeAddress = (address: SMTPServerAddress | false) => (address ? address.address : '')
