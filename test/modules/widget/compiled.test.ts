/**
 * The widget ships inside the program: a macro builds it at bundle time, so a `bun build --compile`
 * binary serves the same script without reading any source file.
 */
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WIDGET_JS } from '../../../src/modules/widget/asset.ts'

const dir = mkdtempSync(join(tmpdir(), 'lantern-compiled-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a compiled binary serves the same widget script as `bun src/main.ts`', async () => {
  const binary = join(dir, 'lantern')
  const build = Bun.spawn([process.execPath, 'build', '--compile', join(import.meta.dir, '../../../src/main.ts'), '--outfile', binary], {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  expect(await build.exited).toBe(0)
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = probe.port!
  probe.stop(true)
  const server = Bun.spawn([binary], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'db.sqlite') },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  try {
    let response: Response | undefined
    for (let attempt = 0; attempt < 50 && !response; attempt++) {
      response = await fetch(`http://127.0.0.1:${port}/static/embed/v1/status.js`).catch(() => undefined)
      if (!response) await Bun.sleep(100)
    }
    expect(response?.status).toBe(200)
    expect(await response!.text()).toBe(WIDGET_JS)
    expect(WIDGET_JS.length).toBeGreaterThan(1000)
  } finally {
    server.kill('SIGTERM')
    await server.exited
  }
}, 60_000)
