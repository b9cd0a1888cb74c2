/**
 * The list engine (server/docs/mailing-lists.md, "List engines"): what runs the lists behind the
 * portal, one interface chosen by PORTAL_LIST_ENGINE. 'embedded' (the default): the portal itself
 * (its SMTP listener, delivery through the outbox, its digests; its tables hold the held
 * messages). 'mailman': a Mailman 3 core, driven over its REST API (lists/mailman.ts).
 *
 * Either way the portal is the authority on who is eligible and on each member's choice
 * (list_subscriptions); an engine is told the outcome: a member's delivery, or a whole roster to
 * reconcile. The services call the engine; nothing else does.
 */
import type { Queryable } from '../../db/database.js';
import { UnavailableError } from '../../errors.js';
import type { HeldMessageRecord, MailingListRecord } from '../../repositories/mailing-lists.js';

export const LIST_ENGINES = ['embedded', 'mailman'] as const;
export type ListEngineName = (typeof LIST_ENGINES)[number];

/** What a subscriber receives: each post at once, or a digest. */
export type Delivery = 'regular' | 'digest';

/** A list as the portal records it (its id is the address, lower case). */
export type EngineList = MailingListRecord;

/** A member's wanted state on one list: null is not subscribed. */
export interface RosterEntry {
  readonly email: string;
  readonly displayName: string;
  readonly delivery: Delivery;
}

/** What a reconciliation changed at the engine. */
export interface RosterChanges {
  subscribed: number;
  unsubscribed: number;
  changedDelivery: number;
}

export type ModerationAction = 'accept' | 'always-accept' | 'discard';

export interface ModerationOutcome {
  accepted: number;
  discarded: number;
}

export interface ListEngine {
  readonly name: ListEngineName;
  /** Whether the portal itself receives posts (its SMTP listener) and sends the digests. */
  readonly portalDelivers: boolean;
  /** A list request approved: the list exists at the engine afterwards (already there is fine). */
  createList(tx: Queryable, list: EngineList): Promise<void>;
  /** One member's subscription at the engine: a delivery, or null for none. */
  setSubscription(list: EngineList, member: { email: string; displayName: string }, delivery: Delivery | null): Promise<void>;
  /**
   * Makes the engine's roster of the list exactly `wanted` (by lower-case address), creating the
   * list when the engine lost it; with dryRun only counts what it would change. The embedded
   * engine reads the roster from the portal's tables and has nothing to do.
   */
  reconcileList(list: EngineList, wanted: readonly RosterEntry[], options?: { dryRun?: boolean }): Promise<RosterChanges>;
  /**
   * One address across the lists: subscribed with the wanted delivery to the lists in `wanted`,
   * and to no other of the lists in `managed` (the portal's lists; an engine's other lists are
   * left alone).
   */
  reconcileAddress(member: { email: string; displayName: string }, wanted: ReadonlyMap<string, Delivery>, managed: readonly EngineList[]): Promise<RosterChanges>;
  /** How many messages each list holds (only lists with some need be in the map). */
  heldCounts(db: Queryable, listIds: readonly string[]): Promise<Map<string, number>>;
  /** The first `limit` held messages of the lists, oldest first, as plain text. */
  heldMessages(db: Queryable, listIds: readonly string[], limit: number): Promise<HeldMessageRecord[]>;
  /**
   * The moderators' actions on held messages of one list; a message decided meanwhile is skipped.
   * With discardDeferred every other held message of the list is discarded too.
   */
  moderate(
    tx: Queryable,
    list: EngineList,
    actions: readonly { messageId: number; action: ModerationAction }[],
    discardDeferred: boolean,
    at: Date,
  ): Promise<ModerationOutcome>;
}

export const NO_CHANGES: Readonly<RosterChanges> = Object.freeze({ subscribed: 0, unsubscribed: 0, changedDelivery: 0 });

/**
 * The engine did not do what was asked: a 503 for a person's request; for provisioning, a failure
 * in `problem`'s words ('no connection while subscribing …'), `unreachable` when the engine did not
 * answer at all (every other change would fail the same way).
 */
export class ListEngineError extends UnavailableError {
  constructor(
    message: string,
    readonly problem: string,
    readonly unreachable: boolean,
  ) {
    super(message);
  }
}
