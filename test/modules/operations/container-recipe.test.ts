/**
 * The container recipe (.docker/Dockerfile, .docker/compose.yaml). There is no container engine on
 * this machine, so the test runs the Dockerfile's steps itself, as far as a host can: the build
 * stage's WORKDIR/COPY/RUN in an empty folder holding only what the Dockerfile copies (so a file
 * missing from the COPY lines fails here as it would in `docker build`), then the runtime stage's
 * binary as a non-root user with the database on a "volume" folder, and its HEALTHCHECK command.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const ROOT = join(import.meta.dir, '../../..')
const DOCKER = join(ROOT, '.docker')

interface Instruction {
  keyword: string
  args: string
}
interface Stage {
  image: string
  name?: string
  steps: Instruction[]
}

/** A Dockerfile as stages of instructions (comments dropped, `\` continuations joined). */
function parseDockerfile(text: string): Stage[] {
  const logical = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
  const stages: Stage[] = []
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s+(.*)$/.exec(line) ?? []
    if (keyword.toUpperCase() === 'FROM') {
      const [image = '', as, name] = args.split(/\s+/)
      stages.push({ image, name: as?.toUpperCase() === 'AS' ? name : undefined, steps: [] })
    } else {
      stages.at(-1)!.steps.push({ keyword: keyword.toUpperCase(), args })
    }
  }
  return stages
}

/** `COPY [--from=x] a b dest`: flags, sources, destination. */
function copyArgs(args: string) {
  const words = args.split(/\s+/)
  const flags = Object.fromEntries(words.filter((w) => w.startsWith('--')).map((w) => w.slice(2).split('=') as [string, string]))
  const paths = words.filter((w) => !w.startsWith('--'))
  return { from: flags.from, sources: paths.slice(0, -1), destination: paths.at(-1)! }
}

/** The value of a `KEY=value …` ENV line set. */
function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {}
  for (const step of stage.steps.filter((s) => s.keyword === 'ENV')) {
    for (const [, key, value] of step.args.matchAll(/(\w+)=(\S+)/g)) env[key!] = value!
  }
  return env
}

const stages = parseDockerfile(readFileSync(join(DOCKER, 'Dockerfile'), 'utf8'))
const builder = stages[0]!
const runtime = stages.at(-1)!
const last = (stage: Stage, keyword: string) => stage.steps.filter((s) => s.keyword === keyword).at(-1)?.args

describe('the Dockerfile', () => {
  test('builds with the Bun of package.json and `bun run build`; runs as a non-root user with a volume for the database', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    expect(stages).toHaveLength(2)
    expect(builder.image).toBe(`oven/bun:${pkg.engines.bun}`)
    expect(builder.steps.filter((s) => s.keyword === 'RUN').map((s) => s.args)).toContain('bun run build')
    expect(pkg.scripts.build).toContain('--outfile dist/lantern')
    const user = last(runtime, 'USER')
    expect(user).toBeDefined()
    expect(['root', '0'].includes(user!.split(':')[0]!)).toBe(false)
    const volume = last(runtime, 'VOLUME')!
    expect(envOf(runtime).DATABASE_PATH!.startsWith(`${volume}/`)).toBe(true)
    expect(last(runtime, 'HEALTHCHECK')).toContain('"healthcheck"')
    expect(last(runtime, 'STOPSIGNAL')).toBe('SIGTERM')
  })

  test('every file it copies from the context exists in the repository', () => {
    const sources = stages.flatMap((stage) => stage.steps.filter((s) => s.keyword === 'COPY').map((s) => copyArgs(s.args))).filter((c) => !c.from)
    expect(sources.length).toBeGreaterThan(0)
    for (const copy of sources) for (const source of copy.sources) expect(`${source}: ${existsSync(join(ROOT, source))}`).toBe(`${source}: true`)
  })
})

describe('compose.yaml', () => {
  const compose = Bun.YAML.parse(readFileSync(join(DOCKER, 'compose.yaml'), 'utf8')) as any

  test('builds Lantern from the Dockerfile with the database on a named volume, Caddy in front with the guide\'s Caddyfile', () => {
    const lantern = compose.services.lantern
    expect(join(DOCKER, lantern.build.context, lantern.build.dockerfile)).toBe(join(DOCKER, 'Dockerfile'))
    const volume = last(runtime, 'VOLUME')
    const [name, target] = (lantern.volumes[0] as string).split(':')
    expect(target).toBe(volume)
    expect(Object.keys(compose.volumes)).toContain(name!)
    const caddy = compose.services.caddy
    expect(existsSync(join(DOCKER, caddy.build.context, caddy.build.dockerfile))).toBe(true)
    expect(caddy.volumes).toContain('./Caddyfile:/etc/caddy/Caddyfile:ro')
    expect(caddy.environment.LANTERN_UPSTREAM).toBe(`lantern:${envOf(runtime).PORT}`)
    // Caddy's requests come from the edge network: that range must be the trusted proxy range.
    expect(lantern.environment.TRUST_PROXY).toBe(compose.networks.edge.ipam.config[0].subnet)
  })
})

