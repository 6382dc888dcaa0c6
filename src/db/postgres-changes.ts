/**
 * Cache invalidation across app servers on one PostgreSQL database (LISTEN/NOTIFY).
 *
 * Every change a server publishes on its own feed after a write is sent to the others as a NOTIFY
 * on one channel, and what arrives from the others is published on the local feed. Only
 * configuration changes travel: changes marked `resultsOnly` (check results) never do, because a
 * NOTIFY takes a database-wide lock at commit and results arrive every second; other servers show
 * new response times when their cached answer expires (at most the public cache's TTL, 60 s).
 * The NOTIFY runs on its own, after the writing transaction committed (autocommit).
 *
 * When the listening connection drops, changes may have been missed: on reconnect the local caches
 * are emptied (`all`).
 */
import { sql, type Kysely } from 'kysely'
import type pg from 'pg'
import { loadPg } from './postgres.ts'
import type { Change, ChangeFeed } from '../lib/change-feed.ts'

export const CHANGES_CHANNEL = 'lantern_changes'

export interface ChangeBridge {
  /** Resolves once the listening connection is up. */
  ready: Promise<void>
  stop(): Promise<void>
}

/** What a server sends: who sent it (its own echo is ignored) and the change. */
interface Envelope {
  from: string
  change: Change
}

function readEnvelope(payload: string | undefined): Envelope | undefined {
  try {
    const value = JSON.parse(payload ?? '') as Envelope
    const change = value?.change
    if (typeof value.from !== 'string') return undefined
    if (change?.kind === 'all') return { from: value.from, change: { kind: 'all', remote: true } }
    if (change?.kind === 'page' && Number.isSafeInteger(change.pageId)) {
      return { from: value.from, change: { kind: 'page', pageId: change.pageId, lookups: change.lookups === true, remote: true } }
    }
  } catch {
    // Not ours or malformed: ignored.
  }
  return undefined
}

/** Whether a change travels to the other servers (check results do not: see above). */
const travels = (change: Change) => !change.remote && !(change.kind === 'page' && change.resultsOnly)

/**
 * For a process that writes but serves nothing (the CLI): what it changes reaches every server's
 * caches through the same channel, as a server's own writes do. `flush` waits until every notice
 * is sent (call it before closing the database).
 */
export function announceChangesOverPostgres(db: Kysely<any>, changes: ChangeFeed, onError: (error: Error) => void = (error) => console.error('[lantern] change notice:', error.message)) {
  const me = crypto.randomUUID()
  const sent: Array<Promise<unknown>> = []
  changes.subscribe((change) => {
    if (!travels(change)) return
    const envelope: Envelope = { from: me, change }
    sent.push(sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${JSON.stringify(envelope)})`.execute(db).catch(onError))
  })
  return { flush: async () => void (await Promise.all(sent)) }
}

export function bridgeChangesOverPostgres(
  url: string,
  changes: ChangeFeed,
  options: { reconnectMs?: number; onError?: (error: Error) => void } = {},
): ChangeBridge {
  const me = crypto.randomUUID()
  const onError = options.onError ?? ((error) => console.error('[lantern] change bridge:', error.message))
  const sender = new (loadPg().Pool)({ connectionString: url, max: 1 })
  sender.on('error', onError)
  let listener: pg.Client | undefined
  let stopped = false
  let markReady: () => void = () => {}
  const ready = new Promise<void>((resolve) => (markReady = resolve))

  const unsubscribe = changes.subscribe((change) => {
    if (stopped || !travels(change)) return
    const envelope: Envelope = { from: me, change }
    sender.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, JSON.stringify(envelope)]).catch(onError)
  })

  const listen = async (first: boolean): Promise<void> => {
    const client = new (loadPg().Client)({ connectionString: url })
    client.on('notification', (message) => {
      const envelope = readEnvelope(message.payload)
      if (envelope && envelope.from !== me) changes.publish(envelope.change)
    })
    client.on('error', (error) => {
      onError(error)
      reconnect(client)
    })
    client.on('end', () => reconnect(client))
    try {
      await client.connect()
      await client.query(`LISTEN ${CHANGES_CHANNEL}`)
      listener = client
      // Anything published while we were away is unknown: start from empty caches.
      if (!first) changes.publish({ kind: 'all', remote: true })
      markReady()
    } catch (error) {
      onError(error as Error)
      reconnect(client)
    }
  }

  let reconnecting = false
  const reconnect = (client: pg.Client) => {
    if (stopped || reconnecting || (listener !== undefined && listener !== client)) return
    reconnecting = true
    listener = undefined
    client.removeAllListeners('end')
    void client.end().catch(() => {})
    setTimeout(() => {
      reconnecting = false
      if (!stopped) void listen(false)
    }, options.reconnectMs ?? 1_000)
  }

  void listen(true)
  return {
    ready,
    async stop() {
      stopped = true
      unsubscribe()
      const client = listener
      listener = undefined
      client?.removeAllListeners('end')
      await Promise.allSettled([client?.end(), sender.end()])
    },
  }
}
