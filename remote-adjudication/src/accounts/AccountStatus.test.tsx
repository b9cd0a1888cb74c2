/**
 * An account both closed and active (as an older server's seed served the demo
 * closed.user) is shown Closed everywhere, with its notice and no actions: one display status
 * (`accountStatus` of @portal/api) decides it on every screen.
 */
import { accountStatus, type Permission } from '@portal/api';
import { activeText } from '@portal/shared/components';
import { configure, fakeServer, renderPage, sampleAccount, signIn } from '@portal/shared/testing';
import { screen, within } from '@testing-library/react';
import { ACCOUNT_CLOSED_NOTE } from './AccountActions';
import { ACCOUNT_CLOSED, ACCOUNT_LOCKED, AccountAdministrationPage } from './AccountAdministrationPage';

jest.setTimeout(20_000);

const ALL: Permission[] = ['VIEW_ACCOUNT', 'EDIT_ACCOUNT', 'LOCK_ACCOUNT', 'UNLOCK_ACCOUNT', 'SUBMIT_SURROGATE_REQUEST'];

beforeEach(() => {
  configure({ supported_services: 'jira', email_domain: 'example.test' });
  signIn('helpdesk', ALL);
});

describe('the display status', () => {
  it('is Closed for a closed account whatever its active flag, else Active or Locked', () => {
    expect(accountStatus({ active: true, closed: true })).toBe('Closed');
    expect(accountStatus({ active: false, closed: true })).toBe('Closed');
    expect(accountStatus({ active: true, closed: false })).toBe('Active');
    expect(accountStatus({ active: false, closed: false })).toBe('Locked');
    // The search's Active column says the same.
    expect([activeText({ active: true, closed: true }), activeText({ active: true, closed: false }), activeText({ active: false, closed: false })]).toEqual([
      'Closed',
      'Yes',
      'No',
    ]);
  });

  it('Account Administration shows a closed and active account as closed: the status, the notice, no Lock or Close', async () => {
    fakeServer({
      'GET /accounts/jane.doe': { body: sampleAccount({ active: true, closed: true }) },
      'GET /subscriptions/jane.doe': { body: { direct: [], nested: [] } },
      'GET /accounts/jane.doe/tokens': { body: { tokens: [] } },
    });
    renderPage(<AccountAdministrationPage />, { path: '/manage-accounts/:username', entries: ['/manage-accounts/jane.doe'] });
    expect(await screen.findByText(ACCOUNT_CLOSED)).toBeInTheDocument();
    expect(screen.queryByText(ACCOUNT_LOCKED)).not.toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Account Details' });
    const status = within(details).getByText('Status').closest('tr')?.querySelector('td') as HTMLElement;
    expect(status).toHaveTextContent('Closed');
    expect(screen.getByText(ACCOUNT_CLOSED_NOTE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Lock Account/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Close Account/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Change email' })).not.toBeInTheDocument();
  });
});
