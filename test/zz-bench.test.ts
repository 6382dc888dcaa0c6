import { test } from 'bun:test'
import { createTestContext } from './helpers/context.ts'
test('bench /user', async () => {
  const ctx = await createTestContext({ now: Date.UTC(2026, 10, 23, 12) })
  const owner = await ctx.createOwner()
  const s = ctx.app.services
  const user = owner.user
  const PAGES = Number(process.env.PAGES ?? 50), COMPS = 6
  for (let p = 0; p < PAGES; p++) {
    const page = await ctx.createPage(owner.key, { name: `Page ${p}`, slug: `page-${p}` })
    for (let c = 0; c < COMPS; c++) {
      const comp = await s.components.create(user, page.id, { name: `C${c}`, group: c < 3 ? 'A' : 'B' })
      const history = Array.from({ length: 90 }, (_, d) => ({ status: d % 2 ? 'up' : 'degraded', at: new Date(Date.UTC(2026, 7, 26) + d * 86400000 + c * 1000).toISOString() }))
      await s.components.importHistory(user, comp.id, history)
    }
  }
  const token = await s.accounts.startSession(user.id)
  const get = () => ctx.app.handle(new Request('https://lantern.test/user', { headers: { cookie: `lantern_session=${token}` } }))
  for (let i = 0; i < 5; i++) await (await get()).text()
  const times: number[] = []
  let size = 0
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now()
    const r = await get()
    size = (await r.text()).length
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  console.log(`GET /user, ${PAGES} pages x ${COMPS} components (90 days of history each): median ${times[15]!.toFixed(1)} ms, p90 ${times[27]!.toFixed(1)} ms, ${Math.round(size / 1024)} KiB`)
  await ctx.close()
}, 300000)
