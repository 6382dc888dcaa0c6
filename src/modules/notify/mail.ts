/** What the outbox worker needs from a mail transport (smtp-transport.ts is the real one), and the mail's own words. */
import { randomToken } from '../../lib/crypto.ts'
import { escapeHtml, html } from '../../lib/html.ts'
import type { OutboundMail } from './contract.ts'

/** An outbound mail with its Message-ID (made when it was queued: the same on every retry). */
export interface SendableMail extends OutboundMail {
  messageId: string
}

export interface MailSender {
  /** The MAIL_FROM address the mails carry. */
  readonly from: string
  /** Resolves once the relay accepted the mail; throws when it did not. */
  send(mail: SendableMail): Promise<void>
  close(): Promise<void>
}

/** The domain of a From address (`Name <a@b.example>` → `b.example`), for Message-IDs. */
export function fromDomain(from: string): string {
  const match = /@([^\s<>@]+?)>?\s*$/.exec(from)
  return match?.[1]?.toLowerCase() ?? 'lantern.invalid'
}

/**
 * Makes Message-IDs `<random.instance@from-domain>`: 128 random bits, the instance's host name
 * (BASE_URL) and the From domain. One is made when a delivery is queued and kept in its row, so
 * every retry of that delivery carries it (receivers drop repeats by it), while a fresh database,
 * a restored backup or a second instance sending from the same domain never repeats one.
 */
export function messageIdMaker(from: string, baseUrl: string): () => string {
  const domain = fromDomain(from)
  const instance = new URL(baseUrl).hostname.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/\.{2,}/g, '.').replace(/^[.-]+|[.-]+$/g, '') || 'lantern'
  return () => `<${randomToken(16)}.${instance}@${domain}>`
}

/** A mail's HTML part as a whole document (language, charset, title), around `body` (already escaped). */
/** `lang`: the language the mail is written in (a subscriber's mails are in theirs). */
export const htmlMailDocument = (title: string, body: string, lang = 'en'): string =>
  html`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head><body>!${body}</body></html>`

const LINK = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]/g

/**
 * The HTML part of a mail written as plain text only: paragraphs at blank lines, line breaks kept,
 * web addresses as links, everything else escaped. Every mail goes out with a text and an HTML part.
 */
export function textAsHtml(title: string, text: string): string {
  const paragraphs = text.trim().split(/\n{2,}/).map((paragraph) => {
    const lines = paragraph.split('\n').map((line) => {
      let out = ''
      let last = 0
      for (const match of line.matchAll(LINK)) {
        out += escapeHtml(line.slice(last, match.index)) + html`<a href="${match[0]}">${match[0]}</a>`
        last = match.index + match[0].length
      }
      return out + escapeHtml(line.slice(last))
    })
    return `<p>${lines.join('<br>')}</p>`
  })
  return htmlMailDocument(title, paragraphs.join(''))
}
