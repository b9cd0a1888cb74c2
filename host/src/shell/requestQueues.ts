import { DENIED_REQUESTS, REQUEST_KIND_INFO, type PortalConfiguration, type RequestSummary, type SummaryKind } from '@portal/api';

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
}

const QUEUES: readonly Queue[] = ORDER.map((entry): Queue => {
  if (entry === 'denied') return { name: DENIED_REQUESTS.label, to: DENIED_REQUESTS.path };
  const queue = REQUEST_KIND_INFO[entry].queue;
  if (!queue) throw new Error(`${entry} requests have no queue`);
  return { name: queue.label, to: queue.path, count: `total_${entry}`, cacOnly: queue.smartCardsOnly === true };
});

/** The Manage Accounts block: each queue as 'name (count)' when the count is above 0 (spec section 2). */
export function queueLinks(summary: RequestSummary | undefined, config: Pick<PortalConfiguration, 'cac_support'>): QueueLink[] {
  return QUEUES.filter((q) => !q.cacOnly || config.cac_support).map((q) => {
    const n = q.count && summary ? summary[q.count] : 0;
    return { label: n > 0 ? `${q.name} (${n})` : q.name, to: q.to };
  });
}
