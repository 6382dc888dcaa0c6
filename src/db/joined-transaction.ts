/**
 * A transaction that services can be built on as if it were the database: a service that opens its
 * own transaction joins this one instead (Kysely refuses a transaction inside a transaction). What
 * one outer transaction makes through many service calls is then committed, or rolled back, whole.
 */
import type { Transaction } from 'kysely'
import type { Database } from './schema.ts'
import type { Db } from './client.ts'

export function joinedTransaction(trx: Transaction<Database>): Db {
  const joined: Db = new Proxy(trx, {
    get(target, property) {
      if (property === 'transaction') return () => ({ execute: <T>(work: (inner: Db) => Promise<T>) => work(joined) })
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return joined
}
