/**
 * A post to a mailing list (server/docs/mailing-lists.md, "Posting"): who may post decides
 * whether it goes out at once or waits for a moderator. open: anyone; closed: subscribers;
 * announce: moderators; a sender a moderator always-accepted: always. Anything else is held, and
 * so is a post whose envelope sender and From: address differ (a forged sender cannot pass as a
 * subscriber). Accepted posts go to the immediate subscribers through the mail outbox and wait
 * for the day's digest.
 */
import { roleGroup } from '@portal/api';
import type { Database, Queryable } from '../db/database.js';
import { findAccountByEmail } from '../repositories/accounts.js';
import { findHeldGroups } from '../repositories/groups.js';
import {
  deliverPost,
  findEligibleMembers,
  findMailingList,
  findModeratedLists,
  insertHeldMessage,
  isAcceptedSender,
  type MailingListRecord,
} from '../repositories/mailing-lists.js';
import { postMail } from './mailing-lists.js';

export interface IncomingPost {
  /** The SMTP envelope's sender (MAIL FROM), lower case. */
  envelopeSender: string;
  /** The From: header's address, lower case ('' when none). */
  fromAddress: string;
  subject: string;
  /** Plain text: the text part, or the HTML part turned into text; never markup. */
  text: string;
  raw: Buffer;
}

export type PostOutcome = { outcome: 'delivered'; recipients: number } | { outcome: 'held'; reason: string };

export const HOLD_REASONS = {
  forged: 'The envelope sender and the From: address differ.',
  notSubscriber: 'Post by a non-subscriber to a list that only subscribers may post to.',
  notModerator: 'Post by a non-moderator to an announce-only list.',
} as const;

async function isModerator(db: Queryable, list: MailingListRecord, accountId: number): Promise<boolean> {
  const held = await findHeldGroups(db, accountId, list.userGroupId);
  if (held.some((h) => h.groupName === roleGroup(list.userGroupId, 'admin'))) return true;
  return (await findModeratedLists(db, accountId, [list.id])).has(list.id);
}

async function holdReason(db: Queryable, list: MailingListRecord, post: IncomingPost): Promise<string | undefined> {
  if (post.fromAddress !== post.envelopeSender) return HOLD_REASONS.forged;
  if (await isAcceptedSender(db, list.id, post.envelopeSender)) return undefined;
  if (list.postingPermissions === 'open') return undefined;
  if (list.postingPermissions === 'closed') {
    const subscribers = await findEligibleMembers(db, list, { subscribedOnly: true });
    return subscribers.some((m) => m.email.toLowerCase() === post.envelopeSender) ? undefined : HOLD_REASONS.notSubscriber;
  }
  const account = await findAccountByEmail(db, post.envelopeSender);
  return account?.active && !account.closed && (await isModerator(db, list, account.id)) ? undefined : HOLD_REASONS.notModerator;
}

/** Receives one post for a list (the address, lower case); undefined when there is no such list. */
export async function receivePost(db: Database, listId: string, post: IncomingPost, at: Date): Promise<PostOutcome | undefined> {
  return db.transaction(async (tx) => {
    const list = await findMailingList(tx, listId);
    if (!list) return undefined;
    const reason = await holdReason(tx, list, post);
    const sender = post.fromAddress || post.envelopeSender;
    if (reason !== undefined) {
      await insertHeldMessage(tx, { listId: list.id, sender, subject: post.subject, text: post.text, raw: post.raw, reason, heldAt: at });
      return { outcome: 'held' as const, reason };
    }
    const content = { sender, subject: post.subject, text: post.text };
    const recipients = await deliverPost(tx, list, content, postMail(list, content), at);
    return { outcome: 'delivered' as const, recipients };
  });
}
