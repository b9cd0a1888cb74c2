/** Secrets the server generates once and every server process shares. */
import type { Queryable } from '../db/database.js';

/** The secret of this name; the first caller's candidate is stored, later callers read it. */
export async function ensureSecret(db: Queryable, name: string, candidate: string): Promise<string> {
  await db.query('insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [name, candidate]);
  const { rows } = await db.query<{ value: string }>('select value from server_secrets where name = $1', [name]);
  const value = rows[0]?.value;
  if (value === undefined) throw new Error(`server secret '${name}' could not be stored`);
  return value;
}
