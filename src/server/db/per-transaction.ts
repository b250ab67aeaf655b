import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Tx } from './client.ts';

/**
 * A map that lives as long as one transaction: what the transaction has read, so it is not read
 * twice. Outside a transaction nothing is kept (the map given is new each time), as a read there
 * would otherwise live as long as the database.
 */
export function perTransaction<K, V>(): (tx: Tx) => Map<K, V> {
  const maps = new WeakMap<Tx, Map<K, V>>();
  return (tx) => {
    if (!(tx instanceof PgTransaction)) return new Map();
    let map = maps.get(tx);
    if (!map) maps.set(tx, (map = new Map()));
    return map;
  };
}
