import { render, screen, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import type { Certificate } from '@portal/api';
import { formatDateTime } from './dates';
import { CertificatePanel, isUsCitizenship } from './CertificatePanel';

const sampleCertificate = (overrides: Partial<Certificate> = {}): Certificate => ({
  issued_to: { common_name: 'DOE.JANE.Q.1234567890', organization: 'U.S. Government', organizational_unit: ['DoD', 'PKI', 'USA'], country: 'US' },
  issued_by: { common_name: 'DOD ID CA-59', organization: 'U.S. Government', organizational_unit: ['DoD', 'PKI'], country: 'US' },
  valid_from: '2025-01-02T08:00:00',
  valid_until: '2028-01-01T23:59:00',
  country_of_citizenship: 'US',
  ...overrides,
});

const show = (certificate: Certificate) =>
  render(
    <AntApp>
      <MemoryRouter>
        <CertificatePanel certificate={certificate} />
      </MemoryRouter>
    </AntApp>,
  );

/** The value beside a label in a bordered Descriptions table. */
const valueOf = (scope: HTMLElement, label: string) => within(scope).getByText(label).closest('tr')?.querySelector('td') as HTMLElement;

describe('CertificatePanel', () => {
  it('shows issued to and issued by (CN, O, OUs, C) and the validity', () => {
    show(sampleCertificate());
    const panel = screen.getByRole('region', { name: 'Certificate' });
    const [issuedTo, issuedBy] = within(panel).getAllByRole('table');
    expect(within(panel).getByText('Issued to')).toBeInTheDocument();
    expect(within(panel).getByText('Issued by')).toBeInTheDocument();
    expect(valueOf(issuedTo as HTMLElement, 'Common name (CN)')).toHaveTextContent('DOE.JANE.Q.1234567890');
    expect(within(valueOf(issuedTo as HTMLElement, 'Organizational units (OU)')).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'DoD',
      'PKI',
      'USA',
    ]);
    expect(valueOf(issuedBy as HTMLElement, 'Common name (CN)')).toHaveTextContent('DOD ID CA-59');
    expect(valueOf(issuedBy as HTMLElement, 'Organization (O)')).toHaveTextContent('U.S. Government');
    expect(valueOf(issuedBy as HTMLElement, 'Country (C)')).toHaveTextContent('US');
    expect(valueOf(panel, 'Valid from')).toHaveTextContent(formatDateTime('2025-01-02T08:00:00'));
    expect(valueOf(panel, 'Valid from')).toHaveTextContent('Thu Jan 2 2025 8:00 AM');
    expect(valueOf(panel, 'Valid until')).toHaveTextContent('Sat Jan 1 2028 11:59 PM');
    expect(valueOf(panel, 'Country of citizenship')).toHaveTextContent(/^US$/);
  });

  it("highlights a country of citizenship that is not the US, and says 'Unknown' when there is none", () => {
    const { unmount } = show(sampleCertificate({ country_of_citizenship: 'CA' }));
    const highlighted = within(valueOf(screen.getByRole('region'), 'Country of citizenship')).getByText('CA (not US)');
    expect(highlighted).toHaveClass('ant-tag-warning');
    unmount();

    show(sampleCertificate({ country_of_citizenship: null }));
    expect(valueOf(screen.getByRole('region'), 'Country of citizenship')).toHaveTextContent(/^Unknown$/);
  });

  it('takes US, USA and the name as the US', () => {
    expect(['US', 'usa', 'United States'].every(isUsCitizenship)).toBe(true);
    expect(isUsCitizenship('GB')).toBe(false);
  });
});
