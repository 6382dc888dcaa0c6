/**
 * The command-line entry (`bun run cli …` in a checkout, the same subcommands in the binary). Every
 * command goes through the same services as the HTTP API. Wrong input: one line on stderr, exit 1.
 */
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from './config.ts'
import { openConfiguredDatabase } from './db/open.ts'
import { migrateToLatest } from './db/migrate.ts'
import { announceChangesOverPostgres } from './db/postgres-changes.ts'
import { ChangeFeed } from './lib/change-feed.ts'
import { HttpError } from './lib/errors.ts'
import { toIso } from './lib/time.ts'
import { runFromEnvironment } from './main.ts'
import { APP_VERSION } from './lib/version.ts'
import { backupDatabase } from './modules/operations/backup.ts'
import { checkHealth } from './modules/operations/healthcheck.ts'
import { apiKeyJson } from './modules/accounts/api-keys.ts'
import type { User } from './modules/accounts/service.ts'
import { createServices, type Services } from './services.ts'
import { monitorCommands } from './modules/monitors/cli.ts'
import { DEFAULT_RDAP_BOOTSTRAP_PATH, IANA_RDAP_DNS_URL, refreshBootstrap } from './modules/monitors/kinds/index.ts'
import { transferCommands } from './modules/transfers/cli.ts'
import { probeTokenCommands } from './modules/probes/cli.ts'
import { runProbeCommand } from './modules/probes/command.ts'
import { importCommands } from './modules/importers/cli.ts'
import { configCommands } from './modules/config-as-code/cli.ts'
import type { CliCommand } from './lib/cli-flags.ts'

export const USAGE = `Usage: lantern <command>

  serve                                         run the server (the default)
  user create --email E --password P [--plan PLAN] [--admin]
  user set-plan --email E --plan PLAN
  user set-password --email E --password P      also logs the user out everywhere
  user reset-two-factor --email E               turns two-factor off and removes the passkeys (lost devices)
  key create --email E [--name N]               prints the new API key (shown once)
  key list --email E                            the user's keys, one JSON line each (never the secret)
  key revoke --email E (--id N | --prefix P)    the key answers 401 from now on; it stays listed
  page block --slug S                           hide a page (instance admin)
  page unblock --slug S
  page transfer --email OWNER --id N --to EMAIL offer page N to another account (mails a link; 7 days)
  page transfer --email E --id N [--cancel]     show (or, as the owner, cancel) the pending transfer
  page transfer --email RECIPIENT --id N --accept|--decline
  monitor list --email E                        the user's monitors, one JSON line each
  monitor create --email E --name N --type T [--target X] [--interval S] [--component ID] [--page ID] [--options JSON]
                                                types: http keyword json tcp dns tls push ssl dnsbl email_auth domain_expiry ping redis postgres websocket smtp; --options '{"keyword":"OK"}'
  monitor pause|resume|delete --email E --id N
  import uptime-kuma --email E --db kuma.db [--json]
                                                bring an Uptime Kuma 1.23/2.x database (read only) into
                                                the account; prints what came and what did not
  import gatus --email E --config config.yaml [--json]   the same from a Gatus configuration
  import statuspage --email E --page-id ID --api-key KEY [--base-url URL] [--reconfirm] [--json]
                                                the same from an Atlassian Statuspage page over its API
                                                (or --from DIR of saved API answers); --reconfirm mails
                                                each subscriber a confirmation instead of keeping them confirmed
  export --email E [--team ID] [-o FILE]         the team's pages, components, channels and monitors as YAML
                                                (secrets as \${LANTERN_…} references; default: the personal team)
  plan --email E [--team ID] -f FILE [--prune] [--json]
                                                what apply would create, change and (with --prune) delete
  apply --email E [--team ID] -f FILE [--prune] [--json]
                                                makes it so in one transaction (all or nothing); references
                                                are read from the environment
  probe-token create --region R                 prints a new probe token for region R (shown once)
  probe-token list                              the instance's probe tokens, one JSON line each (never the secret)
  probe-token revoke --id N                     the token answers 401 from now on
  probe --region R --server URL [--token T]     run monitors of region R for the server at URL (no database;
                                                the token also from LANTERN_PROBE_TOKEN)
  backup FILE                                   consistent copy of the database, also while the server runs
  healthcheck                                   exit 0 when the server on this machine answers /healthz
  rdap-refresh                                  fetch IANA's RDAP bootstrap data for domain_expiry monitors to RDAP_BOOTSTRAP_PATH
                                                (default db/rdap-dns.json; the servers read it within the hour)
  version
  help

Configuration comes from the environment (DATABASE_PATH, PORT, BASE_URL, …): see /docs/configuration,
and every command is described at /docs/cli.`

