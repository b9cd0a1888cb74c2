/**
 * /subscriptions (spec sections 2 and 8): a warning banner, the synchronization notice, one box
 * per supported service. A change is sent at once (shown at once, undone if the server refuses);
 * services held through a group are ticked and locked; without EDIT_SUBSCRIPTIONS every box is
 * locked. ?service=<id> names a service whose site sent the user here for lack of it.
 */
import { holdsService, type Service, SERVICE_INFO, SERVICES, supportedServices, SYNC_NOTICES } from '@portal/api';
import { ApiError, PageTitle, useConfiguration, useHasPermission, useSessionStore } from '@portal/shared';
import { useLoaded } from '@portal/shared/components';
import { getSubscriptions, setSubscription, type Subscriptions } from '../api/account';
import { Alert, Card, Checkbox, Empty, Skeleton, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

export const SUBSCRIPTIONS_WARNING =
  'Subscribe only to the services your work needs. A subscription gives your account access to the service; removing it takes that access away.';
export const THROUGH_A_GROUP = 'Through a group';
export const NO_SERVICES = 'No services are available for subscription.';

const statusAndError = (error: unknown) =>
  error instanceof ApiError ? `${error.status} ${error.message}` : `0 ${error instanceof Error ? error.message : String(error)}`;

export const loadError = (error: unknown) => `Error getting user's subscriptions: ${statusAndError(error)}`;
export const updateError = (error: unknown) => `Error updating user's subscriptions: ${statusAndError(error)}`;

export const redirectWarning = (service: string) =>
  `${service} has redirected you to this page because your account is lacking a service subscription. Please select a subscription to the service.`;

const withService = (list: readonly Service[], service: Service, present: boolean): Service[] =>
  present ? (list.includes(service) ? [...list] : [...list, service]) : list.filter((s) => s !== service);

function ServiceBox({
  service,
  subscriptions,
  canEdit,
  busy,
  onChange,
}: {
  service: Service;
  subscriptions: Subscriptions;
  canEdit: boolean;
  busy: boolean;
  onChange(service: Service, subscribed: boolean): void;
}) {
  const { name, description } = SERVICE_INFO[service];
  const nested = subscriptions.nested.includes(service);
  const checked = nested || subscriptions.direct.includes(service);
  const id = `subscription-${service}`;
  return (
    <Card size="small" style={{ height: '100%' }}>
      <Checkbox
        id={id}
        checked={checked}
        disabled={nested || !canEdit || busy}
        onChange={(event) => onChange(service, event.target.checked)}
        aria-describedby={`${id}-description`}
      >
        <Typography.Text strong>{name}</Typography.Text>
      </Checkbox>
      {nested && (
        <Tag style={{ marginInlineStart: 8 }} color="processing">
          {THROUGH_A_GROUP}
        </Tag>
      )}
      <Typography.Paragraph id={`${id}-description`} type="secondary" style={{ margin: '8px 0 0' }}>
        {description}
      </Typography.Paragraph>
    </Card>
  );
}

/** The boxes, from the subscriptions loaded; a change is shown at once and sent. */
function ServiceBoxes({ username, loaded }: { username: string; loaded: Subscriptions }) {
  const configuration = useConfiguration();
  const services = useMemo(() => supportedServices(configuration), [configuration]);
  const canEdit = useHasPermission('EDIT_SUBSCRIPTIONS');
  const [searchParams] = useSearchParams();
  // The boxes as shown, and the services whose change is on its way to the server.
  const [view, setView] = useState<{ subscriptions: Subscriptions; pending: readonly Service[] }>({ subscriptions: loaded, pending: [] });
  const { subscriptions, pending } = view;
  const [changeError, setChangeError] = useState<string>();

  const change = async (service: Service, subscribed: boolean) => {
    setChangeError(undefined);
    // Shown at once; undone below if the server refuses.
    setView((v) => ({
      subscriptions: { ...v.subscriptions, direct: withService(v.subscriptions.direct, service, subscribed) },
      pending: [...v.pending, service],
    }));
    try {
      const answer = await setSubscription(username, service, subscribed);
      setView((v) => {
        const pendingNow = v.pending.filter((s) => s !== service);
        // Another box may be on its way: it keeps what it shows; the rest is the server's answer.
        const direct = SERVICES.filter((s) => (pendingNow.includes(s) ? v.subscriptions.direct : answer.direct).includes(s));
        return { subscriptions: { direct, nested: answer.nested }, pending: pendingNow };
      });
    } catch (error) {
      setView((v) => ({
        subscriptions: { ...v.subscriptions, direct: withService(v.subscriptions.direct, service, !subscribed) },
        pending: v.pending.filter((s) => s !== service),
      }));
      setChangeError(updateError(error));
    }
  };

  const requested = searchParams.get('service')?.trim().toLowerCase();
  const redirectedFor =
    requested && services.includes(requested as Service) && !holdsService(subscriptions, requested as Service) ? SERVICE_INFO[requested as Service].name : undefined;

  return (
    <>
      {redirectedFor && <Alert type="warning" showIcon role="alert" title={redirectWarning(redirectedFor)} style={{ marginBottom: 16 }} />}
      {changeError && <Alert type="error" showIcon role="alert" title={changeError} closable={{ 'aria-label': 'Dismiss' }} onClose={() => setChangeError(undefined)} style={{ marginBottom: 16 }} />}
      {!canEdit && (
        <Typography.Paragraph type="secondary">You may view your subscriptions; changing them needs the edit-subscriptions permission.</Typography.Paragraph>
      )}
      {services.length === 0 ? (
        <Empty description={NO_SERVICES} />
      ) : (
        <section aria-label="Services">
          <ul style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))', gap: 16 }}>
            {services.map((service) => (
              <li key={service}>
                <ServiceBox
                  service={service}
                  subscriptions={subscriptions}
                  canEdit={canEdit}
                  busy={pending.includes(service)}
                  onChange={(s, subscribed) => void change(s, subscribed)}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

export function SubscriptionsPage() {
  const username = useSessionStore((s) => s.session?.username);
  const load = useMemo(() => (username ? (signal: AbortSignal) => getSubscriptions(username, { signal }) : undefined), [username]);
  const state = useLoaded(load);

  return (
    <>
      <PageTitle>Subscriptions</PageTitle>
      <Alert type="warning" showIcon role="note" title={SUBSCRIPTIONS_WARNING} style={{ marginBottom: 12 }} />
      <Alert type="info" showIcon role="note" title={SYNC_NOTICES.subscription} style={{ marginBottom: 16 }} />
      {/* Without a username yet the page waits, as while loading. */}
      {(state.status === 'loading' || state.status === 'idle') && <Skeleton active aria-busy="true" />}
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={loadError(state.error)} />}
      {state.status === 'ready' && username && <ServiceBoxes key={username} username={username} loaded={state.value} />}
    </>
  );
}
