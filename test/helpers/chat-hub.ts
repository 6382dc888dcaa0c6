/**
 * A local stand-in for Slack, Discord, Telegram, Teams, ntfy, PagerDuty and webhook receivers: a
 * Bun.serve on 127.0.0.1 recording every POST per path, answering 200 unless told otherwise.
 *
 *   const hub = await startChatHub()
 *   hub.answer('/slack', [500, 200])        // first 500, then 200 from then on (the last repeats)
 *   hub.answer('/slow', ['hang'])           // never answers (until the hub closes)
 *   hub.answer('/moved', [{ status: 302, location: 'https://elsewhere.example/' }])
 *   hub.answer('/slowish', [{ status: 200, delayMs: 30 }])   // answers after 30 ms
 *   …deliver to `${hub.url}/slack`
 *   await hub.waitFor('/slack', 2)          // two requests received
 *   hub.received('/slack')[0].json()
 *
 * Tests that post to it need MONITOR_PRIVATE_TARGETS=1 (127.0.0.1 is a private address).
 */
export type HubAnswer = number | 'hang' | { status: number; location?: string; body?: string; delayMs?: number }

export interface HubRequest {
  path: string
  /** The query string with its `?` ('' without one). */
  query: string
  method: string
  headers: Headers
  body: string
  /** The answer it got ('hang' for none). */
  answer: HubAnswer
  /** Requests to the same path still unanswered when this one arrived. */
  concurrent: number
  json<T = any>(): T
}

export interface ChatHub {
  url: string
  port: number
  requests: HubRequest[]
  received(path: string): HubRequest[]
  /** Answers for `path`, used in order; the last one repeats. Default: 200. */
  answer(path: string, answers: HubAnswer[]): void
  /** Resolves once `path` received `count` requests (or rejects after `timeoutMs`). */
  waitFor(path: string, count?: number, timeoutMs?: number): Promise<HubRequest[]>
  close(): Promise<void>
}

export async function startChatHub(): Promise<ChatHub> {
  const requests: HubRequest[] = []
  const plans = new Map<string, HubAnswer[]>()
  const hanging = new Set<() => void>()
  const waiters = new Set<() => void>()
  const open = new Map<string, number>()

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    // A hanging answer must stay open as long as the test wants, not until Bun's idle timeout.
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url)
      const path = url.pathname
      const body = await request.text()
      const plan = plans.get(path) ?? []
      const answer: HubAnswer = plan.length > 1 ? plan.shift()! : (plan[0] ?? 200)
      requests.push({ path, query: url.search, method: request.method, headers: request.headers, body, answer, concurrent: open.get(path) ?? 0, json: () => JSON.parse(body) })
      for (const wake of waiters) wake()
      open.set(path, (open.get(path) ?? 0) + 1)
      try {
        if (answer === 'hang') {
          await new Promise<void>((resolve) => hanging.add(resolve))
          return new Response('closed', { status: 503 })
        }
        const { status, location, text, delayMs } =
          typeof answer === 'number' ? { status: answer, location: undefined, text: undefined, delayMs: 0 } : { status: answer.status, location: answer.location, text: answer.body, delayMs: answer.delayMs ?? 0 }
        if (delayMs > 0) await Bun.sleep(delayMs)
        return new Response(text ?? (status < 300 ? 'ok' : 'error'), { status, headers: location ? { location } : {} })
      } finally {
        open.set(path, open.get(path)! - 1)
      }
    },
  })

  const received = (path: string) => requests.filter((request) => request.path === path)
  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port!,
    requests,
    received,
    answer(path, answers) {
      plans.set(path, [...answers])
    },
    waitFor(path, count = 1, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const wake = () => {
          if (received(path).length < count) return
          clearTimeout(timer)
          waiters.delete(wake)
          resolve(received(path))
        }
        const timer = setTimeout(() => {
          waiters.delete(wake)
          reject(new Error(`chat hub: ${path} got ${received(path).length} of ${count} requests within ${timeoutMs} ms`))
        }, timeoutMs)
        waiters.add(wake)
        wake()
      })
    },
    async close() {
      for (const release of hanging) release()
      hanging.clear()
      await server.stop(true)
    },
  }
}
