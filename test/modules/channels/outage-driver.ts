/**
 * What the chat-outage tests share: an owner's API, a local site the monitor checks that goes down
 * and comes back, a step of the injected clock (a scheduler turn, the writes, the outbox drained),
 * and the chat hub's requests since the last look.
 */
import type { ChatHub, HubRequest } from '../../helpers/chat-hub.ts'
import { json, type TestContext } from '../../helpers/context.ts'
import type { schedulerFor } from '../monitors/scheduling.ts'

export class OutageDriver {
  private site: ReturnType<typeof Bun.serve> | undefined
  private port = 0
  private seen = 0

  constructor(
    private readonly ctx: TestContext,
    private readonly key: string,
    private readonly scheduler: ReturnType<typeof schedulerFor>,
    private readonly hub: ChatHub,
  ) {}

  api(path: string, init: RequestInit & { json?: unknown } = {}) {
    return this.ctx.request(`/user/api/v1${path}`, { key: this.key, ...init })
  }

  async post(path: string, body: unknown) {
    const response = await this.api(path, { method: 'POST', json: body })
    if (response.status !== 201 && response.status !== 202) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return (await json(response)).data
  }

  /** The site answers 200 again (on the same port after the first time). */
  serve(): string {
    this.site = Bun.serve({ port: this.port, hostname: '127.0.0.1', fetch: () => new Response('ok') })
    this.port = this.site.port!
    return `http://127.0.0.1:${this.port}/`
  }

  down(): void {
    this.site?.stop(true)
  }

  async step(times = 1): Promise<void> {
    for (let i = 0; i < times; i++) {
      this.ctx.clock.advance(60_000)
      await this.scheduler.tick()
      await this.scheduler.settle()
    }
    await this.ctx.app.services.outboxWorker.drain()
  }

  /** The hub's requests since the last call. */
  fresh(): HubRequest[] {
    const news = this.hub.requests.slice(this.seen)
    this.seen = this.hub.requests.length
    return news
  }
}
