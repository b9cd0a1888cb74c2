/** Is the database answering? */
import type { Queryable } from '../db/database.js';

export type DatabaseHealth = { ok: true } | { ok: false; error: unknown };

export async function checkDatabase(db: Queryable): Promise<DatabaseHealth> {
  try {
    await db.query('select 1');
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}
