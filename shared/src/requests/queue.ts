/**
 * A request queue, as the remote that owns its kind configures it (spec sections 2, 6 and 8):
 * where its list and details live, their titles and permissions (from the kind's declaration in
 * @portal/api request-kinds/),
 * how its rows read, the kind's own lines of a request's details, and what a decision says and
 * where it leads. The pages of this folder serve every queue; remote-adjudication owns the account
 * kinds' queues, remote-groups the user groups', remote-mailing-lists the mailing lists'.
 */
import { listPermission, viewPermission, type Decision, type Permission, type RequestDetailOf, type RequestKindDefinition, type SummaryKind } from '@portal/api';
import type { DescriptionsProps } from 'antd';

/** The kinds with a queue (membership requests are decided in group administration). */
export type QueueKind = SummaryKind;

/** Lines of a request's details, as antd's Descriptions takes them. */
export type DetailItems = NonNullable<DescriptionsProps['items']>;

/** What the kind's lines may depend on besides the request. */
export interface FieldsContext {
  /** Spec section 2: CAC support shows a new account's CAC eligibility. */
  readonly cacSupport: boolean;
}

/** What the kind's declaration (@portal/api request-kinds/<kind>) says of its queue. */
export interface QueueInfo<K extends QueueKind = QueueKind> {
  readonly kind: K;
  /** The declaration itself, which the queue's calls are built from. */
  readonly definition: RequestKindDefinition & { readonly kind: K };
  /** The list's path; a request's details are at `${listPath}/{id}`. */
  readonly listPath: string;
  readonly listTitle: string;
  readonly detailTitle: string;
  readonly listPermission: Permission;
  /** Opens the details (the [details] link shows only with it). */
  readonly viewPermission: Permission;
  /** The comment's limit (spec section 9: 1000 for a new account, 150 for the others). */
  readonly commentLimit: number;
  /** Spec section 2: the queue exists only with CAC support (its routes lead to /not-found without). */
  readonly smartCardsOnly?: true;
}

export interface KindConfig<K extends QueueKind = QueueKind> extends QueueInfo<K> {
  /**
   * The heading of the row's identifier column; absent when the identifier is the username,
   * which the username column already shows (unlock).
   */
  readonly identifierLabel?: string;
  /** How the identifier reads in the list (default: as given). */
  formatIdentifier?(identifier: string): string;
  /** Spec section 2: the username column of authentication change, email change and unlock. */
  readonly showUsername: boolean;
  /** The buttons' labels, in the order shown. */
  readonly buttons: Readonly<Partial<Record<Decision, string>>>;
  /** The kind's own lines of a request's details, after the common ones (id, status, dates, who). */
  fields(request: RequestDetailOf<K>, context: FieldsContext): DetailItems;
  /** The details also show the account the request is about (kinds about an existing account). */
  readonly showAccount?: true;
  /** The feedback after a decision. */
  feedback(decision: Decision, request: RequestDetailOf<K>): string;
  /** After a decision: the list, or back where the adjudicator came from (the list if unknown). */
  readonly returnTo: 'list' | 'previous';
}

/** A queue's paths, titles, permissions and comment limit, from its kind's declaration. */
export function queueInfo<K extends QueueKind>(definition: RequestKindDefinition & { readonly kind: K }): QueueInfo<K> {
  const { kind, queue } = definition;
  if (!queue) throw new Error(`${kind} requests have no queue`);
  return {
    kind,
    definition,
    listPath: queue.path,
    listTitle: queue.listTitle,
    detailTitle: queue.detailTitle,
    listPermission: listPermission(definition),
    viewPermission: viewPermission(definition),
    commentLimit: definition.commentLimit,
    ...(queue.smartCardsOnly ? { smartCardsOnly: true as const } : {}),
  };
}

/** The buttons of a kind decided by approving or denying. */
export const APPROVE_OR_DENY = { approved: 'Approve', denied: 'Deny' } as const;