class UsageError extends Error {}

const userJson = (user: User) => ({
  id: user.id,
  email: user.email,
  plan: user.plan,
  admin: user.isAdmin,
  created_at: toIso(user.createdAt),
})

type Flags = Record<string, string | boolean | undefined>

function required(flags: Flags, name: string): string {
  const value = flags[name]
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`)
  return value
}

const optional = (flags: Flags, name: string): string | undefined => {
  const value = flags[name]
  return typeof value === 'string' ? value : undefined
}

const COMMANDS: Record<string, CliCommand<Services>> = {
  'user create': {
    options: { email: { type: 'string' }, password: { type: 'string' }, plan: { type: 'string' }, admin: { type: 'boolean' } },
    run: async (s, f) => {
      const user = await s.accounts.createUser({
        email: required(f, 'email'),
        password: required(f, 'password'),
        plan: optional(f, 'plan'),
        isAdmin: f.admin === true,
      })
      return JSON.stringify(userJson(user))
    },
  },
  'user set-plan': {
    options: { email: { type: 'string' }, plan: { type: 'string' } },
    run: async (s, f) => JSON.stringify(userJson(await s.accounts.setPlan(required(f, 'email'), required(f, 'plan')))),
  },
  'user set-password': {
    options: { email: { type: 'string' }, password: { type: 'string' } },
    run: async (s, f) => JSON.stringify(userJson(await s.accounts.setPasswordByEmail(required(f, 'email'), required(f, 'password')))),
  },
  'user reset-two-factor': {
    options: { email: { type: 'string' } },
    run: async (s, f) => {
      const user = await s.accounts.findUserByEmail(required(f, 'email'))
      await s.twoFactor.turnOffByAdministrator(user.id)
      await s.passkeys.removeAllByAdministrator(user.id)
      return JSON.stringify(userJson(user))
    },
  },
  'key create': {
    options: { email: { type: 'string' }, name: { type: 'string' } },
    run: async (s, f) => {
      const user = await s.accounts.findUserByEmail(required(f, 'email'))
      return (await s.accounts.createApiKey(user.id, optional(f, 'name'))).key
    },
  },
  'key list': {
    options: { email: { type: 'string' } },
    run: async (s, f) => {
      const user = await s.accounts.findUserByEmail(required(f, 'email'))
      return (await s.accounts.listApiKeys(user.id)).map((key) => JSON.stringify(apiKeyJson(key))).join('\n')
    },
  },
  'key revoke': {
    options: { email: { type: 'string' }, id: { type: 'string' }, prefix: { type: 'string' } },
    run: async (s, f) => {
      const id = optional(f, 'id')
      const prefix = optional(f, 'prefix')
      if (id === undefined && prefix === undefined) throw new UsageError('--id or --prefix is required')
      if (id !== undefined && prefix !== undefined) throw new UsageError('give --id or --prefix, not both')
      if (id !== undefined && !/^[1-9]\d{0,15}$/.test(id)) throw new UsageError('--id must be a positive integer')
      const user = await s.accounts.findUserByEmail(required(f, 'email'))
      const key = id !== undefined ? await s.accounts.revokeApiKey(user.id, Number(id)) : await s.accounts.revokeApiKeyByPrefix(user.id, prefix!)
      return JSON.stringify(apiKeyJson(key))
    },
  },
  'page block': {
    options: { slug: { type: 'string' } },
    run: async (s, f) => JSON.stringify({ slug: (await s.pages.setBlocked(required(f, 'slug'), true)).slug, blocked: true }),
  },
  'page unblock': {
    options: { slug: { type: 'string' } },
    run: async (s, f) => JSON.stringify({ slug: (await s.pages.setBlocked(required(f, 'slug'), false)).slug, blocked: false }),
  },
  ...monitorCommands,
  ...transferCommands,
  ...probeTokenCommands,
  ...importCommands,
  ...configCommands,
}

/** Runs one command; returns the exit code. Output and errors go to the given writers. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined>,
  io: { out: (line: string) => void; err: (line: string) => void } = { out: console.log, err: console.error },
): Promise<number> {
  const [first, second, ...rest] = argv
  if (first === undefined || first === 'serve') {
    await runFromEnvironment(env)
    return -1 // keeps running
  }
  if (first === 'help' || first === '--help' || first === '-h') {
    io.out(USAGE)
    return 0
  }
  if (first === 'version' || first === '--version' || first === '-v') {
    io.out(APP_VERSION)
    return 0
  }
  if (first === 'backup') return runBackup(argv.slice(1), env, io)
  if (first === 'healthcheck') return runHealthcheck(env, io)
  if (first === 'rdap-refresh') return runRdapRefresh(env, io)
  // A probe holds no database: it only talks to the server's API.
  if (first === 'probe') return runProbeCommand(argv.slice(1), env, io)
  // `export`, `plan` and `apply` are one word; the others two (`user create`).
  const single = COMMANDS[first] !== undefined
  const name = single ? first : `${first} ${second ?? ''}`.trim()
  const command = COMMANDS[name]
  if (!command) {
    io.err(`lantern: unknown command "${name}" (try "lantern help")`)
    return 1
  }
  let database: ReturnType<typeof openConfiguredDatabase> | undefined
  try {
    const { values } = parseArgs({ args: single ? argv.slice(1) : rest, options: command.options, strict: true, allowPositionals: false })
    const config = loadConfig(env)
    database = openConfiguredDatabase(config)
    await migrateToLatest(database.db)
    // On PostgreSQL the servers hear of this command's writes by NOTIFY (on SQLite they poll the file).
    const changes = new ChangeFeed()
    const announcer = config.databaseUrl ? announceChangesOverPostgres(database.db, changes) : undefined
    const output = await command.run(createServices({ db: database.db, config, changes }), values, env)
    await announcer?.flush()
    if (output !== '') io.out(output) // `key list` of a user without keys prints nothing
    return 0
  } catch (error) {
    if (error instanceof HttpError || error instanceof UsageError || error instanceof ConfigError) {
      io.err(`lantern: ${error.message}`)
    } else {
      // Anything else (a parseArgs error, SQLite): its first line only.
      io.err(`lantern: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
    }
    return 1
  } finally {
    await database?.close()
  }
}

