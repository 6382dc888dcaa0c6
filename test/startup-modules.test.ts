/**
 * A feature's heavy library is loaded when the feature is first used, not at start: the server, run
 * as a user runs it (`bun src/main.ts`, its own process, SQLite), answers /healthz and its owner's
 * first requests without having loaded the PDF writer, mailauth, the PostgreSQL driver, nodemailer,
 * dns2, file-type, Swagger UI's files, the OpenAPI plugin (with @scalar/themes), the badge drawer
 * (badge-maker and its font tables), markdown-it, the OpenID client (single sign-on set up, its
 * login button shown), the QR code writer or the WebAuthn library with its ASN.1 and CBOR parsers
 * (the login page's passkey button shown). The child prints the packages in its module registry
 * (Bun's `require.cache` lists ES modules too), so the check reads what was loaded, not a guess.
 */
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..')
const dir = mkdtempSync(join(tmpdir(), 'lantern-startup-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Loaded only by the feature that needs them. */
const LAZY_PACKAGES = ['pdf-lib', 'mailauth', 'pg', 'nodemailer', 'dns2', 'file-type', 'swagger-ui-dist', 'openid-client', 'oauth4webapi', 'qrcode', 'pngjs', '@elysiajs/swagger', '@scalar/themes', 'badge-maker', 'anafanafo', 'markdown-it', '@simplewebauthn/server', '@peculiar/asn1-schema', '@peculiar/x509', '@levischuck/tiny-cbor']

/** Starts the server in a child process, asks `paths`, then prints the packages it has loaded. */
async function packagesLoadedAfter(paths: string[]): Promise<string[]> {
  const script = join(dir, `probe-${paths.length}.ts`)
  writeFileSync(
    script,
    `import { startServer } from ${JSON.stringify(join(ROOT, 'src/main.ts'))}
import { loadConfig } from ${JSON.stringify(join(ROOT, 'src/config.ts'))}
const config = loadConfig({ DATABASE_PATH: ${JSON.stringify(join(dir, `db-${paths.length}.sqlite`))}, PORT: '0', HOST: '127.0.0.1', BASE_URL: 'https://status.example.com', STATUS_DOMAIN: 'status.example.com', OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'lantern', OIDC_CLIENT_SECRET: 'secret' })
const server = await startServer(config, { log: () => {} })
const statuses = []
for (const path of ${JSON.stringify(paths)}) statuses.push((await fetch(server.url.replace(/\\/$/, '') + path, { headers: { host: 'status.example.com' } })).status)
const packages = new Set(Object.keys(require.cache).flatMap((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file)?.[1] ?? []))
console.log(JSON.stringify({ statuses, packages: [...packages].sort() }))
await server.stop()
`,
  )
  const child = Bun.spawn([process.execPath, script], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } })
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  if (code !== 0) throw new Error(`the server child failed (${code}): ${err}`)
  const report = JSON.parse(out.trim().split('\n').at(-1)!) as { statuses: number[]; packages: string[] }
  expect(report.statuses).toEqual(paths.map(() => 200))
  return report.packages
}

test('the server answers its first requests without loading the heavy libraries of features not used', async () => {
  // Single sign-on is set up: the login screen shows its button without loading the OpenID client.
  const loaded = await packagesLoadedAfter(['/healthz', '/', '/docs', '/user/login'])
  // The probe is real: the libraries every request needs are in the list.
  expect(loaded).toContain('elysia')
  expect(loaded).toContain('kysely')
  expect(loaded.filter((name) => LAZY_PACKAGES.includes(name))).toEqual([])
})
