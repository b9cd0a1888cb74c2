import { render, screen, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import { DEFAULT_CONFIGURATION, type Account, type Certificate } from '@portal/api';
import { useConfigurationStore } from '@portal/shared';
import { sampleAccount } from '@portal/shared/testing';
import { AccountDetails, authenticationMethod } from './AccountDetails';

const certificate = (overrides: Partial<Certificate> = {}): Certificate => ({
  issued_to: { common_name: 'DOE.JANE.Q.1234567890', organization: 'U.S. Government', organizational_unit: ['DoD'], country: 'US' },
  issued_by: { common_name: 'DOD ID CA-59', organization: 'U.S. Government', organizational_unit: ['DoD', 'PKI'], country: 'US' },
  valid_from: '2025-01-02T08:00:00',
  valid_until: '2028-01-01T23:59:00',
  ...overrides,
});

/** The shared sample account, signing in with a card and a token. */
const account = (overrides: Partial<Account> = {}): Account => sampleAccount({ authentication: ['certificate', 'token'], ...overrides });

const show = (props: Parameters<typeof AccountDetails>[0]) =>
  render(
    <AntApp>
      <MemoryRouter>
        <AccountDetails {...props} />
      </MemoryRouter>
    </AntApp>,
  );

const valueOf = (label: string) => screen.getByText(label).closest('tr')?.querySelector('td') as HTMLElement;

beforeEach(() => useConfigurationStore.setState({ status: 'ready', loaded: true, config: { ...DEFAULT_CONFIGURATION, cac_support: true } }));

describe('AccountDetails', () => {
  it('shows who the account is, its status, when it last signed in, how, and why it exists', () => {
    show({ account: account() });
    expect(screen.getByRole('heading', { level: 3, name: 'Account Details' })).toBeInTheDocument();
    expect(valueOf('Name')).toHaveTextContent('Jane Doe');
    expect(valueOf('Username')).toHaveTextContent('jane.doe');
    expect(valueOf('Email')).toHaveTextContent('jane.doe@example.test');
    expect(valueOf('Status')).toHaveTextContent('Active');
    expect(valueOf('Last authenticated')).toHaveTextContent('Tue Mar 3 2026 4:05 PM');
    expect(valueOf('Authentication method')).toHaveTextContent('CAC and website token');
    expect(valueOf('Reason for account')).toHaveTextContent('Builds the portal.');
  });

  it.each([
    [{ active: true, closed: false }, 'Active'],
    [{ active: false, closed: true }, 'Closed'],
    [{ active: false, closed: false }, 'Locked'],
  ])('shows the status of %o as %s', (state, status) => {
    show({ account: account(state) });
    expect(valueOf('Status')).toHaveTextContent(new RegExp(`^${status}$`));
  });

  it('shows the authentication method only with smart-card support', () => {
    useConfigurationStore.setState({ config: { ...DEFAULT_CONFIGURATION, cac_support: false } });
    show({ account: account() });
    expect(screen.queryByText('Authentication method')).not.toBeInTheDocument();
    expect(authenticationMethod(['token'])).toBe('Website token');
    expect(authenticationMethod([])).toBe('None');
  });

  it('shows personal data only when asked to', () => {
    const { unmount } = show({ account: account() });
    for (const label of ['Phone', 'Address', 'Company / office symbol', 'Project', 'Supervisor', 'Supervisor contact']) {
      expect(screen.queryByText(label)).not.toBeInTheDocument();
    }
    unmount();

    show({ account: account(), showPersonalData: true });
    expect(valueOf('Phone')).toHaveTextContent('555-123-4567');
    expect(valueOf('Address')).toHaveTextContent('1 Main St');
    expect(valueOf('Address')).toHaveTextContent('Springfield, VA 22150');
    expect(valueOf('Company / office symbol')).toHaveTextContent('ACME');
    expect(valueOf('Project')).toHaveTextContent('Portal');
    expect(valueOf('Supervisor')).toHaveTextContent('Sam Boss');
    expect(valueOf('Supervisor contact')).toHaveTextContent('sam.boss@example.test555-765-4321');
  });

  it('shows the current certificate when there is one', () => {
    const { unmount } = show({ account: account() });
    expect(screen.queryByRole('heading', { name: 'Current Certificate' })).not.toBeInTheDocument();
    unmount();

    show({ account: account({ certificate: certificate() }) });
    const panel = screen.getByRole('region', { name: 'Current Certificate' });
    expect(within(panel).getByRole('heading', { level: 4 })).toHaveTextContent('Current Certificate');
    expect(within(panel).getByText('DOE.JANE.Q.1234567890')).toBeInTheDocument();
    expect(within(panel).getByText('Unknown')).toBeInTheDocument();
  });

  it("says 'Never' for an account that never signed in", () => {
    show({ account: account({ last_authenticated: null }) });
    expect(valueOf('Last authenticated')).toHaveTextContent('Never');
  });
});
