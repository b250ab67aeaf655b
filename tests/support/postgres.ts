import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function run(connectionString: string, sql: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the PostgreSQL of `base` (TEST_DATABASE_URL), dropped when done. */
export async function createScratchDatabase(base: string, prefix = 'kiberarena_test'): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomUUID().replaceAll('-', '')}`;
  await run(base, `create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => run(base, `drop database if exists ${name} with (force)`) };
}
