/**
 * SQL for mailing lists (migration 0010): the lists, the members' subscription choices,
 * moderators, accepted senders, held messages and posts. Who is eligible is read from the user
 * group at the moment it matters (HELD_IN_GROUP follows nested groups), never copied.
 */
import { eligibleGroups, type PostingPermission } from '@portal/api';
import type { Queryable } from '../db/database.js';
import { HELD_IN_GROUP } from './groups.js';

export interface NewMailingList {
  id: string;
  userGroupId: string;
  description: string;
  permissionGroup: string;
  postingPermissions: PostingPermission;
  automaticSubscription: boolean;
  createdAt: Date;
  requestId: number | null;
}

export interface MailingListRecord {
  id: string;
  userGroupId: string;
  description: string;
  permissionGroup: string;
  postingPermissions: PostingPermission;
  automaticSubscription: boolean;
}

interface ListRow {
  id: string;
  user_group_id: string;
  description: string;
  permission_group: string;
  posting_permissions: PostingPermission;
  automatic_subscription: boolean;
}

const LIST_COLUMNS = 'l.id, l.user_group_id, l.description, l.permission_group, l.posting_permissions, l.automatic_subscription';

function listRecord(row: ListRow): MailingListRecord {
  return {
    id: row.id,
    userGroupId: row.user_group_id,
    description: row.description,
    permissionGroup: row.permission_group,
    postingPermissions: row.posting_permissions,
    automaticSubscription: row.automatic_subscription,
  };
}

