/** The embedded database: PGlite in a data folder, locked against a second process. */
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult } from './database.js';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { LOCK_FILE_NAME, lockDirectory } from './lock.js';
import { tarFolder } from './tar.js';

const gzipAsync = promisify(gzip);
/** The running portal's command socket in the data folder (control.ts). */
const CONTROL_SOCKET_NAME = 'portal.sock';

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
  return pgliteDatabase(pglite, () => lock?.release(), options.dataDir);
}

/** The Database interface over an open PGlite instance; `afterClose` runs once it is closed. */
export function pgliteDatabase(pglite: PGlite, afterClose?: () => void, dataDir?: string): Database {
  let closing: Promise<void> | undefined;
  return {
    kind: 'pglite',
    ...wrap(pglite),
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return pglite.transaction((tx) => fn(wrap(tx)));
    },
    async dumpDataDir(): Promise<Uint8Array> {
      // Inside a transaction: no other transaction is half done while the files are read, and the
      // checkpoint has written every committed change to the data files first. A data folder is
      // read from the disk (PGlite writes it through at once), leaving out the lock and the command
      // socket, which PGlite's own dump cannot read; an in-memory database is dumped by PGlite.
      const tar = await pglite.transaction(async (tx) => {
        await tx.exec('checkpoint');
        if (dataDir === undefined) return Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
        return tarFolder(dataDir, new Set([LOCK_FILE_NAME, CONTROL_SOCKET_NAME]));
      });
      return new Uint8Array(await gzipAsync(tar));
    },
    close(): Promise<void> {
      closing ??= pglite.close().finally(() => afterClose?.());
      return closing;
    },
  };
}
