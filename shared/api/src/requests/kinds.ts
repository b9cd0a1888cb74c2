/**
 * A request kind, declared once in a file of its own (./kinds/<kind>.ts, spec sections 2, 3, 6
 * and 7): its path segment in the API, its permissions, the decisions it takes, its comment
 * limit, the roles that work it, where its queue is in the portal, and its own fields of a
 * request's details. No list names the kinds: the server registers those whose modules it loads
 * (server/src/services/request-kinds/kinds/, each importing its kind's file), and the remote that
 * owns a kind builds its queue's pages from its file (@portal/shared/requests). Each file also adds
 * its kind to `RequestKinds`, so that the types (RequestKind, Permission, RequestDetailOf) know it
 * wherever the file is compiled.
 */
import { Type, type Static, type TLiteral, type TObject, type TSchema } from 'typebox';
import type { Permission } from '../permissions.js';
import { closed } from '../common.js';
import { detailProperties, type Decision } from './model.js';


/** The platform roles that may be given a queue (server/src/services/roles.ts). */
export type QueueRole = 'help-desk' | 'adjudicator';

/** Where a kind's requests wait in the portal. */
export interface RequestQueue {
  /** The list's path; a request's details are at `${path}/{id}`. */
  readonly path: string;
  readonly listTitle: string;
  readonly detailTitle: string;
  /** Spec section 2: the queue exists only with CAC support. */
  readonly smartCardsOnly?: true;
}

export interface RequestKindDeclaration {
  /** Its path segment (`/requests/{kind}`) and its key in `RequestKinds`. */
  readonly kind: string;
  /** The stem of the kind's LIST_…, VIEW_… and ADJUDICATE_… permissions. */
  readonly permission: Uppercase<string>;
  /**
   * Its place among the kinds: the summary's counts and the permissions follow it (the spec's
   * kinds: 10 to 70, in the order of spec sections 3 and 6).
   */
  readonly order: number;
  /** The decisions it takes, in the order the decision panel shows them. */
  readonly decisions: readonly Decision[];
  /** The comment box's limit (spec section 9: 1000 for a new account, 150 for the others). */
  readonly commentLimit: number;
  /** The platform roles granted its three permissions (spec section 6; a site admin holds every permission). */
  readonly workedBy: readonly QueueRole[];
  /** Its queue in the portal, counted in GET /requests as `total_{kind}`; absent for a kind decided elsewhere (membership requests: in group administration). */
  readonly queue?: RequestQueue;
  /**
   * A kind decided in the request's group (membership): its VIEW_… and ADJUDICATE_… permissions
   * are held there (group permissions, spec section 6), and it has no queue's list.
   */
  readonly decidedInGroup?: true;
  /** Its own fields of a request's details, beside every request's (model.ts, detailProperties). */
  readonly fields: Readonly<Record<string, TSchema>>;
}

/** The schema of a kind's details: every request's fields and its own. */
type DetailSchema<K extends string, F extends RequestKindDeclaration['fields']> = TObject<
  Omit<typeof detailProperties, 'kind' | keyof F> & { readonly kind: TLiteral<K> } & F
>;

/**
 * A kind's declaration with the schema of its details (`detail`). The schema is open, so that a
 * kind may add fields before its file names them.
 */
export function defineRequestKind<const D extends RequestKindDeclaration>(declaration: D): D & { readonly detail: DetailSchema<D['kind'], D['fields']> } {
  const detail = Type.Object({ ...detailProperties, kind: Type.Literal(declaration.kind), ...declaration.fields }, { additionalProperties: true });
  return { ...declaration, detail: detail as unknown as DetailSchema<D['kind'], D['fields']> };
}

/** Any kind's definition, as code that serves every kind sees it. */
export type RequestKindDefinition = RequestKindDeclaration & { readonly detail: TObject };

/**
 * Every kind's definition, by its key: each kind's file adds its own
 * (`declare module '../kinds.js' { interface RequestKinds { new: typeof newAccountRequestKind } }`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface RequestKinds {}

/** The kinds' keys ('new', 'usergroup' …), as far as the program compiles their files. */
export type RequestKind = Extract<keyof RequestKinds, string>;

/** The stem of a kind's permissions ('NEW_ACCOUNT' for 'new'). */
export type RequestKindKey = { [K in RequestKind]: RequestKinds[K]['permission'] }[RequestKind];

/** The kinds with a queue, each counted in GET /requests as `total_{kind}`. */
export type SummaryKind = { [K in RequestKind]: RequestKinds[K] extends { readonly queue: object } ? K : never }[RequestKind];

/** A kind's details (GET /requests/{kind}/{id}). */
export type RequestDetailOf<K extends RequestKind> = Static<RequestKinds[K]['detail']>;
export type RequestDetail = { [K in RequestKind]: RequestDetailOf<K> }[RequestKind];

/** The kinds in their order (`order`), then by key. */
export function inKindOrder<D extends RequestKindDeclaration>(kinds: Iterable<D>): D[] {
  return [...kinds].sort((a, b) => a.order - b.order || a.kind.localeCompare(b.kind));
}

/** The kinds with a queue (counted in the summary). */
export function queuedKinds<D extends RequestKindDeclaration>(kinds: Iterable<D>): (D & { readonly queue: RequestQueue })[] {
  return inKindOrder(kinds).filter((kind): kind is D & { readonly queue: RequestQueue } => kind.queue !== undefined);
}

/** GET /requests: one count per kind with a queue (`total_{kind}`), built from the kinds the server registered. */
export function requestSummarySchema(kinds: Iterable<RequestKindDeclaration>) {
  return Type.Object(Object.fromEntries(queuedKinds(kinds).map(({ kind }) => [`total_${kind}`, Type.Integer()])), closed);
}
/** The counts the caller may see, one per kind with a queue (0 for a queue it cannot list). */
export type RequestSummary = { [K in SummaryKind as `total_${K}`]: number };

type Stem = Pick<RequestKindDeclaration, 'permission'>;
export const listPermission = (kind: Stem): Permission => `LIST_${kind.permission}_REQUESTS` as Permission;
export const viewPermission = (kind: Stem): Permission => `VIEW_${kind.permission}_REQUEST` as Permission;
export const adjudicatePermission = (kind: Stem): Permission => `ADJUDICATE_${kind.permission}_REQUEST` as Permission;
