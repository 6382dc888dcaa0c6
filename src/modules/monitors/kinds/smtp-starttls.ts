/**
 * The SMTP side of a STARTTLS check (RFC 3207): read the greeting, EHLO, STARTTLS, and hand back the
 * plain socket ready for the TLS handshake (edge: node:net). Bun's `tls.connect({ socket })` upgrades
 * an open net.Socket in place, as Node's does (checked on Bun 1.4.5; test/modules/monitors/ssl-check.test.ts).
 */
import { connect, type Socket } from 'node:net'
import { abortable } from '../../../lib/abortable.ts'

/** Replies longer than this are not SMTP: give up rather than buffer without end. */
const MAX_REPLY_BYTES = 16 * 1024

export class SmtpDialogError extends Error {}

/** Connects to address:port and runs the dialog up to "220 ready to start TLS"; the socket is then the caller's. */
export async function openSmtpStartTls(options: { address: string; port: number; ehloName: string; signal: AbortSignal }): Promise<Socket> {
  return (await openSmtpDialog({ ...options, startTls: true })).socket
}

export interface SmtpDialog {
  socket: Socket
  /** The greeting's text and the EHLO reply's lines (without codes). */
  banner: string
  ehlo: string[]
}

/**
 * The greeting (220) and EHLO (250); with `startTls`, STARTTLS must be offered and answer 220. The
 * socket is then the caller's (ready for the handshake, or for QUIT).
 */
export async function openSmtpDialog(options: { address: string; port: number; ehloName: string; signal: AbortSignal; startTls: boolean }): Promise<SmtpDialog> {
  const socket = connect({ host: options.address, port: options.port })
  const replies = replyReader(socket, options.signal)
  try {
    await abortable(
      new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve())
        socket.once('error', reject)
      }),
      options.signal,
    )
    const greeting = await replies.next()
    if (greeting.code !== 220) throw new SmtpDialogError(`SMTP greeting was ${greeting.code} ${greeting.text}`)
    socket.write(`EHLO ${options.ehloName}\r\n`)
    const ehlo = await replies.next()
    if (ehlo.code !== 250) throw new SmtpDialogError(`EHLO answered ${ehlo.code} ${ehlo.text}`)
    if (options.startTls) {
      if (!ehlo.lines.some((line) => /^STARTTLS\b/i.test(line))) throw new SmtpDialogError('the server does not offer STARTTLS')
      socket.write('STARTTLS\r\n')
      const ready = await replies.next()
      if (ready.code !== 220) throw new SmtpDialogError(`STARTTLS answered ${ready.code} ${ready.text}`)
    }
    replies.release()
    return { socket, banner: greeting.text, ehlo: ehlo.lines }
  } catch (error) {
    replies.release()
    socket.destroy()
    throw error
  }
}

/** The name we greet an SMTP server with: our own host name from the user agent's base URL, else "lantern". */
export function ehloName(userAgent: string | undefined): string {
  const url = /\+(https?:\/\/[^)\s]+)/.exec(userAgent ?? '')?.[1]
  try {
    return url ? new URL(url).hostname || 'lantern' : 'lantern'
  } catch {
    return 'lantern'
  }
}

interface Reply {
  code: number
  /** The text of every line, without the code. */
  lines: string[]
  text: string
}

/** Reads whole SMTP replies (multi-line "250-…" up to "250 …") off the socket. */
function replyReader(socket: Socket, signal: AbortSignal) {
  let buffer = ''
  let waiting: { resolve: (reply: Reply) => void; reject: (error: unknown) => void } | undefined
  let failure: unknown
  const take = (): Reply | undefined => {
    const lines = buffer.split('\r\n')
    for (let i = 0; i < lines.length - 1; i++) {
      const match = /^(\d{3})([ -])(.*)$/.exec(lines[i]!)
      if (!match) {
        failure = new SmtpDialogError(`not an SMTP reply: ${lines[i]!.slice(0, 80)}`)
        return undefined
      }
      if (match[2] === ' ') {
        const reply = lines.slice(0, i + 1).map((line) => line.slice(4))
        buffer = lines.slice(i + 1).join('\r\n')
        return { code: Number(match[1]), lines: reply, text: reply.join(' ').slice(0, 200) }
      }
    }
    if (buffer.length > MAX_REPLY_BYTES) failure = new SmtpDialogError('SMTP reply too long')
    return undefined
  }
  const settle = () => {
    if (!waiting) return
    const reply = failure ? undefined : take()
    if (failure) waiting.reject(failure)
    else if (reply) waiting.resolve(reply)
    else return
    waiting = undefined
  }
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('latin1')
    settle()
  }
  const onEnd = () => {
    failure ??= new SmtpDialogError('the server closed the connection during the SMTP dialog')
    settle()
  }
  const onError = (error: unknown) => {
    failure ??= error
    settle()
  }
  const onAbort = () => {
    failure ??= signal.reason
    settle()
  }
  socket.on('data', onData)
  socket.on('end', onEnd)
  socket.on('error', onError)
  signal.addEventListener('abort', onAbort, { once: true })
  return {
    next: () =>
      new Promise<Reply>((resolve, reject) => {
        waiting = { resolve, reject }
        settle()
      }),
    /** Stops reading: the TLS layer takes the socket from here. */
    release() {
      socket.off('data', onData)
      socket.off('end', onEnd)
      socket.off('error', onError)
      signal.removeEventListener('abort', onAbort)
    },
  }
}