describe('the build, run as the Dockerfile runs it', () => {
  let dir: string
  let imageRoot: string
  let server: ReturnType<typeof Bun.spawn> | undefined
  // Root can drop to `nobody`; anyone else already is not root.
  const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
  const mapped = (root: string, path: string) => join(root, path)

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lantern-image-'))
    chmodSync(dir, 0o755)
    const buildRoot = join(dir, 'build')
    imageRoot = join(dir, 'image')
    // The build stage: WORKDIR, COPY from the context, RUN, in order.
    let workdir = buildRoot
    for (const step of builder.steps) {
      if (step.keyword === 'WORKDIR') mkdirSync((workdir = mapped(buildRoot, step.args)), { recursive: true })
      else if (step.keyword === 'COPY') {
        const { sources, destination } = copyArgs(step.args)
        for (const source of sources) {
          const target = destination.endsWith('/') ? join(workdir, destination, source.split('/').at(-1)!) : join(workdir, destination)
          cpSync(join(ROOT, source), target, { recursive: true })
        }
      } else if (step.keyword === 'RUN') {
        const run = Bun.spawn(['sh', '-c', step.args], { cwd: workdir, stdout: 'pipe', stderr: 'pipe' })
        const [code, err] = await Promise.all([run.exited, new Response(run.stderr).text()])
        if (code !== 0) throw new Error(`RUN ${step.args} failed (${code}): ${err}`)
      } else throw new Error(`the build stage has a ${step.keyword} this test does not know how to run`)
    }
    // The runtime stage: what it copies from the build, and the volume, owned by the image's user.
    for (const step of runtime.steps.filter((s) => s.keyword === 'COPY')) {
      const { from, sources, destination } = copyArgs(step.args)
      expect(from).toBe(builder.name)
      const target = mapped(imageRoot, destination)
      mkdirSync(dirname(target), { recursive: true, mode: 0o755 })
      cpSync(mapped(buildRoot, sources[0]!), target)
      chmodSync(target, 0o755)
    }
    for (let path = dirname(mapped(imageRoot, '/usr/local/bin/x')); path.startsWith(dir); path = dirname(path)) chmodSync(path, 0o755)
    const volume = mapped(imageRoot, last(runtime, 'VOLUME')!)
    mkdirSync(volume, { recursive: true, mode: 0o700 })
    if (asUser.uid !== undefined) chownSync(volume, asUser.uid, asUser.gid)
  }, 240_000)

  afterAll(async () => {
    server?.kill('SIGTERM')
    await server?.exited
    rmSync(dir, { recursive: true, force: true })
  })

  test('the binary serves as a non-root user with the database on the volume; HEALTHCHECK passes, and fails once it stopped', async () => {
    const [entrypoint] = JSON.parse(last(runtime, 'ENTRYPOINT')!) as string[]
    const cmd = JSON.parse(last(runtime, 'CMD')!) as string[]
    const [check, ...checkArgs] = JSON.parse(/CMD\s+(\[.*\])$/.exec(last(runtime, 'HEALTHCHECK')!)![1]!) as string[]
    const port = (() => {
      const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
      const free = probe.port!
      probe.stop(true)
      return free
    })()
    const imageEnv = envOf(runtime)
    const env = {
      PATH: '/usr/bin:/bin',
      ...imageEnv,
      HOST: '127.0.0.1', // the image listens on 0.0.0.0; loopback is enough here
      PORT: String(port),
      DATABASE_PATH: mapped(imageRoot, imageEnv.DATABASE_PATH!),
    }
    const workdir = mapped(imageRoot, last(runtime, 'WORKDIR')!)
    server = Bun.spawn([mapped(imageRoot, entrypoint!), ...cmd], { cwd: workdir, env, stdout: 'pipe', stderr: 'pipe', ...asUser })
    const healthcheck = async () => {
      const run = Bun.spawn([mapped(imageRoot, check!), ...checkArgs], { cwd: workdir, env, stdout: 'pipe', stderr: 'pipe', ...asUser })
      return run.exited
    }
    let healthy = 1
    for (let i = 0; i < 100 && healthy !== 0; i++) {
      healthy = await healthcheck()
      if (healthy !== 0) await Bun.sleep(100)
    }
    expect(healthy).toBe(0)
    const health = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(await health.json()).toEqual({ status: 'ok' })
    const database = statSync(env.DATABASE_PATH)
    if (asUser.uid !== undefined) expect(database.uid).toBe(asUser.uid)
    expect((database.mode & 0o777).toString(8)).toBe('600')
    server.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(await healthcheck()).toBe(1)
  }, 60_000)
})
