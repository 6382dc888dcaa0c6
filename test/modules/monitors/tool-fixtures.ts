/**
 * Fixtures for the SSL and DNSBL monitors (issue 16): a throwaway three-level PKI made by openssl
 * (root → intermediate → leaves: valid, expired, wrong host, a 1024-bit RSA key), TLS servers on
 * 127.0.0.1 that send the full chain or only the leaf, and an SMTP responder that upgrades on STARTTLS.
 */
import { createSocket } from 'node:dgram'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSecureContext, createServer as createTlsServer, TLSSocket, type Server as TlsServer } from 'node:tls'

export interface Leaf {
  /** The leaf alone, PEM. */
  cert: string
  key: string
  notBefore: number
  notAfter: number
}

export interface ChainPki {
  root: string
  intermediate: string
  valid: Leaf
  /** The same host, valid 90 days: what a renewal looks like. */
  renewed: Leaf
  expired: Leaf
  wrongHost: Leaf
  weakKey: Leaf
}

/** Root and intermediate CAs; leaves for `host` (valid 40 days), expired, for another host, and RSA-1024. */
export function makeChainPki(host: string): ChainPki {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-chain-'))
  try {
    const run = (...args: string[]) => {
      const result = Bun.spawnSync(['openssl', ...args], { cwd: dir, stderr: 'pipe' })
      if (result.exitCode !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${result.stderr.toString()}`)
      return result.stdout.toString()
    }
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
    writeFileSync(join(dir, 'ca.cnf'), 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n')
    run('req', '-x509', ...ec, '-keyout', 'root.key', '-out', 'root.pem', '-days', '3650', '-subj', '/CN=Lantern Test Root', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign')
    run('req', ...ec, '-keyout', 'int.key', '-out', 'int.csr', '-subj', '/CN=Lantern Test Intermediate')
    run('x509', '-req', '-in', 'int.csr', '-CA', 'root.pem', '-CAkey', 'root.key', '-CAcreateserial', '-out', 'int.pem', '-days', '3650', '-extfile', 'ca.cnf')
    const leaf = (name: string, cn: string, days: number, keyArgs: string[]): Leaf => {
      run('req', ...keyArgs, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`)
      writeFileSync(join(dir, `${name}.cnf`), `subjectAltName=DNS:${cn}\nbasicConstraints=CA:FALSE\n`)
      run('x509', '-req', '-in', `${name}.csr`, '-CA', 'int.pem', '-CAkey', 'int.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', String(days), '-sha256', '-extfile', `${name}.cnf`)
      const date = (flag: string) => Date.parse(run('x509', '-in', `${name}.pem`, '-noout', flag).trim().replace(/^not(Before|After)=/, ''))
      return { cert: readFileSync(join(dir, `${name}.pem`), 'utf8'), key: readFileSync(join(dir, `${name}.key`), 'utf8'), notBefore: date('-startdate'), notAfter: date('-enddate') }
    }
    return {
      root: readFileSync(join(dir, 'root.pem'), 'utf8'),
      intermediate: readFileSync(join(dir, 'int.pem'), 'utf8'),
      valid: leaf('valid', host, 40, ec),
      renewed: leaf('renewed', host, 90, ec),
      // -days -1: notAfter a day before notBefore, so it is expired the moment it is made.
      expired: leaf('expired', host, -1, ec),
      wrongHost: leaf('wrong', `other-${host}`, 40, ec),
      weakKey: leaf('weak', host, 40, ['-newkey', 'rsa:1024', '-nodes']),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface Listening {
  port: number
  close(): Promise<void>
}

/** A TLS server on 127.0.0.1 presenting `cert` (PEM, leaf first, chain after). */
export async function startTlsServer(cert: string, key: string): Promise<Listening> {
  const server: TlsServer = createTlsServer({ cert, key }, (socket) => socket.end('hello\n'))
  return listen(server)
}

/**
 * An SMTP responder on 127.0.0.1: greets, answers EHLO (offering STARTTLS unless `offerStartTls`
 * is false), and on STARTTLS says 220 and upgrades the same socket to TLS with `cert`.
 */
export async function startSmtpStartTls(cert: string, key: string, options: { offerStartTls?: boolean } = {}): Promise<Listening & { ehlos: string[] }> {
  const context = createSecureContext({ cert, key })
  const ehlos: string[] = []
  const server: NetServer = createNetServer((socket: Socket) => {
    let buffer = ''
    socket.on('error', () => {})
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('latin1')
      let end: number
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        if (/^EHLO /i.test(line)) {
          ehlos.push(line.slice(5))
          socket.write(options.offerStartTls === false ? '250-test.local\r\n250 SIZE 1000000\r\n' : '250-test.local\r\n250-SIZE 1000000\r\n250 STARTTLS\r\n')
        } else if (/^STARTTLS$/i.test(line)) {
          socket.off('data', onData)
          socket.write('220 2.0.0 Ready to start TLS\r\n', () => {
            const secure = new TLSSocket(socket, { isServer: true, secureContext: context })
            secure.on('error', () => {})
          })
          return
        } else if (/^QUIT$/i.test(line)) socket.end('221 bye\r\n')
        else socket.write('502 5.5.2 not here\r\n')
      }
    }
    socket.on('data', onData)
    socket.write('220 test.local ESMTP ready\r\n')
  })
  const listening = await listen(server)
  return { ...listening, ehlos }
}

function listen(server: NetServer | TlsServer): Promise<Listening> {
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          }),
      })
    })
  })
}

/** A UDP "resolver" on 127.0.0.1 that reads queries and never answers: a zone that times out. */
export async function startSilentResolver(): Promise<{ address: string; close(): Promise<void> }> {
  const socket = createSocket('udp4')
  socket.on('message', () => {})
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()))
  return { address: `127.0.0.1:${socket.address().port}`, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) }
}
