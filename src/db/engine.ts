/**
 * Which engine a Kysely instance talks to, and the few places where the two engines differ in DDL.
 *
 * Migrations are written once, SQLite-style (`integer`, `blob`, `autoIncrement()`, `without rowid`);
 * on PostgreSQL `PostgresSchemaPlugin` rewrites those nodes as they are compiled, so a new migration
 * needs no second version. Only raw SQL that differs (triggers) branches on `engineOf(db)`.
 */
import {
  ColumnDefinitionNode,
  CreateTableNode,
  DataTypeNode,
  GeneratedNode,
  OperationNodeTransformer,
  PostgresAdapter,
  RawNode,
  sql,
  type RawBuilder,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely'

export type Engine = 'sqlite' | 'postgres'

export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

function isSqliteOnlyModifier(node: OperationNode): boolean {
  return RawNode.is(node) && node.sqlFragments.join('').trim().toLowerCase() === 'without rowid'
}

class SqliteToPostgresDdl extends OperationNodeTransformer {
  // Epoch milliseconds overflow a 32-bit integer: every integer is 64-bit, as it is on SQLite.
  protected override transformDataType(node: DataTypeNode): DataTypeNode {
    if (node.dataType === 'integer') return DataTypeNode.create('bigint')
    if (node.dataType === 'blob') return DataTypeNode.create('bytea')
    return super.transformDataType(node)
  }

  protected override transformColumnDefinition(node: ColumnDefinitionNode): ColumnDefinitionNode {
    const transformed = super.transformColumnDefinition(node)
    if (!transformed.autoIncrement) return transformed
    // `by default`, not `always`: imports and restores may write their own ids.
    return { ...transformed, autoIncrement: undefined, generated: GeneratedNode.create({ byDefault: true, identity: true }) }
  }

  protected override transformCreateTable(node: CreateTableNode): CreateTableNode {
    const transformed = super.transformCreateTable(node)
    const endModifiers = transformed.endModifiers?.filter((modifier) => !isSqliteOnlyModifier(modifier))
    return { ...transformed, endModifiers: endModifiers?.length ? endModifiers : undefined }
  }
}

/** Applied to the migrator's connection on PostgreSQL only. */
export class PostgresSchemaPlugin implements KyselyPlugin {
  private readonly transformer = new SqliteToPostgresDdl()

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node)
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result
  }
}

export interface TriggerSpec {
  name: string
  /** e.g. `AFTER INSERT`, `BEFORE DELETE`. */
  timing: string
  table: string
  /** Statements ending in `;`, using NEW and OLD; qualify upsert columns with their table (PostgreSQL needs it). */
  body: string
}

/** A row trigger on either engine: SQLite's inline body, or a PL/pgSQL function on PostgreSQL. */
export async function createTrigger(db: Kysely<any>, trigger: TriggerSpec): Promise<void> {
  if (engineOf(db) === 'sqlite') {
    await sql.raw(`CREATE TRIGGER ${trigger.name} ${trigger.timing} ON ${trigger.table} BEGIN ${trigger.body} END`).execute(db)
    return
  }
  // A BEFORE trigger must hand the row back for the statement to go on; AFTER ignores the value.
  const carryOn = trigger.timing.toUpperCase().includes('DELETE') ? 'OLD' : 'NEW'
  await sql.raw(`CREATE FUNCTION ${trigger.name}_fn() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN ${trigger.body} RETURN ${carryOn}; END $body$`).execute(db)
  await sql.raw(`CREATE TRIGGER ${trigger.name} ${trigger.timing} ON ${trigger.table} FOR EACH ROW EXECUTE FUNCTION ${trigger.name}_fn()`).execute(db)
}

export async function dropTrigger(db: Kysely<any>, name: string, table: string): Promise<void> {
  if (engineOf(db) === 'sqlite') {
    await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db)
    return
  }
  await sql.raw(`DROP TRIGGER IF EXISTS ${name} ON ${table}`).execute(db)
  await sql.raw(`DROP FUNCTION IF EXISTS ${name}_fn()`).execute(db)
}

/** The few scalar and aggregate spellings that differ between the engines, for raw SQL in repositories. */
export interface EngineSql {
  /** The smaller of non-null values: SQLite's multi-argument `min`, PostgreSQL's `least`. */
  least(...values: RawBuilder<unknown>[]): RawBuilder<number>
  /** The larger of non-null values: SQLite's multi-argument `max`, PostgreSQL's `greatest`. */
  greatest(...values: RawBuilder<unknown>[]): RawBuilder<number>
  /** An aggregate: the JSON array text of `element` over the group's rows, `[]` for none. */
  jsonArrayText(element: RawBuilder<unknown>): RawBuilder<string>
}

const sqliteSql: EngineSql = {
  least: (...values) => sql<number>`min(${sql.join(values)})`,
  greatest: (...values) => sql<number>`max(${sql.join(values)})`,
  jsonArrayText: (element) => sql<string>`json_group_array(${element})`,
}

const postgresSql: EngineSql = {
  least: (...values) => sql<number>`least(${sql.join(values)})`,
  greatest: (...values) => sql<number>`greatest(${sql.join(values)})`,
  // json_agg answers NULL for no rows; text so that callers parse it the same way on both engines.
  jsonArrayText: (element) => sql<string>`coalesce(json_agg(${element}), '[]'::json)::text`,
}

export function engineSql(db: Kysely<any>): EngineSql {
  return engineOf(db) === 'postgres' ? postgresSql : sqliteSql
}