export async function insertMailingList(db: Queryable, list: NewMailingList): Promise<void> {
  await db.query(
    `insert into mailing_lists (id, user_group_id, description, permission_group, posting_permissions, automatic_subscription, created_at, request_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [list.id, list.userGroupId, list.description, list.permissionGroup, list.postingPermissions, list.automaticSubscription, list.createdAt, list.requestId],
  );
}

export async function findMailingList(db: Queryable, id: string): Promise<MailingListRecord | undefined> {
  const { rows } = await db.query<ListRow>(`select ${LIST_COLUMNS} from mailing_lists l where l.id = $1`, [id.toLowerCase()]);
  return rows[0] ? listRecord(rows[0]) : undefined;
}

/**
 * Serializes the requests for one list address until the transaction ends (an advisory lock
 * keyed by the address; PGlite runs one transaction at a time anyway, and accepts it too).
 */
export async function lockListAddress(tx: Queryable, listId: string): Promise<void> {
  await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`mailinglist:${listId}`]);
}

export async function mailingListExists(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from mailing_lists where id = $1', [id.toLowerCase()]);
  return rows.length > 0;
}

/** Every list, by address. */
export async function listAllMailingLists(db: Queryable): Promise<MailingListRecord[]> {
  const { rows } = await db.query<ListRow>(`select ${LIST_COLUMNS} from mailing_lists l order by l.id`);
  return rows.map(listRecord);
}

/** The lists of the user groups named, by address. */
export async function listMailingListsOfGroups(db: Queryable, groupIds: readonly string[]): Promise<MailingListRecord[]> {
  if (groupIds.length === 0) return [];
  const { rows } = await db.query<ListRow>(`select ${LIST_COLUMNS} from mailing_lists l where l.user_group_id = any($1::text[]) order by l.id`, [groupIds]);
  return rows.map(listRecord);
}

export interface SubscriptionChoice {
  subscribed: boolean;
  digest: boolean;
}

/** An account's choices on the lists named, by list. */
export async function findSubscriptionChoices(db: Queryable, accountId: number, listIds: readonly string[]): Promise<Map<string, SubscriptionChoice>> {
  if (listIds.length === 0) return new Map();
  const { rows } = await db.query<{ list_id: string; subscribed: boolean; digest: boolean }>(
    'select list_id, subscribed, digest from list_subscriptions where account_id = $1 and list_id = any($2::text[])',
    [accountId, listIds],
  );
  return new Map(rows.map((r) => [r.list_id, { subscribed: r.subscribed, digest: r.digest }]));
}

export async function saveSubscriptionChoice(db: Queryable, listId: string, accountId: number, choice: SubscriptionChoice, at: Date): Promise<void> {
  await db.query(
    `insert into list_subscriptions (list_id, account_id, subscribed, digest, updated_at) values ($1, $2, $3, $4, $5)
     on conflict (list_id, account_id) do update set subscribed = excluded.subscribed, digest = excluded.digest, updated_at = excluded.updated_at`,
    [listId, accountId, choice.subscribed, choice.digest, at],
  );
}

/** The lists (of those named) the account moderates explicitly. */
export async function findModeratedLists(db: Queryable, accountId: number, listIds: readonly string[]): Promise<Set<string>> {
  if (listIds.length === 0) return new Set();
  const { rows } = await db.query<{ list_id: string }>('select list_id from list_moderators where account_id = $1 and list_id = any($2::text[])', [
    accountId,
    listIds,
  ]);
  return new Set(rows.map((r) => r.list_id));
}

export async function addListModerator(db: Queryable, listId: string, accountId: number): Promise<void> {
  await db.query('insert into list_moderators (list_id, account_id) values ($1, $2) on conflict do nothing', [listId, accountId]);
}

export interface EligibleMember {
  accountId: number;
  email: string;
  fullName: string;
  subscribed: boolean;
  digest: boolean;
}

/**
 * The list's eligible users (holders of its permission group, directly or through another group;
 * active, not closed) with their effective subscription: their choice, else the list's default.
 */
export async function findEligibleMembers(db: Queryable, list: MailingListRecord, options: { subscribedOnly?: boolean } = {}): Promise<EligibleMember[]> {
  const { rows } = await db.query<{ id: string | number; email: string; first_name: string | null; last_name: string | null; subscribed: boolean; digest: boolean }>(
    `${HELD_IN_GROUP},
     eligible as (select distinct account_id from held where group_name = any($2::text[]))
     select a.id, a.email, a.first_name, a.last_name,
            coalesce(s.subscribed, $3::boolean) as subscribed, coalesce(s.digest, false) as digest
       from eligible e
       join accounts a on a.id = e.account_id and a.active and not a.closed
       left join list_subscriptions s on s.list_id = $4 and s.account_id = a.id
      where not $5::boolean or coalesce(s.subscribed, $3::boolean)
      order by lower(a.last_name), lower(a.first_name), a.email`,
    [list.userGroupId, eligibleGroups(list.userGroupId, list.permissionGroup), list.automaticSubscription, list.id, options.subscribedOnly === true],
  );
  return rows.map((r) => ({
    accountId: Number(r.id),
    email: r.email,
    fullName: [r.first_name, r.last_name].filter(Boolean).join(' '),
    subscribed: r.subscribed,
    digest: r.digest,
  }));
}

// Held messages ---------------------------------------------------------------------------------

export interface NewHeldMessage {
  listId: string;
  sender: string;
  subject: string;
  text: string;
  raw: Buffer;
  reason: string;
  heldAt: Date;
}

export interface HeldMessageRecord {
  id: number;
  listId: string;
  sender: string;
  subject: string;
  text: string;
  sizeBytes: number;
  reason: string;
  heldAt: Date;
}

interface HeldRow {
  id: string | number;
  list_id: string;
  sender: string;
  subject: string;
  text_body: string;
  size_bytes: number;
  reason: string;
  held_at: Date | string;
}

const HELD_COLUMNS = 'id, list_id, sender, subject, text_body, size_bytes, reason, held_at';
const heldRecord = (r: HeldRow): HeldMessageRecord => ({
  id: Number(r.id),
  listId: r.list_id,
  sender: r.sender,
  subject: r.subject,
  text: r.text_body,
  sizeBytes: r.size_bytes,
  reason: r.reason,
  heldAt: r.held_at instanceof Date ? r.held_at : new Date(r.held_at),
});

export async function insertHeldMessage(db: Queryable, message: NewHeldMessage): Promise<number> {
  const { rows } = await db.query<{ id: string | number }>(
    `insert into held_messages (list_id, sender, subject, text_body, raw, size_bytes, reason, held_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
    [message.listId, message.sender, message.subject, message.text, message.raw, message.raw.length, message.reason, message.heldAt],
  );
  return Number(rows[0]?.id);
}

/** A list's held messages, oldest first, a page at a time. */
export async function listHeldMessages(db: Queryable, listIds: readonly string[], limit: number, offset = 0): Promise<HeldMessageRecord[]> {
  if (listIds.length === 0) return [];
  const { rows } = await db.query<HeldRow>(
    `select ${HELD_COLUMNS} from held_messages where list_id = any($1::text[]) order by held_at, id limit $2 offset $3`,
    [listIds, limit, offset],
  );
  return rows.map(heldRecord);
}

export async function countHeldMessages(db: Queryable, listIds: readonly string[]): Promise<Map<string, number>> {
  if (listIds.length === 0) return new Map();
  const { rows } = await db.query<{ list_id: string; n: number }>(
    'select list_id, count(*)::int as n from held_messages where list_id = any($1::text[]) group by list_id',
    [listIds],
  );
  return new Map(rows.map((r) => [r.list_id, r.n]));
}

/** Removes the named held messages of a list; returns those removed (as they were). */
export async function takeHeldMessages(db: Queryable, listId: string, ids: readonly number[]): Promise<HeldMessageRecord[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<HeldRow>(`delete from held_messages where list_id = $1 and id = any($2::bigint[]) returning ${HELD_COLUMNS}`, [
    listId,
    ids,
  ]);
  return rows.map(heldRecord);
}

/** Removes every held message of a list but the named ones; returns how many. */
export async function discardHeldExcept(db: Queryable, listId: string, keep: readonly number[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'with gone as (delete from held_messages where list_id = $1 and not (id = any($2::bigint[])) returning 1) select count(*)::int as n from gone',
    [listId, keep],
  );
  return rows[0]?.n ?? 0;
}

export async function addAcceptedSender(db: Queryable, listId: string, sender: string, at: Date): Promise<void> {
  await db.query('insert into list_accepted_senders (list_id, sender, created_at) values ($1, $2, $3) on conflict do nothing', [listId, sender.toLowerCase(), at]);
}

export async function isAcceptedSender(db: Queryable, listId: string, sender: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from list_accepted_senders where list_id = $1 and sender = $2', [listId, sender.toLowerCase()]);
  return rows.length > 0;
}

// Delivery ------------------------------------------------------------------------------------

/** How a subscriber receives a list: each message at once, or the day's digest. */
export type ListDelivery = 'each' | 'digest';

/**
 * Queues a mail in the outbox for each of the list's subscribers who receive it the way named,
 * one row each, in one statement; returns how many were queued. A subscriber is an eligible
 * member (findEligibleMembers) subscribed by their own choice or, without one, by the list's
 * default; only a member who chose it receives the digest.
 */
export async function queueListMail(db: Queryable, list: MailingListRecord, delivery: ListDelivery, mail: { subject: string; body: string }, at: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `${HELD_IN_GROUP},
     eligible as (select distinct account_id from held where group_name = any($2::text[])),
     queued as (
       insert into mail_outbox (to_address, subject, body, created_at, next_attempt_at)
       select a.email, $5, $6, $7, $7
         from eligible e
         join accounts a on a.id = e.account_id and a.active and not a.closed
         left join list_subscriptions s on s.list_id = $4 and s.account_id = a.id
        where coalesce(s.subscribed, $3::boolean) and coalesce(s.digest, false) = $8::boolean
       returning 1
     )
     select count(*)::int as n from queued`,
    [list.userGroupId, eligibleGroups(list.userGroupId, list.permissionGroup), list.automaticSubscription, list.id, mail.subject, mail.body, at, delivery === 'digest'],
  );
  return rows[0]?.n ?? 0;
}

