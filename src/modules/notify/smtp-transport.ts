/**
 * The mail edge: the only file that knows nodemailer and reads the CA and DKIM key files. A pool
 * of 5 connections with short timeouts (a status service must not hang on a dead relay), STARTTLS
 * required when SMTP_SECURITY=starttls, the server's certificate always verified (a private CA
 * through SMTP_TLS_CA_FILE), DKIM signing when configured.
 */
import { readFileSync } from 'node:fs'
import type { Transporter } from 'nodemailer'
import { ConfigError, type MailConfig } from '../../config.ts'
import type { MailSender, SendableMail } from './mail.ts'

export const SMTP_POOL_SIZE = 5

/**
 * The header fields DKIM signs: nodemailer's default list (RFC 6376 §5.4.1) plus
 * List-Unsubscribe-Post, which RFC 8058 §4 requires to be signed with List-Unsubscribe for
 * one-click unsubscribe. A field a mail does not carry is left out of the signature's h= list.
 */
export const DKIM_SIGNED_HEADERS = [
  'From', 'Sender', 'Reply-To', 'Subject', 'Date', 'Message-ID', 'To', 'Cc', 'MIME-Version', 'Content-Type',
  'Content-Transfer-Encoding', 'Content-ID', 'Content-Description', 'Resent-Date', 'Resent-From', 'Resent-Sender',
  'Resent-To', 'Resent-Cc', 'Resent-Message-ID', 'In-Reply-To', 'References', 'List-Id', 'List-Help',
  'List-Unsubscribe', 'List-Unsubscribe-Post', 'List-Subscribe', 'List-Post', 'List-Owner', 'List-Archive',
].join(':')
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const

export function createSmtpSender(config: MailConfig): MailSender {
  if (!config.enabled || !config.host || !config.from) throw new Error('createSmtpSender needs SMTP_HOST and MAIL_FROM')
  const ca = config.tlsCaFile ? readSetting('SMTP_TLS_CA_FILE', config.tlsCaFile) : undefined
  const dkim = config.dkim
    ? { domainName: config.dkim.domain, keySelector: config.dkim.selector, privateKey: readSetting('DKIM_PRIVATE_KEY_FILE', config.dkim.privateKeyFile), headerFieldNames: DKIM_SIGNED_HEADERS }
    : undefined
  const options = {
    pool: true,
    maxConnections: SMTP_POOL_SIZE,
    host: config.host,
    port: config.port,
    secure: config.security === 'tls',
    requireTLS: config.security === 'starttls',
    ignoreTLS: config.security === 'none',
    auth: config.user !== undefined ? { user: config.user, pass: config.password ?? '' } : undefined,
    tls: { rejectUnauthorized: true, ...(ca ? { ca } : {}) },
    ...SMTP_TIMEOUTS,
    ...(dkim ? { dkim } : {}),
  }
  // nodemailer is loaded on the first mail: CLI commands and mail-less runs do not pay for it.
  let transport: Promise<Transporter> | undefined
  const open = () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options)))
  const from = config.from
  return {
    from,
    async send(mail: SendableMail): Promise<void> {
      await (await open()).sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html !== undefined ? { html: mail.html } : {}),
        messageId: mail.messageId,
        headers: safeHeaders(mail.headers ?? {}),
        attachments: (mail.attachments ?? []).map((file) => ({ filename: file.filename, contentType: file.contentType, content: file.contentBase64, encoding: 'base64' })),
      })
    },
    async close(): Promise<void> {
      if (transport) (await transport).close()
    },
  }
}

/** Header names are tokens and values one line: nothing a delivery carries can add a header. */
function safeHeaders(headers: Record<string, string>): Record<string, string> {
  const safe: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) safe[name] = String(value).replace(/[\r\n]+/g, ' ')
  }
  return safe
}

function readSetting(name: string, path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    throw new ConfigError(`${name} cannot be read: ${path} (${(error as { code?: string }).code ?? (error as Error).message})`)
  }
}