/** `backup FILE`: one positional argument; the database is not migrated (a copy is taken as it is). */
async function runBackup(args: string[], env: Record<string, string | undefined>, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  try {
    const { positionals } = parseArgs({ args, options: {}, strict: true, allowPositionals: true })
    if (positionals.length !== 1) throw new UsageError('usage: lantern backup FILE')
    const config = loadConfig(env)
    // PostgreSQL has its own consistent online copy; a second implementation would only be worse.
    if (config.databaseUrl) throw new UsageError('backup copies the SQLite file; on PostgreSQL use pg_dump (see the deployment guide), e.g. pg_dump --format=custom --file=lantern.dump "$DATABASE_URL"')
    io.out(JSON.stringify(await backupDatabase(config.databasePath, positionals[0]!)))
    return 0
  } catch (error) {
    io.err(`lantern: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
    return 1
  }
}

/** `healthcheck`: GET /healthz on HOST:PORT (loopback for 0.0.0.0); for container HEALTHCHECKs. */
async function runHealthcheck(env: Record<string, string | undefined>, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  try {
    const config = loadConfig(env)
    const answer = await checkHealth(config.host, config.port)
    if (answer.ok) io.out(`healthy: ${answer.detail}`)
    else io.err(`lantern: unhealthy: ${answer.detail}`)
    return answer.ok ? 0 : 1
  } catch (error) {
    io.err(`lantern: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
    return 1
  }
}

/** `rdap-refresh`: IANA's current dns.json, checked, replaces the stored copy whole (no database). */
async function runRdapRefresh(env: Record<string, string | undefined>, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  const path = env.RDAP_BOOTSTRAP_PATH?.trim() || DEFAULT_RDAP_BOOTSTRAP_PATH
  try {
    const bootstrap = await refreshBootstrap(path)
    io.out(JSON.stringify({ path, source: IANA_RDAP_DNS_URL, publication: bootstrap.publication, tlds: bootstrap.services.size }))
    return 0
  } catch (error) {
    io.err(`lantern: rdap-refresh: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
    return 1
  }
}

if (import.meta.main) {
  const code = await runCli(process.argv.slice(2), process.env)
  if (code >= 0) process.exit(code)
}