/**
 * A post accepted to a list: kept for the day's digest, and queued in the mail outbox for every
 * subscriber who receives each message at once. Returns how many were queued.
 */
export async function deliverPost(
  db: Queryable,
  list: MailingListRecord,
  post: { sender: string; subject: string; text: string },
  mail: { subject: string; body: string },
  at: Date,
): Promise<number> {
  await db.query('insert into list_posts (list_id, sender, subject, text_body, accepted_at) values ($1, $2, $3, $4, $5)', [
    list.id,
    post.sender,
    post.subject,
    post.text,
    at,
  ]);
  return queueListMail(db, list, 'each', mail, at);
}

// Digests -------------------------------------------------------------------------------------

export interface ListPostRecord {
  sender: string;
  subject: string;
  text: string;
  acceptedAt: Date;
}

/**
 * A list whose digest is due (none sent since the time given) and that has posts not yet in one,
 * locked for this transaction; lists another transaction holds are skipped (FOR UPDATE SKIP
 * LOCKED), so several server processes never send one digest twice.
 */
export async function claimDueDigestList(db: Queryable, lastSentBefore: Date): Promise<MailingListRecord | undefined> {
  const { rows } = await db.query<ListRow>(
    `select ${LIST_COLUMNS}
       from mailing_lists l
      where (l.last_digest_at is null or l.last_digest_at <= $1)
        and exists (select 1 from list_posts p where p.list_id = l.id and p.digested_at is null)
      order by l.id
      limit 1
      for update skip locked`,
    [lastSentBefore],
  );
  return rows[0] ? listRecord(rows[0]) : undefined;
}

/** Marks the list's posts not yet in a digest as digested at the time given; returns them, oldest first. */
export async function takeUndigestedPosts(db: Queryable, listId: string, at: Date): Promise<ListPostRecord[]> {
  const { rows } = await db.query<{ sender: string; subject: string; text_body: string; accepted_at: Date | string }>(
    `update list_posts set digested_at = $2 where list_id = $1 and digested_at is null
     returning sender, subject, text_body, accepted_at`,
    [listId, at],
  );
  return rows
    .map((r) => ({ sender: r.sender, subject: r.subject, text: r.text_body, acceptedAt: r.accepted_at instanceof Date ? r.accepted_at : new Date(r.accepted_at) }))
    .sort((a, b) => a.acceptedAt.getTime() - b.acceptedAt.getTime());
}

export async function setLastDigest(db: Queryable, listId: string, at: Date): Promise<void> {
  await db.query('update mailing_lists set last_digest_at = $2 where id = $1', [listId, at]);
}
