/**
 * Test parts for automatic incidents: a local HTTP target whose paths answer 200 or 500 on demand
 * (or alternate, to make a monitor flap), monitors on components through the API, and steps of the
 * real scheduler and recorder on the ManualClock.
 */
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { schedulerFor } from '../monitors/scheduling.ts'

export type Answer = 'up' | 'down' | 'alternate'

export interface Target {
  url(path: string): string
  set(path: string, answer: Answer): void
  stop(): void
}

export function startTarget(): Target {
  const answers = new Map<string, Answer>()
  const hits = new Map<string, number>()
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const path = new URL(request.url).pathname
      const answer = answers.get(path) ?? 'up'
      const hit = (hits.get(path) ?? 0) + 1
      hits.set(path, hit)
      const ok = answer === 'up' || (answer === 'alternate' && hit % 2 === 1)
      return new Response(ok ? 'ok' : 'broken', { status: ok ? 200 : 500 })
    },
  })
  return {
    url: (path) => `http://127.0.0.1:${server.port}${path}`,
    set: (path, answer) => void answers.set(path, answer),
    stop: () => server.stop(true),
  }
}

export interface Rig {
  ctx: TestContext
  target: Target
  key: string
  /** One interval of time, then every due monitor runs once and is recorded. */
  step(times?: number): Promise<void>
  page(name: string): Promise<number>
  component(pageId: number, name: string): Promise<number>
  /** An HTTP monitor (60 s, 2 failures to go down, 2 successes to come up) on the component, answering at `path`. */
  monitor(componentId: number, path: string): Promise<number>
  automation(pageId: number, body: Record<string, unknown>, key?: string): Promise<Response>
  /** The page's incidents (newest first) as the API gives them. */
  incidents(pageId: number): Promise<any[]>
  close(): Promise<void>
}

let slugs = 0

export async function startRig(): Promise<Rig> {
  const ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
  const target = startTarget()
  const { key } = await ctx.createOwner('enterprise')
  // Every monitor of the rig checks the same loopback host: no per-host cap, so each step runs them all.
  const scheduler = schedulerFor(ctx, { perHostCap: 1000, globalCap: 1000 })
  const post = async (path: string, body: unknown) => {
    const response = await ctx.request(path, { method: 'POST', key, json: body })
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return (await json(response)).data
  }
  return {
    ctx,
    target,
    key,
    async step(times = 1) {
      for (let i = 0; i < times; i++) {
        ctx.clock.advance(60_000)
        await scheduler.tick()
        await scheduler.settle()
      }
    },
    async page(name) {
      return (await ctx.createPage(key, { name, slug: `auto-${++slugs}-${crypto.randomUUID().slice(0, 6)}` })).id
    },
    async component(pageId, name) {
      return (await post(`/user/api/v1/status-pages/${pageId}/components`, { name })).id
    },
    async monitor(componentId, path) {
      return (
        await post('/user/api/v1/monitors', {
          name: `m ${path}`,
          type: 'http',
          target: target.url(path),
          interval_seconds: 60,
          retries: 0,
          confirm_failures: 2,
          confirm_successes: 2,
          component_id: componentId,
        })
      ).id
    },
    automation(pageId, body, ownKey = key) {
      return ctx.request(`/user/api/v1/status-pages/${pageId}/auto-incidents`, { method: 'PATCH', key: ownKey, json: body })
    },
    async incidents(pageId) {
      return (await json(await ctx.request(`/user/api/v1/incidents?status_page_id=${pageId}&limit=200`, { key }))).data
    },
    async close() {
      await scheduler.stop()
      target.stop()
      await ctx.close()
    },
  }
}
