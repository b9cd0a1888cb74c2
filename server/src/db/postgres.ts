/** PostgreSQL through a pg connection pool (DATABASE_URL). */
import pg from 'pg';
import type { Database, Queryable, QueryOptions, QueryResult } from './database.js';

export interface PostgresOptions {
  connectionString: string;
  /** Sets search_path on every connection (tests use a schema of their own). */
  searchPath?: string;
  max?: number;
  /** Told about an idle connection that failed (e.g. the database restarted). */
  onIdleError?: (error: Error) => void;
}

type PgQueryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

function wrap(target: PgQueryable): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<QueryResult<T>> {
      // A named statement: pg parses it once per connection and then sends only Bind/Execute, so
      // the server plans it once (a generic plan after its first executions) instead of every time.
      const result =
        options?.prepare === undefined
          ? await target.query<pg.QueryResultRow>(sql, [...params])
          : await target.query<pg.QueryResultRow>({ name: options.prepare, text: sql, values: [...params] });
      return { rows: result.rows as T[] };
    },
    async exec(sql: string): Promise<void> {
      // Without parameters pg uses the simple query protocol, which accepts several statements.
      await target.query(sql);
    },
  };
}

export function openPostgres(options: PostgresOptions): Database {
  if (options.searchPath !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.searchPath)) {
    throw new Error(`Invalid schema name for search_path: ${options.searchPath}`);
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    ...(options.searchPath === undefined ? {} : { options: `-c search_path=${options.searchPath}` }),
  });
  // An idle client losing its connection (database restart) must not crash the process:
  // it is reported, and the next query opens a new connection.
  pool.on('error', (error) => options.onIdleError?.(error));
  let closing: Promise<void> | undefined;
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true; // the connection is unusable: drop it rather than return it to the pool
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close(): Promise<void> {
      closing ??= pool.end();
      return closing;
    },
  };
}
