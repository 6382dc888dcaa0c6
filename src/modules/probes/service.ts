/**
 * Probes: processes in other regions that hold no database. The operator makes
 * a token per region (instance-level: `lantern probe-token create --region eu-west`); a probe with
 * it reads the definitions of the monitors that list its region and pushes their results back, a
 * batch at a time. Results go through the MonitorRecorder like the server's own runs (per-region
 * state, then the k-of-n aggregate): there is no second path.
 */
import type { Clock } from '../../lib/clock.ts'
import { constantTimeEqual, randomToken, sha256Hex } from '../../lib/crypto.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import { toSpec } from '../monitors/kinds/index.ts'
import type { MonitorEvent, MonitorRecorder } from '../monitors/run/index.ts'
import { RESULT_RETENTION_MS } from '../monitors/run/index.ts'
import { LOCAL_REGION, REGION_PATTERN, regionsOf } from '../monitors/run/index.ts'
import type { MonitorsRepo } from '../monitors/service.ts'
import { definitionOf, phaseOffsetMs } from '../monitors/service.ts'
import type { MonitorSpec, Outcome } from '../monitors/kinds/index.ts'
import type { ProbesRepo, ProbeTokenRow } from './repo.ts'

const TOKEN_PREFIX = 'lpt_'
const PUBLIC_ID_LENGTH = 12 // 9 random bytes, base64url
const TOKEN_PATTERN = /^lpt_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/
/** last_used_at is written at most this often per token (a probe calls every second or so). */
const LAST_USED_RESOLUTION_MS = 60_000
/** A probe's clock may run a little ahead of ours. */
const FUTURE_SLACK_MS = 60_000
export const MAX_RESULTS_PER_BATCH = 500

export interface ProbeToken {
  id: number
  region: string
  prefix: string
  createdAt: number
  lastUsedAt: number | null
  revokedAt: number | null
}

/** What a probe needs to run one monitor: the engine's spec and the numbers of its schedule. */
export interface ProbeMonitor {
  id: number
  spec: MonitorSpec
  intervalSeconds: number
  retries: number
  retryIntervalMs: number
  /** Runs fall on epoch + phase + k × interval (spread like the server's). */
  phaseMs: number
}

export interface ProbeResultInput {
  monitor_id: number
  scheduled_at: number
  result: { outcome: Outcome; response_ms: number | null; status_code?: number | null; attempts?: number; message: string }
}

export interface IngestAnswer {
  accepted: number
  rejected: Array<{ index: number; monitor_id: number; error: string }>
}

const toToken = (row: ProbeTokenRow): ProbeToken => ({
  id: row.id,
  region: row.region,
  prefix: `${TOKEN_PREFIX}${row.public_id}`,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
})

export class ProbesService {
  constructor(
    private readonly repo: ProbesRepo,
    private readonly monitorsRepo: MonitorsRepo,
    private readonly recorder: MonitorRecorder,
    private readonly clock: Clock,
  ) {}

  /** A new token for `region`; the secret is answered once, here, and stored only as a hash. */
  async createToken(region: string): Promise<{ token: string; info: ProbeToken }> {
    if (!REGION_PATTERN.test(region)) throw badRequest('--region must be a short name: lower-case letters, digits and dashes, at most 32 (e.g. eu-west)')
    if (region === LOCAL_REGION) throw badRequest('region "local" is the server itself; a probe needs another name')
    const publicId = randomToken(9)
    const secret = randomToken(32)
    const row = await this.repo.insertToken({ region, publicId, secretHash: await sha256Hex(secret), now: this.clock.now() })
    return { token: `${TOKEN_PREFIX}${publicId}_${secret}`, info: toToken(row) }
  }

  async listTokens(): Promise<ProbeToken[]> {
    return (await this.repo.listTokens()).map(toToken)
  }

  /** The token answers 401 from now on; its region stays on the monitors that list it (shown stale). */
  async revokeToken(id: number): Promise<ProbeToken> {
    const row = await this.repo.revokeToken(id, this.clock.now())
    if (!row) throw notFound(`no probe token ${id}`)
    return toToken(row)
  }

