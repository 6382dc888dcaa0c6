/**
 * Hot statements compiled once. Kysely builds and compiles a query anew on every call (in the
 * monitors bench that was over a third of the server's CPU); a statement whose text depends only on
 * the engine and a shape key (say, how many ids) keeps its text and runs with the new parameters.
 * The first build per key also checks that the parameters given match the ones Kysely compiled,
 * in order: when they do not (a value Kysely inlines or leaves out), the text is not kept and that
 * call runs as Kysely compiled it, so a caller's parameter list never drifts from its query.
 */
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely'
import { engineOf } from './engine.ts'

/** Shapes kept per statement; `in (?, …)` lists make one per length. */
const MAX_SHAPES = 1_000

export class CompiledOnce<R> {
  private readonly texts = new Map<string, string>()

  execute(db: Kysely<any>, shape: string | number, build: () => Compilable<R>, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    const key = `${engineOf(db)} ${shape}`
    let text = this.texts.get(key)
    if (text === undefined) {
      const compiled = build().compile()
      const same = compiled.parameters.length === parameters.length && compiled.parameters.every((value, i) => Object.is(value, parameters[i]))
      if (!same) return db.executeQuery<R>(compiled)
      text = compiled.sql
      if (this.texts.size >= MAX_SHAPES) this.texts.clear()
      this.texts.set(key, text)
    }
    return db.executeQuery<R>(CompiledQuery.raw(text, [...parameters]))
  }
}
