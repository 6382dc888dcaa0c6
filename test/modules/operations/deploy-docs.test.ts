/**
 * The operations guide's deployment recipes as written: the systemd units start on a fresh machine
 * (every path they write is one systemd or the unit itself creates; the old unit failed until
 * /var/backups/lantern existed) and are hardened, and the one Caddyfile is the file the container
 * example mounts (the README points at the guide instead of copying it). Where systemd-analyze or
 * Caddy are installed (Debian's `systemd`, `caddy`), they check the files too; elsewhere those tests
 * are skipped.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '../../..')
const guide = readFileSync(join(ROOT, 'src/content/docs/operations.md'), 'utf8')
const blocks = (language: string) => [...guide.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!)
const unitNamed = (name: string) => {
  const unit = blocks('ini').find((block) => block.startsWith(`# /etc/systemd/system/${name}\n`))
  if (!unit) throw new Error(`the guide has no ${name}`)
  return unit
}
/** Every value of `key=` in a unit, split on whitespace ("-" and "+" prefixes kept). */
const values = (unit: string, key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].flatMap((m) => m[1]!.trim().split(/\s+/)).filter(Boolean)
const which = (tool: string) => Bun.which(tool) !== null

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-deploy-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('systemd units', () => {
  const units = ['lantern.service', 'lantern-backup.service']

  test.each(units)('%s writes only where systemd or the unit itself creates the folder first', (name) => {
    const unit = unitNamed(name)
    const created = [
      ...values(unit, 'StateDirectory').map((path) => `/var/lib/${path}`),
      // `ExecStartPre=+/usr/bin/install -d … PATH`: made with full privileges before the start.
      ...[...unit.matchAll(/^ExecStartPre=\+\S*install -d .* (\/\S+)$/gm)].map((m) => m[1]!),
    ]
    const writable = values(unit, 'ReadWritePaths').filter((path) => !path.startsWith('-'))
    expect(writable.filter((path) => !created.some((folder) => path === folder || path.startsWith(`${folder}/`)))).toEqual([])
    const database = /^Environment=DATABASE_PATH=(.*)$/m.exec(unit)?.[1]
    expect(database).toBeDefined()
    expect(created.some((folder) => database!.startsWith(`${folder}/`))).toBe(true)
    const workdir = values(unit, 'WorkingDirectory')[0]
    if (workdir) expect(created).toContain(workdir)
  })

  test('the server unit stops gracefully: SIGTERM, time to finish, and the workers get it through the first process', () => {
    const unit = unitNamed('lantern.service')
    expect(values(unit, 'KillSignal')).toEqual(['SIGTERM'])
    expect(values(unit, 'KillMode')).toEqual(['mixed'])
    expect(Number(values(unit, 'TimeoutStopSec')[0])).toBeGreaterThanOrEqual(15)
    // Bun's JIT needs writable code pages: this setting would kill the server at start.
    expect(values(unit, 'MemoryDenyWriteExecute')).toEqual([])
  })

  test.skipIf(!which('systemd-analyze'))('systemd-analyze verifies the units and rates the server unit as the guide says, OK or better', async () => {
    // verify wants the executable to exist: a stand-in in a temporary folder.
    const binary = join(dir, 'lantern')
    writeFileSync(binary, '#!/bin/sh\n')
    chmodSync(binary, 0o755)
    const files = [...units, 'lantern-backup.timer'].map((name) => {
      const file = join(dir, name)
      writeFileSync(file, unitNamed(name).replaceAll('/usr/local/bin/lantern', binary))
      return file
    })
    const verify = Bun.spawnSync(['systemd-analyze', 'verify', ...files], { stderr: 'pipe' })
    expect(verify.stderr.toString()).toBe('')
    expect(verify.exitCode).toBe(0)
    const security = Bun.spawnSync(['systemd-analyze', 'security', '--offline=true', '--no-pager', files[0]!], { stdout: 'pipe', stderr: 'pipe' })
    const [, figure, rating] = /Overall exposure level for lantern\.service: ([\d.]+) (\w+)/.exec(security.stdout.toString() + security.stderr.toString()) ?? []
    expect(['OK', 'SAFE', 'PERFECT']).toContain(rating!)
    expect(guide).toContain(`rates it **${figure} ${rating}**`)
    expect(unitNamed('lantern.service')).toContain(`rates this unit ${figure} ${rating}.`)
  })
})

describe('the Caddyfile', () => {
  const caddyfile = readFileSync(join(ROOT, '.docker/Caddyfile'), 'utf8')
  const documented = blocks('caddyfile')

  test('the guide shows exactly one Caddyfile, the one the container example mounts', () => {
    expect(documented).toEqual([caddyfile])
  })

  test('the README keeps no second copy that could drift: it sends readers to the guide that holds it', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    expect(readme).not.toContain('```caddyfile')
    const operationsLine = readme.split('\n').findIndex((line) => line.includes('](src/content/docs/operations.md)'))
    expect(operationsLine).toBeGreaterThan(-1)
    expect(readme.split('\n').slice(operationsLine, operationsLine + 3).join(' ')).toContain('Caddyfile')
  })

  // The [DNS] block's `tls { dns … }` is the only part that needs a Caddy with a DNS module.
  const withoutDnsModule = caddyfile.replace(/\ttls \{\n\t\tdns [^\n]*\n\t\}\n/, '')

  test.skipIf(!which('caddy'))("Debian's Caddy reads it all except the DNS module of the [DNS] block", () => {
    expect(withoutDnsModule).not.toBe(caddyfile)
    const file = join(dir, 'Caddyfile')
    writeFileSync(file, caddyfile)
    const full = Bun.spawnSync(['caddy', 'adapt', '--config', file, '--adapter', 'caddyfile'], { stdout: 'pipe', stderr: 'pipe' })
    expect(full.exitCode).toBe(1)
    expect(full.stderr.toString()).toContain('module not registered: dns.providers.cloudflare')
    writeFileSync(file, withoutDnsModule)
    const stock = Bun.spawnSync(['caddy', 'adapt', '--config', file, '--adapter', 'caddyfile'], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, LANTERN_UPSTREAM: 'lantern:3000' } })
    expect(stock.stderr.toString()).not.toContain('Error')
    expect(stock.exitCode).toBe(0)
    const json = stock.stdout.toString()
    expect(json).toContain('"ask":"http://lantern:3000/api/tls/ask"')
    expect(json.match(/"dial":"lantern:3000"/g)).toHaveLength(3)
    // Without LANTERN_UPSTREAM: Lantern on the same machine.
    const local = Bun.spawnSync(['caddy', 'adapt', '--config', file, '--adapter', 'caddyfile'], { stdout: 'pipe', stderr: 'pipe', env: { PATH: process.env.PATH ?? '' } })
    expect(local.stdout.toString()).toContain('"ask":"http://127.0.0.1:3000/api/tls/ask"')
  })
})
