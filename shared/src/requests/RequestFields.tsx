/**
 * What a request says (spec sections 2 and 3; server/docs/adjudication.md, RequestDetail): the
 * common facts, the kind's own lines (its queue's `fields`), and the certificate or the account
 * where the request has one. The helpers below write a kind's lines alike whichever remote owns it.
 */
import type { RequestDetail, RequestDetailOf } from '@portal/api';
import { useConfiguration } from '@portal/shared';
import { Descriptions, Typography } from 'antd';
import { useId, type ReactNode } from 'react';
import { AccountDetails } from '../components/AccountDetails.js';
import { CertificatePanel } from '../components/CertificatePanel.js';
import { formatDateTime } from '../components/dates.js';
import { capitalize } from '../components/text.js';
import type { DetailItems, KindConfig, QueueKind } from './queue.js';

/** Spec section 2: "Unprovided supervisor fields show 'not provided'". */
export const NOT_PROVIDED = 'not provided';

const blank = (value: string | null | undefined) => (value ?? '').trim() === '';

/** The value, or 'not provided' when it is empty. */
export function orNotProvided(value: string | null | undefined): ReactNode {
  return blank(value) ? <Typography.Text type="secondary">{NOT_PROVIDED}</Typography.Text> : value;
}

/** The non-empty parts, one line each (an address). */
export function lines(...parts: (string | undefined)[]): ReactNode {
  const shown = parts.filter((p): p is string => !blank(p));
  return shown.map((p, i) => <div key={i}>{p}</div>);
}

/** A text as typed, its line breaks kept (a reason, a description). */
export const multiline = (value: string | null | undefined): ReactNode => <span style={{ whiteSpace: 'pre-wrap' }}>{value ?? ''}</span>;
export const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
export const fullName = (first: string | undefined, last: string | undefined) => `${first ?? ''} ${last ?? ''}`.trim();

/** Who asked: 'Jane Doe (jane.doe)', or the username alone. */
export function requester(request: RequestDetail): string {
  const name = fullName(request.first_name, request.last_name);
  return name ? `${name} (${request.username})` : request.username;
}

function commonItems(request: RequestDetail): DetailItems {
  const items: DetailItems = [
    { key: 'id', label: 'Request ID', children: request.id },
    { key: 'status', label: 'Status', children: capitalize(request.status) },
    { key: 'created', label: 'Created', children: formatDateTime(request.created) },
    { key: 'updated', label: 'Updated', children: formatDateTime(request.updated) },
  ];
  if (request.submitted_by) items.push({ key: 'submitted-by', label: 'Submitted by', children: request.submitted_by });
  if (request.adjudicator) items.push({ key: 'adjudicator', label: 'Adjudicator', children: request.adjudicator });
  return items;
}

export function RequestFields({ config, request }: { config: KindConfig; request: RequestDetailOf<QueueKind> }) {
  const { cac_support } = useConfiguration();
  const headingId = useId();
  const certificate = 'certificate' in request ? request.certificate : null;
  return (
    <>
      <section aria-labelledby={headingId}>
        <Typography.Title level={3} id={headingId}>
          Request Details
        </Typography.Title>
        <Descriptions
          bordered
          size="small"
          column={1}
          items={[...commonItems(request), ...config.fields(request, { cacSupport: cac_support })]}
        />
      </section>
      {certificate && <CertificatePanel certificate={certificate} title="Certificate Details" headingLevel={3} />}
      {config.showAccount && request.account && (
        <div style={{ marginTop: 16 }}>
          <AccountDetails account={request.account} title="Account" showPersonalData />
        </div>
      )}
    </>
  );
}
