import type { PortalConfiguration, RequestSummary } from '@portal/api';

export interface QueueLink {
  readonly label: string;
  readonly to: string;
}

const QUEUES: readonly { name: string; to: string; count?: keyof RequestSummary; cacOnly?: boolean }[] = [
  { name: 'Account Requests', to: '/list-account-requests', count: 'total_new' },
  { name: 'Denied Account Requests', to: '/list-denied-account-requests' },
  { name: 'Authentication Change Requests', to: '/list-authentication-change-requests', count: 'total_authchange', cacOnly: true },
  { name: 'Email Change Requests', to: '/list-email-change-requests', count: 'total_profilechange' },
  { name: 'Mailing List Requests', to: '/list-mailing-list-requests', count: 'total_mailinglist' },
  { name: 'User Group Requests', to: '/list-user-group-requests', count: 'total_usergroup' },
  { name: 'Unlock Account Requests', to: '/list-unlock-account-requests', count: 'total_unlock' },
];

/** The Manage Accounts block: each queue as 'name (count)' when the count is above 0 (spec section 2). */
export function queueLinks(summary: RequestSummary | undefined, config: Pick<PortalConfiguration, 'cac_support'>): QueueLink[] {
  return QUEUES.filter((q) => !q.cacOnly || config.cac_support).map(({ name, to, count }) => {
    const n = count && summary ? summary[count] : 0;
    return { label: n > 0 ? `${name} (${n})` : name, to };
  });
}
