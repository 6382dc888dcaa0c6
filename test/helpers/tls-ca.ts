/**
 * A throwaway certificate authority for local TLS servers in tests (the SMTP harness): one CA and
 * one server certificate for 127.0.0.1 and localhost, made with `openssl` once per test process.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TestCa {
  dir: string
  /** PEM paths and contents. */
  caFile: string
  ca: string
  key: string
  cert: string
}

let made: TestCa | undefined

export function testCa(): TestCa {
  if (made) return made
  const dir = mkdtempSync(join(tmpdir(), 'lantern-ca-'))
  const run = (...args: string[]) => {
    const result = Bun.spawnSync(['openssl', ...args], { cwd: dir, stderr: 'pipe', stdout: 'pipe' })
    if (result.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr.toString()}`)
  }
  run('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Lantern test CA')
  run('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost')
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n')
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext')
  made = {
    dir,
    caFile: join(dir, 'ca.pem'),
    ca: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
  }
  return made
}
