/**
 * The import rules of the code, checked on every file under src/ (value imports only: a type-only
 * import is erased and joins nothing at run time, so the transpiler's own scan is what is counted).
 *
 * - No cycle between modules (the folders under src/modules/): arrows between features go one way.
 * - Nothing imports the web app (src/web/) but the composition that mounts it (src/app.ts).
 * - probes/ and lookup-tools/ reach the monitoring wing only through its faces: kinds/index.ts (the
 *   check kinds), run/index.ts (running them) and the module's own surface every module has
 *   (service.ts, model.ts, tables.ts, and index.ts for its routes).
 * - src/config.ts imports only src/lib/: reading the configuration needs no feature.
 */
import { expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')
const SRC = join(ROOT, 'src')
const transpiler = new Bun.Transpiler({ loader: 'ts' })

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return name.endsWith('.ts') ? [path] : []
  })
}

/** Every file's value imports of other files under src/, as paths relative to the repository. */
const imports = new Map<string, string[]>()
for (const file of sourceFiles(SRC)) {
  const targets = transpiler
    .scanImports(readFileSync(file, 'utf8'))
    .map((entry) => entry.path)
    .filter((path) => path.startsWith('.'))
    .map((path) => relative(ROOT, resolve(dirname(file), path)))
  imports.set(relative(ROOT, file), targets)
}

const moduleOf = (path: string): string | undefined => /^src\/modules\/([^/]+)\//.exec(path)?.[1]

test('no import cycle between modules', () => {
  const edges = new Map<string, Set<string>>()
  const because = new Map<string, string>()
  for (const [from, targets] of imports) {
    const a = moduleOf(from)
    for (const to of targets) {
      const b = moduleOf(to)
      if (!a || !b || a === b) continue
      if (!edges.has(a)) edges.set(a, new Set())
      edges.get(a)!.add(b)
      if (!because.has(`${a}>${b}`)) because.set(`${a}>${b}`, `${from} imports ${to}`)
    }
  }
  const reaches = (start: string, goal: string): boolean => {
    const seen = new Set<string>()
    const stack = [start]
    while (stack.length > 0) {
      const next = stack.pop()!
      if (next === goal) return true
      if (seen.has(next)) continue
      seen.add(next)
      stack.push(...(edges.get(next) ?? []))
    }
    return false
  }
  const onCycles = [...edges].flatMap(([a, targets]) => [...targets].filter((b) => reaches(b, a)).map((b) => because.get(`${a}>${b}`)!))
  expect(onCycles).toEqual([])
})

test('nothing imports the web app but the composition that mounts it', () => {
  const outside = [...imports].flatMap(([from, targets]) =>
    from.startsWith('src/web/') || from === 'src/app.ts' ? [] : targets.filter((to) => to.startsWith('src/web/')).map((to) => `${from} imports ${to}`),
  )
  expect(outside).toEqual([])
})

test('probes and lookup tools reach the monitoring wing only through its faces', () => {
  const FACES = new Set(
    ['index.ts', 'service.ts', 'model.ts', 'tables.ts', 'kinds/index.ts', 'run/index.ts'].map((file) => `src/modules/monitors/${file}`),
  )
  const inner = [...imports].flatMap(([from, targets]) =>
    /^src\/modules\/(probes|lookup-tools)\//.test(from) ? targets.filter((to) => to.startsWith('src/modules/monitors/') && !FACES.has(to)).map((to) => `${from} imports ${to}`) : [],
  )
  expect(inner).toEqual([])
})

test('the configuration imports only src/lib/', () => {
  expect((imports.get('src/config.ts') ?? []).filter((to) => !to.startsWith('src/lib/'))).toEqual([])
})
