/**
 * The request kinds the adjudication engine (services/adjudication.ts) knows: each module of
 * ./kinds registers its kind once, when it is loaded (index.ts loads them all), with the kind's
 * declaration in @portal/api (request-kinds/<kind>: its permissions, decisions, comment limit,
 * queue and detail schema, which the routes and the screens read). The module says how its queue
 * lists and what a decision does. Adding a kind is adding those two files; no list names the kinds.
 */
import type { ListEngine } from '../lists/engine.js';
import {
  adjudicatePermission as apiAdjudicatePermission,
  inKindOrder,
  listPermission as apiListPermission,
  viewPermission as apiViewPermission,
  type Decision,
  type RequestKind,
  type RequestKindDefinition as KindDeclaration,
  type RequestStatus,
} from '@portal/api';
import type { Permission } from '@portal/api';
import type { Queryable } from '../../db/database.js';
import type { DomainError } from '../../errors.js';
import type { RequestRowRecord } from '../../repositories/request-queue.js';
import type { Actor } from '../account-access.js';
import type { Mail } from '../mail.js';

/** Who works a kind's queue: who lists it, who reads a request, who decides one. */
export interface KindPermissions {
  readonly list: Permission;
  readonly view: Permission;
  readonly adjudicate: Permission;
}

/** What a decision's effect knows besides the request. */
export interface DecisionContext {
  /** Who decides. */
  readonly actor: Actor;
  /** The adjudicator's comment, trimmed ('' for none). */
  readonly comment: string;
  readonly at: Date;
  /** The portal's address for links in mail ('' leaves them relative). */
  readonly publicUrl: string;
  /** What runs the mailing lists (a list request's approval creates the list there). */
  readonly listEngine: ListEngine;
}

/** What a decision did besides its status and update: the mail to send (through the outbox, in the decision's transaction). */
export interface DecisionEffect {
  readonly mails: readonly Mail[];
}

/** What a caller may do with one request. */
export interface RequestAccess {
  readonly view: boolean;
  readonly adjudicate: boolean;
}

export interface RequestKindDefinition {
  readonly kind: RequestKind;
  /** Its declaration in @portal/api (request-kinds/<kind>), shared with the screens. */
  readonly declaration: KindDeclaration;
  readonly permissions: KindPermissions;
  /** The statuses its queue lists, oldest first. */
  readonly open: readonly RequestStatus[];
  /** The statuses from which a request may be decided (never to the status it has). */
  readonly decidableFrom: readonly RequestStatus[];
  /** The decisions it takes (each its own route). */
  readonly decisions: readonly Decision[];
  /** The longest comment an adjudicator may give. */
  readonly commentLimit: number;
  /**
   * What a caller may do with a request, for a kind decided where its permissions are held (a
   * membership: in the request's group). Absent: the session permissions above decide.
   */
  access?(db: Queryable, actor: Actor, request: RequestRowRecord): Promise<RequestAccess>;
  /** The queue's column that tells its requests apart (RequestRow.identifier). */
  identifier(request: RequestRowRecord): string;
  /** Its own fields of a request's detail (spec section 3), flat beside the common ones; internal ones left out. */
  detailFields(request: RequestRowRecord): Record<string, unknown>;
  /**
   * A decision's effect, in the decision's transaction after the status and the update are
   * written: what it changes (a DomainError thrown here undoes the whole decision) and the mail.
   */
  decide(tx: Queryable, request: RequestRowRecord, decision: Decision, context: DecisionContext): Promise<DecisionEffect>;
  /**
   * When a unique index refuses the effect's writes after the transaction (another decision won
   * a race for the same username, email or card): the error to answer instead; undefined when
   * the violation is not one of the effect's own.
   */
  raceConflict?(error: unknown, request: RequestRowRecord): DomainError | undefined;
}

/** What a kind's module says besides its declaration: the rest comes from the declaration. */
export type RequestKindModule = Omit<RequestKindDefinition, 'kind' | 'declaration' | 'permissions' | 'decisions' | 'commentLimit'>;

const registry = new Map<string, RequestKindDefinition>();
/** The registered kinds in their declared order, kept at each registration. */
let ordered: readonly RequestKindDefinition[] = [];

/** Registers a kind (once; its module does it when loaded) with its declaration in @portal/api. */
export function registerRequestKind(declaration: KindDeclaration, module: RequestKindModule): void {
  const kind = declaration.kind as RequestKind;
  if (registry.has(kind)) throw new Error(`The request kind '${kind}' is registered twice.`);
  const stem = [...registry.values()].find((other) => other.declaration.permission === declaration.permission);
  if (stem) throw new Error(`The request kinds '${stem.kind}' and '${kind}' both name their permissions ${declaration.permission}.`);
  registry.set(kind, {
    ...module,
    kind,
    declaration,
    permissions: { list: apiListPermission(declaration), view: apiViewPermission(declaration), adjudicate: apiAdjudicatePermission(declaration) },
    decisions: declaration.decisions,
    commentLimit: declaration.commentLimit,
  });
  ordered = inKindOrder([...registry.values()].map((definition) => definition.declaration)).map(({ kind }) => registry.get(kind) as RequestKindDefinition);
}

/** The registered kinds, in their declared order (the summary's and the permissions'). */
export function registeredKinds(): readonly RequestKindDefinition[] {
  return ordered;
}

/** A registered kind's definition. */
export function requestKind(kind: RequestKind): RequestKindDefinition {
  const definition = registry.get(kind);
  if (!definition) throw new Error(`The request kind '${kind}' is not registered.`);
  return definition;
}
