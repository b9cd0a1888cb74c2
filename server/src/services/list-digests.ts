/**
 * The daily digest (server/docs/mailing-lists.md, "Digests"): a list's posts accepted since its
 * last digest go to its digest subscribers in one mail, at most once every 24 hours, through the
 * mail outbox. Each round claims a list (FOR UPDATE SKIP LOCKED), so several server processes
 * send each digest once.
 */
import type { Database } from '../db/database.js';
import { claimDueDigestList, queueListMail, setLastDigest, takeUndigestedPosts, type ListPostRecord } from '../repositories/mailing-lists.js';

export const DIGEST_PERIOD_MS = 24 * 60 * 60 * 1000;

export function digestText(listId: string, description: string, posts: readonly ListPostRecord[]): string {
  const lines = [`${description} (${listId}): ${posts.length === 1 ? '1 message' : `${posts.length} messages`}`, ''];
  posts.forEach((post, i) => lines.push(`${i + 1}. ${post.subject} (${post.sender})`));
  for (const [i, post] of posts.entries()) {
    lines.push('', '-'.repeat(70), `${i + 1}. ${post.subject}`, `From: ${post.sender}`, `Date: ${post.acceptedAt.toISOString()}`, '', post.text);
  }
  lines.push('', '--', 'You receive this list as a daily digest. Change that on the Mailing Lists page of the portal.', '');
  return lines.join('\n');
}

/** One round: every list whose digest is due; returns how many digest mails were queued. */
export async function runListDigests(db: Database, now: Date): Promise<number> {
  let queued = 0;
  for (;;) {
    const sent = await db.transaction(async (tx) => {
      const list = await claimDueDigestList(tx, new Date(now.getTime() - DIGEST_PERIOD_MS));
      if (!list) return undefined;
      const posts = await takeUndigestedPosts(tx, list.id, now);
      await setLastDigest(tx, list.id, now);
      const subject = `[${list.id.split('@')[0]}] Digest, ${now.toISOString().slice(0, 10)}`;
      return queueListMail(tx, list, 'digest', { subject, body: digestText(list.id, list.description, posts) }, now);
    });
    if (sent === undefined) break;
    queued += sent;
  }
  return queued;
}
