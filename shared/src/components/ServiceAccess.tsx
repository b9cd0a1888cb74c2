/**
 * Whether what the portal decided about an account's services has reached them (the provisioning
 * targets: the LDAP directory the services read): one line per service the account uses, in the
 * words of serviceAccessText ('Up to date', 'Pending since …', 'Failed: …; retrying at …'), its
 * times as the portal shows dates. Shown by the profile and Account Administration; nothing when
 * no target is configured (nothing is pushed anywhere, so nothing can be out of step). While it
 * loads, an empty mark says the page is still busy (aria-busy): the section may yet appear and push
 * what is below it down, so a reader (or a test) waits for the page to settle before clicking.
 */
import * as api from '@portal/api';
import { SERVICE_INFO, serviceAccessText, type Service, type ServiceAccess } from '@portal/api';
import { call } from '@portal/shared';
import { Alert, Descriptions, Tag, Typography } from 'antd';
import { useCallback, useId } from 'react';
import { formatDateTime } from './dates.js';
import { errorText, useLoaded } from './useLoaded.js';

export const SERVICE_ACCESS_TITLE = 'Service Access';
export const serviceAccessError = (error: unknown) => `Could not tell whether the access to the services is up to date: ${errorText(error)}`;

const STATE_COLOR: Record<ServiceAccess['state'], string> = { 'up-to-date': 'success', pending: 'processing', failed: 'error' };

/** A service's name as the subscriptions show it; an id the portal does not list, as given. */
const serviceName = (id: string) => (SERVICE_INFO as Readonly<Record<string, { name: string } | undefined>>)[id]?.name ?? id;

/** The words for one service, its times in the portal's date format. */
export const serviceAccessWords = (access: ServiceAccess) => serviceAccessText(access, (ms) => formatDateTime(ms));

export interface ServiceAccessPanelProps {
  readonly username: string;
  /** The section heading's level (the pages' sections are level 3). */
  readonly headingLevel?: 3 | 4;
}

/** GET /service-access/{username}, then the section: nothing when the portal provisions nothing or the account uses no service. */
export function ServiceAccessPanel({ username, headingLevel = 3 }: ServiceAccessPanelProps) {
  const headingId = useId();
  const load = useCallback((signal: AbortSignal) => call(api.getServiceAccess, { params: { username } }, { signal }), [username]);
  const state = useLoaded(load);
  if (state.status === 'loading' || state.status === 'idle') return <div aria-busy="true" />;
  if (state.status === 'ready' && (!state.value.provisioned || state.value.services.length === 0)) return null;
  return (
    <section aria-labelledby={headingId} style={{ marginTop: 24 }}>
      <Typography.Title level={headingLevel} id={headingId}>
        {SERVICE_ACCESS_TITLE}
      </Typography.Title>
      {state.status === 'failed' ? (
        <Alert type="warning" showIcon role="alert" title={serviceAccessError(state.error)} />
      ) : (
        <Descriptions
          bordered
          size="small"
          column={1}
          items={state.value.services.map((access) => ({
            key: access.service,
            label: serviceName(access.service as Service),
            // A reason can be long: the tag wraps rather than widening the page.
            children: (
              <Tag color={STATE_COLOR[access.state]} style={{ whiteSpace: 'normal', marginInlineEnd: 0 }}>
                {serviceAccessWords(access)}
              </Tag>
            ),
          }))}
        />
      )}
    </section>
  );
}
