/**
 * `lantern probe --region R --server URL [--token T]`: the edge of the probe process. It reads the
 * flags and the environment, builds the check deps (MONITOR_PRIVATE_TARGETS applies here as on the
 * server), runs the loop (runner.ts) and stops it cleanly on SIGTERM or SIGINT. No database.
 */
import { parseArgs } from 'node:util'
import { systemClock } from '../../lib/clock.ts'
import { APP_VERSION } from '../../lib/version.ts'
import { createCheckDeps } from '../monitors/kinds/index.ts'
import { REGION_PATTERN } from '../monitors/run/index.ts'
import { ProbeRunner } from './runner.ts'

type Io = { out: (line: string) => void; err: (line: string) => void }

const USAGE = 'usage: lantern probe --region NAME --server URL [--token lpt_…] [--pull-seconds 30] (the token also from LANTERN_PROBE_TOKEN)'

/** Starts the probe; answers -1 (keeps running until a signal), or 1 on bad input. */
export async function runProbeCommand(args: string[], env: Record<string, string | undefined>, io: Io): Promise<number> {
  let runner: ProbeRunner
  try {
    const { values } = parseArgs({
      args,
      options: { region: { type: 'string' }, server: { type: 'string' }, token: { type: 'string' }, 'pull-seconds': { type: 'string' } },
      strict: true,
      allowPositionals: false,
    })
    const region = values.region ?? ''
    if (!REGION_PATTERN.test(region) || region === 'local') throw new Error(`--region must be a region name such as eu-west (not "local"); ${USAGE}`)
    const server = values.server ?? ''
    if (!URL.canParse(server) || !/^https?:$/.test(new URL(server).protocol)) throw new Error(`--server must be the server's http(s) URL; ${USAGE}`)
    // A flag shows in the process list; the environment variable does not.
    const token = values.token ?? env.LANTERN_PROBE_TOKEN ?? ''
    if (!token) throw new Error(`a probe token is required (--token or LANTERN_PROBE_TOKEN); ${USAGE}`)
    const pullSeconds = values['pull-seconds'] === undefined ? 30 : Number(values['pull-seconds'])
    if (!Number.isInteger(pullSeconds) || pullSeconds < 1 || pullSeconds > 3600) throw new Error('--pull-seconds must be a whole number from 1 to 3600')
    runner = new ProbeRunner({
      server,
      token,
      region,
      clock: systemClock,
      checkDeps: createCheckDeps({ env, clock: systemClock, userAgent: `Lantern/${APP_VERSION} (probe ${region}; +${new URL(server).origin})` }),
      pullEveryMs: pullSeconds * 1000,
      log: io.out,
    })
  } catch (error) {
    io.err(`lantern: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
    return 1
  }
  runner.start()
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    void runner.stop().finally(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  return -1
}
