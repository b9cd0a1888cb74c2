import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { screen, within } from '@testing-library/react';
import { sampleSummary } from '../testing/samples';
import { GroupsPage } from './GroupsPage';

jest.setTimeout(20_000);

beforeEach(() => {
  configure();
  signIn('jane.doe', []);
});

const table = (name: string) => screen.getByRole('region', { name }).querySelector('table') as HTMLElement;

describe('/groups', () => {
  it("lists the caller's groups (administration link only where they hold a permission) and the groups they may join", async () => {
    fakeServer({
      'GET /usergroups': {
        body: {
          rows: [
            sampleSummary(),
            sampleSummary({ id: 'PLAIN', user_group: 'PLAIN', name: 'Plain', role: 'user', permissions: [] }),
            sampleSummary({ id: 'OPEN', user_group: 'OPEN', name: 'Open', member: false, role: null, permissions: [], open_access: true }),
          ],
        },
      },
    });
    renderPage(<GroupsPage />, { path: '/groups', entries: ['/groups'] });
    expect(await screen.findByRole('link', { name: 'PORTAL' })).toHaveAttribute('href', '/group-administration/PORTAL');
    const mine = table('My groups');
    expect(within(mine).getByText('PLAIN')).toBeInTheDocument();
    expect(within(mine).queryByRole('link', { name: 'PLAIN' })).not.toBeInTheDocument();
    expect(within(mine).getAllByRole('link', { name: 'Change membership' })[1]).toHaveAttribute('href', '/change-membership/PLAIN');
    const others = table('Groups you may join');
    expect(within(others).getByText('Open access')).toBeInTheDocument();
    expect(within(others).getByRole('link', { name: 'Request membership' })).toHaveAttribute('href', '/request-membership/OPEN');
    expect(screen.getByRole('link', { name: 'Request a new user group' })).toHaveAttribute('href', '/request-user-group');
  });

  it('shows both empty states', async () => {
    fakeServer({ 'GET /usergroups': { body: { rows: [] } } });
    renderPage(<GroupsPage />, { path: '/groups', entries: ['/groups'] });
    expect(await screen.findByText('You are not a member of any available group.')).toBeInTheDocument();
    expect(screen.getByText('You are a member of all available groups')).toBeInTheDocument();
  });
});
