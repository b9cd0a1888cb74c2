/** The embedded database: PGlite in a data folder, locked against a second process. */
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Database, Queryable, QueryOptions, QueryResult } from './database.js';
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

const STATEMENT_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * A parameter as an SQL literal for EXECUTE, or undefined when it is of a kind this does not
 * write (the query then runs unprepared). Strings are quoted with their quotes doubled: with
 * standard_conforming_strings (always on) that is the whole of the escaping.
 */
function sqlLiteral(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'bigint') return String(value);
  const text = value instanceof Date ? (Number.isNaN(value.getTime()) ? undefined : value.toISOString()) : typeof value === 'string' ? value : undefined;
  if (text === undefined || text.includes('\u0000')) return undefined;
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * Prepared statements of one PGlite instance (one database session, so one set). PGlite runs a
 * parameterised query as six protocol exchanges with a parse and a plan each time (the plan reads
 * every table's and index's size from the file system); EXECUTE of a prepared statement is one
 * exchange over a cached plan: for the session lookup of every request, ~0.9 ms became ~0.15 ms.
 * Prepared statements outlive a rolled-back transaction, so one prepared in a transaction stays.
 */
class PreparedStatements {
  private readonly ready = new Set<string>();
  private readonly preparing = new Map<string, Promise<void>>();

  constructor(private readonly pglite: PgliteQueryable) {}

  /** The statement's EXECUTE, or undefined to run the query as usual. */
  async execute(inTransaction: boolean, name: string, sql: string, params: readonly unknown[]): Promise<string | undefined> {
    if (!STATEMENT_NAME.test(name)) throw new Error(`Invalid prepared statement name: ${name}`);
    const literals = params.map(sqlLiteral);
    if (literals.some((l) => l === undefined)) return undefined;
    if (!this.ready.has(name)) {
      // Inside a transaction the database is that transaction's until it ends: a PREPARE queued
      // outside it would wait for it, so the query runs as usual this once.
      if (inTransaction) return undefined;
      let preparing = this.preparing.get(name);
      if (!preparing) {
        preparing = this.pglite.exec(`prepare ${name} as ${sql}`).then(() => {
          this.ready.add(name);
        });
        preparing.catch(() => undefined).finally(() => this.preparing.delete(name));
        this.preparing.set(name, preparing);
      }
      await preparing;
    }
    return `execute ${name}${literals.length === 0 ? '' : `(${literals.join(', ')})`}`;
  }
}

/** Database.writeGeneration's count, shared by an instance and its transactions. */
interface Writes {
  generation: number;
}

/**
 * Whether a statement may write: anything but a plain SELECT (no functions or triggers write in
 * this schema). Erring towards "may" only costs a cached read.
 */
function mayWrite(sql: string): boolean {
  return !/^\s*select\b/i.test(sql) || /\b(?:insert|update|delete|merge|truncate)\b/i.test(sql);
}

/** Runs `fn` with the write generation moved before it starts and after it ends, however it ends. */
async function writing<T>(writes: Writes, fn: () => Promise<T>): Promise<T> {
  writes.generation++;
  try {
    return await fn();
  } finally {
    writes.generation++;
  }
}

function wrap(target: PgliteQueryable, statements: PreparedStatements, inTransaction: boolean, writes: Writes): Queryable {
  async function run<T>(sql: string, params: readonly unknown[], options: QueryOptions | undefined): Promise<QueryResult<T>> {
    const execute = options?.prepare === undefined ? undefined : await statements.execute(inTransaction, options.prepare, sql, params);
    if (execute !== undefined) {
      const [result] = await target.exec(execute);
      return { rows: (result?.rows ?? []) as T[] };
    }
    const result = await target.query<T>(sql, [...params]);
    return { rows: result.rows };
  }
  return {
    query<T>(sql: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<QueryResult<T>> {
      if (options?.appliedByCaller === true || !mayWrite(sql)) return run<T>(sql, params, options);
      return writing(writes, () => run<T>(sql, params, options));
    },
    async exec(sql: string): Promise<void> {
      await writing(writes, () => target.exec(sql));
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
  const statements = new PreparedStatements(pglite);
  const writes: Writes = { generation: 0 };
  return {
    kind: 'pglite',
    ...wrap(pglite, statements, false, writes),
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      // Moved when it starts and when it has committed or rolled back, besides its writes.
      return writing(writes, () => pglite.transaction((tx) => fn(wrap(tx, statements, true, writes))));
    },
    writeGeneration: () => writes.generation,
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
