/**
 * Redis checks over RESP on a socket to the guard-checked address (edge: node:net, node:tls):
 * AUTH and SELECT when the target says so, PING (must answer PONG), then optionally GET a key.
 */
import { connect as connectTcp, type Socket } from 'node:net'
import { connect as connectTls } from 'node:tls'
import { isIpLiteral, type AddressGuard } from '../../../lib/address-guard.ts'
import { abortable } from '../../../lib/abortable.ts'
import type { MonitorDefinition } from '../definition.ts'
import { thrownResult } from './failure.ts'
import { commonSpec, type MonitorKind } from './kind.ts'
import { parseServerTarget } from './server-target.ts'
import { clipMessage, type CheckDeps, type CheckResult, type RedisSpec } from './spec.ts'
import { fieldChecks, type SpecProblem } from './validate.ts'

export const REDIS_PORT = 6379
/** A reply longer than this is not what a check asks for: give up rather than buffer without end. */
const MAX_REPLY_BYTES = 64 * 1024

export class RedisReplyError extends Error {}

type Reply = { kind: 'simple' | 'error'; text: string } | { kind: 'integer'; value: number } | { kind: 'bulk'; value: string | null } | { kind: 'other' }

export async function runRedisCheck(spec: RedisSpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const started = elapsed()
  const signal = AbortSignal.timeout(spec.timeoutMs)
  let socket: Socket | undefined
  try {
    const checked = await deps.guard.check(spec.host, signal)
    socket = spec.tls
      ? connectTls({ host: checked.address, port: spec.port, ...(isIpLiteral(checked.host) ? {} : { servername: checked.host }), ...(deps.trustedCa ? { ca: deps.trustedCa } : {}) })
      : connectTcp({ host: checked.address, port: spec.port })
    const replies = replyReader(socket, signal)
    await abortable(
      new Promise<void>((resolve, reject) => {
        socket!.once(spec.tls ? 'secureConnect' : 'connect', () => resolve())
        socket!.once('error', reject)
      }),
      signal,
    )
    const ask = async (...args: string[]): Promise<Reply> => {
      socket!.write(encodeCommand(args))
      const reply = await replies.next()
      if (reply.kind === 'error') throw new RedisReplyError(`${args[0]} answered: ${reply.text}`)
      return reply
    }
    if (spec.password) await ask('AUTH', ...(spec.username ? [spec.username] : []), spec.password)
    if (spec.db) await ask('SELECT', String(spec.db))
    const pong = await ask('PING')
    if (pong.kind !== 'simple' || pong.text !== 'PONG') throw new RedisReplyError(`PING answered ${describe(pong)}, not PONG`)
    let message = 'PING answered PONG'
    if (spec.key !== undefined) {
      const got = await ask('GET', spec.key)
      if (got.kind !== 'bulk') throw new RedisReplyError(`GET ${spec.key} answered ${describe(got)}`)
      if (got.value === null) return done('fail', `key ${spec.key} does not exist`)
      if (spec.expectedValue !== undefined && got.value !== spec.expectedValue) {
        return done('fail', `key ${spec.key} is ${JSON.stringify(got.value.slice(0, 100))}, expected ${JSON.stringify(spec.expectedValue)}`)
      }
      message += spec.expectedValue !== undefined ? `; key ${spec.key} has the expected value` : `; key ${spec.key} exists`
    }
    const responseTimeMs = Math.round(elapsed() - started)
    const slow = spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
    return done(slow ? 'degraded' : 'ok', slow ? `${message}, slower than ${spec.degradedAfterMs} ms` : message)

    function done(outcome: CheckResult['outcome'], text: string): CheckResult {
      return { outcome, responseTimeMs: Math.round(elapsed() - started), message: clipMessage(text), details: { address: checked.address } }
    }
  } catch (error) {
    if (error instanceof RedisReplyError && !signal.aborted) return { outcome: 'fail', responseTimeMs: null, message: clipMessage(error.message) }
    return thrownResult(error, signal, spec.timeoutMs, { allowPrivate: deps.guard.allowPrivate })
  } finally {
    socket?.destroy()
  }
}

const describe = (reply: Reply): string =>
  reply.kind === 'simple' || reply.kind === 'error' ? JSON.stringify(reply.text.slice(0, 100)) : reply.kind === 'integer' ? String(reply.value) : reply.kind === 'bulk' ? 'a string' : 'an unexpected reply'

