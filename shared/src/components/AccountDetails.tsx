import { Descriptions, Tag, Typography, type DescriptionsProps } from 'antd';
import { useId, type ReactNode } from 'react';
import { accountStatus, type Account, type AccountStatus } from '@portal/api';
import { formatDateTime } from './dates.js';
import { useConfiguration } from '@portal/shared';
import { CertificatePanel } from './CertificatePanel.js';

const STATUS_COLOR: Record<AccountStatus, string> = { Active: 'success', Closed: 'default', Locked: 'error' };

/** 'CAC', 'Website token', both, or 'None' from an account's authentication list. */
export function authenticationMethod(authentication: readonly string[] | undefined): string {
  const names: string[] = [];
  if (authentication?.includes('certificate')) names.push('CAC');
  if (authentication?.includes('token')) names.push('website token');
  const text = names.join(' and ');
  return text === '' ? 'None' : text.charAt(0).toUpperCase() + text.slice(1);
}

function lines(...parts: (string | undefined)[]): ReactNode {
  const shown = parts.filter((p): p is string => !!p && p.trim() !== '');
  return shown.length === 0 ? '' : shown.map((p, i) => <div key={i}>{p}</div>);
}

export interface AccountDetailsProps {
  readonly account: Account;
  /** Phone, address, company, project and supervisor: only where the viewer may see them. */
  readonly showPersonalData?: boolean;
  readonly title?: string;
}

/**
 * The account details panel of spec section 2: name, username, email, status, last
 * authenticated, the authentication method (only with smart-card support), personal data when
 * asked for, the reason for the account, and the current certificate when there is one.
 * Shared by the profile and the account administration screens.
 */
export function AccountDetails({ account, showPersonalData = false, title = 'Account Details' }: AccountDetailsProps) {
  const { cac_support } = useConfiguration();
  const headingId = useId();
  const status = accountStatus(account);
  const { address, supervisor } = account;

  const items: NonNullable<DescriptionsProps['items']> = [
    { key: 'name', label: 'Name', children: `${account.first_name} ${account.last_name}`.trim() },
    { key: 'username', label: 'Username', children: account.username },
    { key: 'email', label: 'Email', children: account.email },
    { key: 'status', label: 'Status', children: <Tag color={STATUS_COLOR[status]}>{status}</Tag> },
    { key: 'last-authenticated', label: 'Last authenticated', children: formatDateTime(account.last_authenticated) || 'Never' },
  ];
  if (cac_support) items.push({ key: 'authentication', label: 'Authentication method', children: authenticationMethod(account.authentication) });
  if (showPersonalData) {
    items.push(
      { key: 'phone', label: 'Phone', children: account.phone },
      {
        key: 'address',
        label: 'Address',
        children: lines(address?.street, [address?.city, [address?.state, address?.zip].filter(Boolean).join(' ')].filter(Boolean).join(', '), address?.country),
      },
      { key: 'company', label: 'Company / office symbol', children: account.company },
      { key: 'project', label: 'Project', children: account.project },
      { key: 'supervisor', label: 'Supervisor', children: `${supervisor?.first_name ?? ''} ${supervisor?.last_name ?? ''}`.trim() },
      { key: 'supervisor-contact', label: 'Supervisor contact', children: lines(supervisor?.email, supervisor?.phone) },
    );
  }
  items.push({ key: 'reason', label: 'Reason for account', children: <span style={{ whiteSpace: 'pre-wrap' }}>{account.reason}</span> });

  return (
    <section aria-labelledby={headingId}>
      <Typography.Title level={3} id={headingId}>
        {title}
      </Typography.Title>
      <Descriptions bordered size="small" column={1} items={items} />
      {account.certificate && <CertificatePanel certificate={account.certificate} headingLevel={4} title="Current Certificate" />}
    </section>
  );
}
