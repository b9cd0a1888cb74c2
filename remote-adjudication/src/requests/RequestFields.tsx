/**
 * What a request says, per kind (spec sections 2 and 3; server/docs/adjudication.md,
 * RequestDetail): the common facts, the kind's own fields, and the certificate or the account
 * where the kind has one.
 */
import { CONSTRAINT_TEXT, serviceNames, visibilityText, type MemberConstraint, type RequestDetail } from '@portal/api';
import { useConfiguration } from '@portal/shared';
import { AccountDetails, authenticationMethod, CertificatePanel, formatDateTime, ReasonText } from '@portal/shared/components';
import { Descriptions, Typography, type DescriptionsProps } from 'antd';
import { useId, type ReactNode } from 'react';
import { capitalize } from './RequestTable';

type Items = NonNullable<DescriptionsProps['items']>;

/** Spec section 2: "Unprovided supervisor fields show 'not provided'". */
export const NOT_PROVIDED = 'not provided';

const blank = (value: string | null | undefined) => (value ?? '').trim() === '';

function orNotProvided(value: string | null | undefined): ReactNode {
  return blank(value) ? <Typography.Text type="secondary">{NOT_PROVIDED}</Typography.Text> : value;
}

function lines(...parts: (string | undefined)[]): ReactNode {
  const shown = parts.filter((p): p is string => !blank(p));
  return shown.map((p, i) => <div key={i}>{p}</div>);
}

const text = (value: string | null | undefined): ReactNode => <span style={{ whiteSpace: 'pre-wrap' }}>{value ?? ''}</span>;
const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const fullName = (first: string | undefined, last: string | undefined) => `${first ?? ''} ${last ?? ''}`.trim();

/** Spec section 3: automatic_subscription true means opt-out, else opt-in. */
export const subscriptionPolicy = (automatic: boolean) => (automatic ? 'opt-out' : 'opt-in');

function commonItems(request: RequestDetail): Items {
  const items: Items = [
    { key: 'id', label: 'Request ID', children: request.id },
    { key: 'status', label: 'Status', children: capitalize(request.status) },
    { key: 'created', label: 'Created', children: formatDateTime(request.created) },
    { key: 'updated', label: 'Updated', children: formatDateTime(request.updated) },
  ];
  if (request.submitted_by) items.push({ key: 'submitted-by', label: 'Submitted by', children: request.submitted_by });
  if (request.adjudicator) items.push({ key: 'adjudicator', label: 'Adjudicator', children: request.adjudicator });
  return items;
}

function requester(request: RequestDetail): string {
  const name = fullName(request.first_name, request.last_name);
  return name ? `${name} (${request.username})` : request.username;
}