  liveRegions(): Promise<string[]> {
    return this.repo.liveRegions()
  }

  /** The region a presented token stands for; undefined for anything malformed, unknown or revoked. */
  async authenticate(presented: string): Promise<{ tokenId: number; region: string } | undefined> {
    if (!TOKEN_PATTERN.test(presented)) return undefined
    const publicId = presented.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + PUBLIC_ID_LENGTH)
    const row = await this.repo.findActiveToken(publicId)
    // Hash even when the id is unknown, so both paths take the same time.
    const presentedHash = await sha256Hex(presented.slice(TOKEN_PREFIX.length + PUBLIC_ID_LENGTH + 1))
    if (!row || !constantTimeEqual(presentedHash, row.secret_hash)) return undefined
    const now = this.clock.now()
    if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_MS) await this.repo.touchToken(row.id, now)
    return { tokenId: row.id, region: row.region }
  }

  /** The monitors a region runs: enabled, listing the region, of a type a probe runs. */
  async monitorsFor(region: string): Promise<ProbeMonitor[]> {
    const out: ProbeMonitor[] = []
    for (const row of await this.repo.candidates(region)) {
      if (!regionsOf(row).includes(region)) continue
      const definition = definitionOf({ ...row, page_slug: null })
      const spec = toSpec(definition)
      if (!spec) continue
      out.push({
        id: row.id,
        spec,
        intervalSeconds: definition.intervalSeconds,
        retries: definition.retries,
        retryIntervalMs: definition.retryIntervalMs,
        phaseMs: phaseOffsetMs(row.id, definition.intervalSeconds * 1000),
      })
    }
    return out
  }

  /**
   * Records a batch of a region's results. Each item stands alone: one for a monitor that does not
   * list the region (or is gone, or paused), or scheduled too far ahead or too long ago, is
   * rejected with its reason and not recorded; the rest are. A result pushed twice is recorded once.
   */
  async ingest(region: string, items: readonly ProbeResultInput[]): Promise<IngestAnswer> {
    if (items.length > MAX_RESULTS_PER_BATCH) throw badRequest(`results must hold at most ${MAX_RESULTS_PER_BATCH} results a batch`)
    const now = this.clock.now()
    const rows = new Map((await this.monitorsRepo.findMany([...new Set(items.map((item) => item.monitor_id))])).map((row) => [row.id, row]))
    const rejected: IngestAnswer['rejected'] = []
    const events: MonitorEvent[] = []
    items.forEach((item, index) => {
      const row = rows.get(item.monitor_id)
      const reject = (error: string) => rejected.push({ index, monitor_id: item.monitor_id, error })
      if (!row || !regionsOf(row).includes(region)) return reject(`monitor ${item.monitor_id} is not assigned to region ${region}`)
      if (row.enabled !== 1) return reject(`monitor ${item.monitor_id} is paused`)
      if (!Number.isFinite(item.scheduled_at)) return reject('scheduled_at must be an RFC 3339 time')
      if (item.scheduled_at > now + FUTURE_SLACK_MS) return reject('scheduled_at is in the future: check the probe\'s clock')
      if (item.scheduled_at < now - RESULT_RETENTION_MS) return reject('scheduled_at is older than the 24 hours results are kept')
      const r = item.result
      events.push({
        kind: 'probe',
        monitorId: row.id,
        region,
        scheduledAt: item.scheduled_at,
        result: { outcome: r.outcome, responseTimeMs: r.response_ms, statusCode: r.status_code ?? undefined, attempts: r.attempts ?? 1, message: r.message },
      })
    })
    // In the order they ran, so each region's state machine sees them as they happened.
    events.sort((a, b) => (a.kind === 'probe' && b.kind === 'probe' ? a.scheduledAt - b.scheduledAt : 0))
    await this.recorder.record(events)
    return { accepted: events.length, rejected }
  }
}
