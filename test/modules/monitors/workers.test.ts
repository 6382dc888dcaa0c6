/** With WORKERS=N exactly one process schedules monitors: worker 1 (or the only process). */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../../src/config.ts'
import { startServer } from '../../../src/main.ts'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-monitor-workers-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a single process and worker 1 schedule; workers 2 and 3 do not', async () => {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'w.sqlite') })
  const single = await startServer(config)
  expect(single.schedulesMonitors).toBe(true)
  await single.stop()
  const workers = []
  for (const workerId of [1, 2, 3]) workers.push(await startServer(config, { workerId }))
  expect(workers.map((w) => w.schedulesMonitors)).toEqual([true, false, false])
  for (const w of workers) await w.stop()
})
