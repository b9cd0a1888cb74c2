/** Used bot challenges: each solved challenge is accepted once, on any server process. */
import type { Queryable } from '../db/database.js';

/** Records a challenge as used; false when it had been used already. Purges expired records. */
export async function markChallengeUsed(db: Queryable, signatureHash: string, expiresAt: Date, now: Date): Promise<boolean> {
  await db.query('delete from used_challenges where expires_at < $1', [now]);
  const { rows } = await db.query(
    'insert into used_challenges (signature_hash, expires_at) values ($1, $2) on conflict (signature_hash) do nothing returning signature_hash',
    [signatureHash, expiresAt],
  );
  return rows.length > 0;
}
