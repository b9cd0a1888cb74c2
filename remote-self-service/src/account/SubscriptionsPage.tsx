/**
 * /subscriptions (spec sections 2 and 8): a warning banner, the synchronization notice, one box
 * per supported service. A change is sent at once (shown at once, undone if the server refuses);
 * services held through a group are ticked and locked; without EDIT_SUBSCRIPTIONS every box is
 * locked. ?service=<id> names a service whose site sent the user here for lack of it.
 */
import { holdsService, type Service, SERVICE_INFO, SERVICES, supportedServices, SYNC_NOTICES } from '@portal/api';
import { ApiError, PageTitle, useConfiguration, useHasPermission, useSessionStore } from '@portal/shared';
import { getSubscriptions, setSubscription, type Subscriptions } from '../api/account';
import { Alert, Card, Checkbox, Empty, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
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

type LoadState = { status: 'loading' } | { status: 'ready' } | { status: 'failed'; message: string };

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

export function SubscriptionsPage() {
  const username = useSessionStore((s) => s.session?.username);
  const configuration = useConfiguration();
  const services = useMemo(() => supportedServices(configuration), [configuration]);
  const canEdit = useHasPermission('EDIT_SUBSCRIPTIONS');
  const [searchParams] = useSearchParams();
  const [load, setLoad] = useState<LoadState>({ status: 'loading' });
  // The boxes as shown, and the services whose change is on its way to the server.
  const [view, setView] = useState<{ subscriptions: Subscriptions; pending: readonly Service[] }>({
    subscriptions: { direct: [], nested: [] },
    pending: [],
  });
  const { subscriptions, pending } = view;
  const [changeError, setChangeError] = useState<string>();

  useEffect(() => {
    if (!username) return undefined;
    const controller = new AbortController();
    getSubscriptions(username, { signal: controller.signal }).then(
      (answer) => {
        setView({ subscriptions: answer, pending: [] });
        setLoad({ status: 'ready' });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'failed', message: loadError(error) });
      },
    );
    return () => controller.abort();
  }, [username]);

  const change = async (service: Service, subscribed: boolean) => {
    if (!username) return;
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
    load.status === 'ready' && requested && services.includes(requested as Service) && !holdsService(subscriptions, requested as Service)
      ? SERVICE_INFO[requested as Service].name
      : undefined;

  return (
    <>
      <PageTitle>Subscriptions</PageTitle>
      <Alert type="warning" showIcon role="note" title={SUBSCRIPTIONS_WARNING} style={{ marginBottom: 12 }} />
      <Alert type="info" showIcon role="note" title={SYNC_NOTICES.subscription} style={{ marginBottom: 16 }} />
      {redirectedFor && <Alert type="warning" showIcon role="alert" title={redirectWarning(redirectedFor)} style={{ marginBottom: 16 }} />}
      {load.status === 'loading' && <Skeleton active aria-busy="true" />}
      {load.status === 'failed' && <Alert type="error" showIcon role="alert" title={load.message} />}
      {load.status === 'ready' && (
        <>
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
      )}
    </>
  );
}