/** A command as a RESP array of bulk strings. */
export function encodeCommand(args: readonly string[]): string {
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`
}

/**
 * One reply parsed off the front of `buffer`: the reply and the bytes it took, or undefined while incomplete.
 * Arrays and other types are skipped whole as `other` (a check never asks for them).
 */
export function parseReply(buffer: Buffer, at = 0): { reply: Reply; end: number } | undefined {
  const lineEnd = buffer.indexOf('\r\n', at)
  if (lineEnd < 0) return undefined
  const type = String.fromCharCode(buffer[at]!)
  const line = buffer.toString('utf8', at + 1, lineEnd)
  const next = lineEnd + 2
  switch (type) {
    case '+':
      return { reply: { kind: 'simple', text: line }, end: next }
    case '-':
      return { reply: { kind: 'error', text: line }, end: next }
    case ':':
      return { reply: { kind: 'integer', value: Number(line) }, end: next }
    case '$': {
      const length = Number(line)
      if (length < 0) return { reply: { kind: 'bulk', value: null }, end: next }
      if (!Number.isInteger(length)) throw new RedisReplyError('not a Redis reply')
      if (buffer.length < next + length + 2) return undefined
      return { reply: { kind: 'bulk', value: buffer.toString('utf8', next, next + length) }, end: next + length + 2 }
    }
    case '*': {
      const count = Number(line)
      if (!Number.isInteger(count)) throw new RedisReplyError('not a Redis reply')
      let end = next
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, end)
        if (!item) return undefined
        end = item.end
      }
      return { reply: { kind: 'other' }, end }
    }
    default:
      throw new RedisReplyError(`not a Redis reply: ${JSON.stringify(buffer.toString('latin1', at, Math.min(lineEnd, at + 40)))}`)
  }
}

/** Reads whole replies off the socket, one per `next()`. */
function replyReader(socket: Socket, signal: AbortSignal) {
  let buffer = Buffer.alloc(0)
  let waiting: { resolve: (reply: Reply) => void; reject: (error: unknown) => void } | undefined
  let failure: unknown
  const settle = () => {
    if (!waiting) return
    let parsed: ReturnType<typeof parseReply>
    try {
      parsed = failure ? undefined : parseReply(buffer)
    } catch (error) {
      failure = error
    }
    if (parsed) {
      buffer = buffer.subarray(parsed.end)
      waiting.resolve(parsed.reply)
    } else if (failure) waiting.reject(failure)
    else if (buffer.length > MAX_REPLY_BYTES) waiting.reject(new RedisReplyError('Redis reply too long'))
    else return
    waiting = undefined
  }
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    settle()
  })
  socket.on('end', () => {
    failure ??= new RedisReplyError('the server closed the connection')
    settle()
  })
  socket.on('error', (error) => {
    failure ??= error
    settle()
  })
  signal.addEventListener('abort', () => {
    failure ??= signal.reason
    settle()
  }, { once: true })
  return {
    next: () =>
      new Promise<Reply>((resolve, reject) => {
        waiting = { resolve, reject }
        settle()
      }),
  }
}

const REDIS_SCHEMES = ['redis', 'rediss'] as const

function redisSpec(definition: MonitorDefinition): RedisSpec {
  const t = parseServerTarget(definition.target ?? '', REDIS_SCHEMES, REDIS_PORT)
  const o = definition.options
  const db = t.path === '' ? undefined : Number(t.path)
  return {
    type: 'redis',
    host: t.host,
    port: t.port,
    tls: t.scheme === 'rediss',
    ...commonSpec(definition),
    ...(t.username ? { username: t.username } : {}),
    ...(t.password ? { password: t.password } : {}),
    ...(db !== undefined ? { db } : {}),
    ...(o.redis_key ? { key: o.redis_key } : {}),
    ...(o.expected_value != null && o.expected_value !== '' ? { expectedValue: o.expected_value } : {}),
  }
}

function validateRedisSpec(spec: RedisSpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  if (!spec.host) check.problem('host', 'must be host[:port] or redis://[user:password@]host[:port][/db] (rediss:// for TLS)')
  else check.host('host', spec.host)
  check.port('host', spec.port)
  if (spec.db !== undefined && (!Number.isInteger(spec.db) || spec.db < 0 || spec.db > 1000)) check.problem('host', 'the database after the slash must be a number, e.g. redis://host:6379/0')
  if (spec.expectedValue !== undefined && spec.key === undefined) check.problem('expectedValue', 'name the key (redis_key) whose value is expected')
  return check.problems
}

/** redis: PING answers PONG; with a key, it exists (and holds the expected value). */
export const redisKind: MonitorKind<RedisSpec> = { type: 'redis', toSpec: redisSpec, validate: validateRedisSpec, run: runRedisCheck, probeable: false }
