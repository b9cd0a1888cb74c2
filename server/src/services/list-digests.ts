/**
 * The daily digest (server/docs/mailing-lists.md, "Digests"): a list's posts accepted since its
 * last digest go to its digest subscribers in one mail, at most once every 24 hours, through the
 * mail outbox. Each round claims a list (FOR UPDATE SKIP LOCKED), so several server processes
 * send each digest once.
 */
import { eligibleGroups } from '@portal/api';
import type { Database } from '../db/database.js';
import { HELD_IN_GROUP } from '../repositories/groups.js';

export const DIGEST_PERIOD_MS = 24 * 60 * 60 * 1000;

interface DigestPost {
  sender: string;
  subject: string;
  text_body: string;
  accepted_at: Date | string;
}

export function digestText(listId: string, description: string, posts: readonly DigestPost[]): string {
  const lines = [`${description} (${listId}): ${posts.length === 1 ? '1 message' : `${posts.length} messages`}`, ''];
  posts.forEach((post, i) => lines.push(`${i + 1}. ${post.subject} (${post.sender})`));
  for (const [i, post] of posts.entries()) {
    const at = post.accepted_at instanceof Date ? post.accepted_at : new Date(post.accepted_at);
    lines.push('', '-'.repeat(70), `${i + 1}. ${post.subject}`, `From: ${post.sender}`, `Date: ${at.toISOString()}`, '', post.text_body);
  }
  lines.push('', '--', 'You receive this list as a daily digest. Change that on the Mailing Lists page of the portal.', '');
  return lines.join('\n');
}

/** One round: every list whose digest is due; returns how many digest mails were queued. */
export async function runListDigests(db: Database, now: Date): Promise<number> {
  let queued = 0;
  for (;;) {
    const sent = await db.transaction(async (tx) => {
      const { rows: lists } = await tx.query<{ id: string; user_group_id: string; permission_group: string; automatic_subscription: boolean; description: string }>(
        `select l.id, l.user_group_id, l.permission_group, l.automatic_subscription, l.description
           from mailing_lists l
          where (l.last_digest_at is null or l.last_digest_at <= $1)
            and exists (select 1 from list_posts p where p.list_id = l.id and p.digested_at is null)
          order by l.id
          limit 1
          for update skip locked`,
        [new Date(now.getTime() - DIGEST_PERIOD_MS)],
      );
      const list = lists[0];
      if (!list) return undefined;
      const { rows: posts } = await tx.query<DigestPost>(
        `update list_posts set digested_at = $2 where list_id = $1 and digested_at is null
         returning sender, subject, text_body, accepted_at`,
        [list.id, now],
      );
      posts.sort((a, b) => new Date(a.accepted_at).getTime() - new Date(b.accepted_at).getTime());
      await tx.query('update mailing_lists set last_digest_at = $2 where id = $1', [list.id, now]);
      const subject = `[${list.id.split('@')[0]}] Digest, ${now.toISOString().slice(0, 10)}`;
      const { rows } = await tx.query<{ n: number }>(
        `${HELD_IN_GROUP},
         eligible as (select distinct account_id from held where group_name = any($2::text[])),
         queued as (
           insert into mail_outbox (to_address, subject, body, created_at, next_attempt_at)
           select a.email, $4, $5, $6, $6
             from eligible e
             join accounts a on a.id = e.account_id and a.active and not a.closed
             join list_subscriptions s on s.list_id = $3 and s.account_id = a.id and s.subscribed and s.digest
           returning 1
         )
         select count(*)::int as n from queued`,
        [list.user_group_id, eligibleGroups(list.user_group_id, list.permission_group), list.id, subject, digestText(list.id, list.description, posts), now],
      );
      return rows[0]?.n ?? 0;
    });
    if (sent === undefined) break;
    queued += sent;
  }
  return queued;
}
