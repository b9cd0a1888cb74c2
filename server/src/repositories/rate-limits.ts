/**
 * SQL for the rate limits' counts (services/rate-limits.ts): one row per limit, client and
 * window, counted in one statement so that every server of one PostgreSQL counts together and
 * parallel calls are each counted once. services/retention.ts deletes a row once its window ends.
 */
import type { Queryable } from '../db/database.js';

/** Adds one call to the window's count under `key` (made when the window's first call comes, to expire when it ends); returns the count including it. */
export async function countRateLimitHit(db: Queryable, key: string, expiresAt: Date): Promise<number> {
  const { rows } = await db.query<{ hits: number }>(
    `insert into rate_limit_hits (key, hits, expires_at) values ($1, 1, $2)
     on conflict (key) do update set hits = rate_limit_hits.hits + 1
     returning hits`,
    [key, expiresAt],
  );
  return Number(rows[0]?.hits ?? 1);
}