function kindItems(request: RequestDetail, cacSupport: boolean): Items {
  switch (request.kind) {
    case 'new': {
      const { address, supervisor } = request;
      const items: Items = [
        { key: 'name', label: 'Name', children: fullName(request.first_name, request.last_name) },
        { key: 'username', label: 'Username', children: request.username },
        { key: 'email', label: 'Email', children: request.email },
        { key: 'phone', label: 'Phone', children: request.phone },
        {
          key: 'address',
          label: 'Address',
          children: lines(address?.street, [address?.city, [address?.state, address?.zip].filter(Boolean).join(' ')].filter(Boolean).join(', '), address?.country),
        },
        { key: 'company', label: 'Company / office symbol', children: request.company },
        { key: 'project', label: 'Project', children: request.project },
        { key: 'reason', label: 'Reason for account', children: text(request.reason) },
        { key: 'supervisor-first-name', label: 'Supervisor first name', children: orNotProvided(supervisor?.first_name) },
        { key: 'supervisor-last-name', label: 'Supervisor last name', children: orNotProvided(supervisor?.last_name) },
        { key: 'supervisor-email', label: 'Supervisor email', children: orNotProvided(supervisor?.email) },
        { key: 'supervisor-phone', label: 'Supervisor phone', children: orNotProvided(supervisor?.phone) },
      ];
      if (cacSupport) items.push({ key: 'cac-eligible', label: 'CAC eligible', children: yesNo(request.cac_eligible) });
      return items;
    }
    case 'profilechange':
      return [
        { key: 'username', label: 'Username', children: request.username },
        { key: 'current-email', label: 'Current email', children: request.previous_email || request.account?.email || '' },
        { key: 'new-email', label: 'New email', children: request.email },
        { key: 'reason', label: 'Reason', children: text(request.reason) },
      ];
    case 'authchange': {
      const items: Items = [
        { key: 'username', label: 'Username', children: request.username },
        { key: 'authentication', label: 'Requested authentication', children: authenticationMethod(request.authentication) },
      ];
      if (!blank(request.sponsor_email)) items.push({ key: 'sponsor', label: 'Government sponsor', children: request.sponsor_email });
      items.push({ key: 'reason', label: 'Reason', children: text(request.reason) });
      return items;
    }
    case 'unlock':
      return [
        { key: 'username', label: 'Username', children: request.username },
        { key: 'reason', label: 'Reason', children: text(request.reason) },
      ];
    case 'usergroup':
      return [
        { key: 'group', label: 'Group ID', children: request.user_group },
        { key: 'name', label: 'Group name', children: request.name },
        { key: 'description', label: 'Description', children: text(request.description) },
        { key: 'open-access', label: 'Open access', children: yesNo(request.open_access) },
        // In the group page's words (group administration), so that both read alike.
        { key: 'constraint', label: 'Membership constraint', children: CONSTRAINT_TEXT[request.memberConstraint as MemberConstraint] ?? request.memberConstraint },
        { key: 'visibility', label: 'Visibility', children: visibilityText(request.visibility) },
        { key: 'services', label: 'Services', children: serviceNames(request.services ?? []) },
        {
          key: 'groups',
          label: 'Additional permission groups',
          children: request.groups && request.groups.length > 0 ? request.groups.join(', ') : 'None',
        },
        { key: 'requester', label: 'Requested by', children: requester(request) },
        { key: 'reason', label: 'Reason', children: text(request.reason) },
      ];
    case 'mailinglist':
      return [
        { key: 'list', label: 'Mailing list', children: request.list_id },
        { key: 'group', label: 'Group', children: request.user_group },
        { key: 'description', label: 'Description', children: text(request.description) },
        { key: 'permission-group', label: 'Permission group', children: request.permission_group },
        { key: 'posting', label: 'Posting permissions', children: request.posting_permissions },
        { key: 'subscription', label: 'Subscription', children: subscriptionPolicy(request.automatic_subscription) },
        { key: 'requester', label: 'Requested by', children: requester(request) },
        { key: 'reason', label: 'Reason', children: text(request.reason) },
      ];
    case 'membership':
      return [
        { key: 'group', label: 'Group', children: request.user_group },
        { key: 'username', label: 'Username', children: request.username },
        // Optional for a membership change: none given reads as the portal's note, not as 'None'.
        { key: 'reason', label: 'Reason', children: <ReasonText reason={request.reason} /> },
      ];
  }
}

/** The kinds whose account (the one the request is about) is shown with the request. */
const ABOUT_AN_ACCOUNT = new Set<RequestDetail['kind']>(['profilechange', 'authchange', 'unlock']);

export function RequestFields({ request }: { request: RequestDetail }) {
  const { cac_support } = useConfiguration();
  const headingId = useId();
  const certificate = request.kind === 'new' || request.kind === 'authchange' ? request.certificate : null;
  return (
    <>
      <section aria-labelledby={headingId}>
        <Typography.Title level={3} id={headingId}>
          Request Details
        </Typography.Title>
        <Descriptions bordered size="small" column={1} items={[...commonItems(request), ...kindItems(request, cac_support)]} />
      </section>
      {certificate && <CertificatePanel certificate={certificate} title="Certificate Details" headingLevel={3} />}
      {ABOUT_AN_ACCOUNT.has(request.kind) && request.account && (
        <div style={{ marginTop: 16 }}>
          <AccountDetails account={request.account} title="Account" showPersonalData />
        </div>
      )}
    </>
  );
}
