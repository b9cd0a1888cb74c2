/** The small database interface the server uses, implemented by PGlite and by PostgreSQL (pg). */

export interface QueryResult<T> {
  rows: T[];
}

export interface QueryOptions {
  /**
   * Keep this statement prepared under this name (lowercase letters, digits, _; one name per SQL
   * text): parsed and planned once per connection, then only executed. For the lookups every
   * request makes (the session); a wrapper that ignores the option runs the query as usual.
   */
  prepare?: string;
  /**
   * A write whose whole effect the caller applies itself to what it keeps in memory (a session's
   * last-seen mark, services/session-cache.ts): it does not move Database.writeGeneration.
   */
  appliedByCaller?: boolean;
}

export interface Queryable {
  /** One statement with $1, $2 … parameters. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  /** A script of one or more statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database extends Queryable {
  readonly kind: DatabaseKind;
  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * The embedded database only: a gzipped tar of its data folder (PGlite dumpDataDir), taken after
   * a checkpoint while no other transaction runs. Undefined on PostgreSQL (pg_dump backs it up).
   */
  dumpDataDir?(): Promise<Uint8Array>;
  /**
   * The embedded database only: a number that moves when a statement that may write is sent and
   * again when it ends (and around every transaction and script). One process owns the data folder,
   * so every write passes here: a result read while the number stayed the same is still what the
   * database holds. Undefined on PostgreSQL, where other servers write too.
   */
  writeGeneration?(): number;
  /** Closes the database (and releases the embedded database's lock). Safe to call twice. */
  close(): Promise<void>;
}
