import { Descriptions, Tag, Typography, type DescriptionsProps } from 'antd';
import { useId } from 'react';
import type { Certificate, CertificateName } from '@portal/api';
import { formatDateTime } from './dates.js';

export const UNKNOWN_CITIZENSHIP = 'Unknown';

const US = new Set(['US', 'USA', 'UNITED STATES', 'UNITED STATES OF AMERICA']);

/** Is this country of citizenship the United States ('US', 'USA' or the name, any case)? */
export function isUsCitizenship(country: string): boolean {
  return US.has(country.trim().toUpperCase());
}

function nameItems(prefix: string, name: CertificateName | undefined): DescriptionsProps['items'] {
  const units = name?.organizational_unit ?? [];
  return [
    { key: `${prefix}-cn`, label: 'Common name (CN)', children: name?.common_name ?? '' },
    { key: `${prefix}-o`, label: 'Organization (O)', children: name?.organization ?? '' },
    {
      key: `${prefix}-ou`,
      label: 'Organizational units (OU)',
      children: units.length === 0 ? 'None' : units.length === 1 ? units[0] : <ul style={{ margin: 0, paddingInlineStart: 18 }}>{units.map((u, i) => <li key={`${i}-${u}`}>{u}</li>)}</ul>,
    },
    { key: `${prefix}-c`, label: 'Country (C)', children: name?.country ?? '' },
  ];
}

/** The country of citizenship: 'Unknown' when absent, highlighted when it is not the US. */
export function Citizenship({ country }: { country: string | null | undefined }) {
  const value = country?.trim();
  if (!value) return <>{UNKNOWN_CITIZENSHIP}</>;
  if (isUsCitizenship(value)) return <>{value}</>;
  return (
    <Tag color="warning" style={{ marginInlineEnd: 0, fontWeight: 600 }}>
      {value} (not US)
    </Tag>
  );
}

export interface CertificatePanelProps {
  readonly certificate: Certificate;
  readonly title?: string;
  /** The heading level of the title (3 on its own, 4 inside the account details). */
  readonly headingLevel?: 3 | 4 | 5;
}

/**
 * A smart-card certificate (spec section 2, "Account details panel"): issued to and issued by
 * (common name, organization, organizational units, country), valid from and until, and the
 * holder's country of citizenship. Shared by the profile and the adjudication screens.
 */
export function CertificatePanel({ certificate, title = 'Certificate', headingLevel = 3 }: CertificatePanelProps) {
  const headingId = useId();
  const items: DescriptionsProps['items'] = [
    { key: 'valid-from', label: 'Valid from', children: formatDateTime(certificate.valid_from) },
    { key: 'valid-until', label: 'Valid until', children: formatDateTime(certificate.valid_until) },
    { key: 'citizenship', label: 'Country of citizenship', children: <Citizenship country={certificate.country_of_citizenship} /> },
  ];
  return (
    <section aria-labelledby={headingId} style={{ marginTop: 16 }}>
      <Typography.Title level={headingLevel} id={headingId}>
        {title}
      </Typography.Title>
      <Descriptions bordered size="small" column={1} title="Issued to" items={nameItems('to', certificate.issued_to)} style={{ marginBottom: 12 }} />
      <Descriptions bordered size="small" column={1} title="Issued by" items={nameItems('by', certificate.issued_by)} style={{ marginBottom: 12 }} />
      <Descriptions bordered size="small" column={1} items={items} />
    </section>
  );
}
