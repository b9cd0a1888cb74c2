import { DENIED_REQUESTS, listPermission, REQUEST_KIND_INFO, type Permission, type PortalConfiguration, type RequestSummary, type SummaryKind } from '@portal/api';

export interface QueueLink {
  readonly label: string;
  readonly to: string;
}

/** The Manage Accounts block's order (spec section 2): the denied search follows the account requests. */
const ORDER: readonly (SummaryKind | 'denied')[] = ['new', 'denied', 'authchange', 'profilechange', 'mailinglist', 'usergroup', 'unlock'];

interface Queue {
  readonly name: string;
  readonly to: string;
  readonly count?: `total_${SummaryKind}`;
  readonly cacOnly?: boolean;
  /** Who may open it: the kind's LIST permission (the denied search: the account requests'). */
  readonly permission: Permission;
}

const QUEUES: readonly Queue[] = ORDER.map((entry): Queue => {
  if (entry === 'denied') return { name: DENIED_REQUESTS.label, to: DENIED_REQUESTS.path, permission: listPermission('new') };
  const queue = REQUEST_KIND_INFO[entry].queue;
  if (!queue) throw new Error(`${entry} requests have no queue`);
  return { name: queue.label, to: queue.path, count: `total_${entry}`, cacOnly: queue.smartCardsOnly === true, permission: listPermission(entry) };
});

/**
 * The Manage Accounts block: each queue as 'name (count)' when the count is above 0 (spec section
 * 2), only the queues the reader may open (its list permission: a queue
 * that would not open is not offered).
 */
export function queueLinks(
  summary: RequestSummary | undefined,
  config: Pick<PortalConfiguration, 'cac_support'>,
  permissions: readonly string[],
): QueueLink[] {
  return QUEUES.filter((q) => (!q.cacOnly || config.cac_support) && permissions.includes(q.permission)).map((q) => {
    const n = q.count && summary ? summary[q.count] : 0;
    return { label: n > 0 ? `${q.name} (${n})` : q.name, to: q.to };
  });
}
