/** The embedded database: PGlite in a data folder, locked against a second process. */
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult } from './database.js';
import { lockDirectory } from './lock.js';

export interface PgliteOptions {
  /** The data folder. Without it the database lives in memory (tests). */
  dataDir?: string;
  /** A dump (PGlite dumpDataDir) to start from, instead of an empty database. */
  loadDataDir?: Blob;
}

type PgliteQueryable = Pick<Transaction, 'query' | 'exec'>;

function wrap(target: PgliteQueryable): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await target.query<T>(sql, [...params]);
      return { rows: result.rows };
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql);
    },
  };
}

export async function openPglite(options: PgliteOptions = {}): Promise<Database> {
  const lock = options.dataDir === undefined ? undefined : lockDirectory(options.dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  return pgliteDatabase(pglite, () => lock?.release());
}

/** The Database interface over an open PGlite instance; `afterClose` runs once it is closed. */
export function pgliteDatabase(pglite: PGlite, afterClose?: () => void): Database {
  let closing: Promise<void> | undefined;
  return {
    kind: 'pglite',
    ...wrap(pglite),
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return pglite.transaction((tx) => fn(wrap(tx)));
    },
    close(): Promise<void> {
      closing ??= pglite.close().finally(() => afterClose?.());
      return closing;
    },
  };
}
