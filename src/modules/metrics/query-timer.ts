/**
 * Times every database query by operation, as a Kysely plugin on the application's handle: from the
 * moment the query is compiled to its result, so time spent waiting for the connection counts (it is
 * what the caller waits for). Failed queries are not timed. The operation is a bounded label: select,
 * insert, update, delete or other (DDL, pragmas, BEGIN); raw SQL counts by its first word.
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely'
import { BucketLayout, HistogramsBy, labelText, type ExpositionWriter } from './exposition.ts'

export type QueryOperation = 'select' | 'insert' | 'update' | 'delete' | 'other'

/** Seconds; from a cached point read (tens of microseconds) to a long report or a lock wait. */
const QUERY_BUCKETS = new BucketLayout([0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5])

const BY_NODE: Readonly<Record<string, QueryOperation>> = {
  SelectQueryNode: 'select',
  InsertQueryNode: 'insert',
  UpdateQueryNode: 'update',
  DeleteQueryNode: 'delete',
}

const RAW_FIRST_WORD = /^\s*(select|insert|update|delete)\b/i

export function operationOf(node: RootOperationNode): QueryOperation {
  const known = BY_NODE[node.kind]
  if (known !== undefined) return known
  if (node.kind === 'RawNode') {
    const word = RAW_FIRST_WORD.exec(node.sqlFragments[0] ?? '')?.[1]
    if (word !== undefined) return word.toLowerCase() as QueryOperation
  }
  return 'other'
}

export class QueryTimer implements KyselyPlugin {
  private readonly started = new WeakMap<object, { operation: QueryOperation; at: number }>()
  private readonly durations = new HistogramsBy<QueryOperation>(QUERY_BUCKETS, (operation) => labelText({ operation }))

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.started.set(args.queryId, { operation: operationOf(args.node), at: performance.now() })
    return args.node
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const start = this.started.get(args.queryId)
    if (start !== undefined) {
      this.started.delete(args.queryId)
      this.durations.observe(start.operation, (performance.now() - start.at) / 1000)
    }
    return args.result
  }

  write(out: ExpositionWriter): void {
    this.durations.write(out, 'lantern_database_query_duration_seconds', 'Database queries by operation (select, insert, update, delete, other): from compiling to the result, waiting for the connection included')
  }
}
