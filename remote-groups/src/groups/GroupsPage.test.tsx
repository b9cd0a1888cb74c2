import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
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

  it('shows where a membership request waits: not offered again to join; beside the change link of a group one belongs to', async () => {
    fakeServer({
      'GET /usergroups': {
        body: {
          rows: [
            sampleSummary({ pending_request: true }),
            sampleSummary({ id: 'OPEN', user_group: 'OPEN', name: 'Open', member: false, role: null, permissions: [], pending_request: true }),
            sampleSummary({ id: 'OTHER', user_group: 'OTHER', name: 'Other', member: false, role: null, permissions: [] }),
          ],
        },
      },
    });
    renderPage(<GroupsPage />, { path: '/groups', entries: ['/groups'] });
    await screen.findByRole('link', { name: 'PORTAL' });
    const others = table('Groups you may join');
    const open = within(others).getByText('OPEN').closest('tr') as HTMLElement;
    expect(within(open).getByText('Request pending')).toBeInTheDocument();
    expect(within(open).queryByRole('link', { name: 'Request membership' })).not.toBeInTheDocument();
    const other = within(others).getByText('OTHER').closest('tr') as HTMLElement;
    expect(within(other).getByRole('link', { name: 'Request membership' })).toHaveAttribute('href', '/request-membership/OTHER');
    expect(within(other).queryByText('Request pending')).not.toBeInTheDocument();
    const mine = within(table('My groups')).getByRole('link', { name: 'PORTAL' }).closest('tr') as HTMLElement;
    expect(within(mine).getByText('Request pending')).toBeInTheDocument();
    expect(within(mine).getByRole('link', { name: 'Change membership' })).toBeInTheDocument();
  });

  it("links a group the caller decides for without belonging to it (an adjudicator's open-access group) to its administration", async () => {
    fakeServer({
      'GET /usergroups': {
        body: {
          rows: [
            sampleSummary({
              id: 'DEVOPS', user_group: 'DEVOPS', name: 'DevOps', member: false, role: null, open_access: true,
              permissions: ['VIEW_ACCOUNT', 'LIST_MEMBERSHIP_REQUESTS', 'VIEW_MEMBERSHIP_REQUEST', 'ADJUDICATE_MEMBERSHIP_REQUEST'],
            }),
            sampleSummary({ id: 'OTHER', user_group: 'OTHER', name: 'Other', member: false, role: null, permissions: [] }),
          ],
        },
      },
    });
    renderPage(<GroupsPage />, { path: '/groups', entries: ['/groups'] });
    const others = await waitFor(() => table('Groups you may join'));
    expect(await within(others).findByRole('link', { name: 'DEVOPS' })).toHaveAttribute('href', '/group-administration/DEVOPS');
    expect(within(others).getByText('OTHER')).toBeInTheDocument();
    expect(within(others).queryByRole('link', { name: 'OTHER' })).not.toBeInTheDocument();
  });

  it('shows both empty states', async () => {
    fakeServer({ 'GET /usergroups': { body: { rows: [] } } });
    renderPage(<GroupsPage />, { path: '/groups', entries: ['/groups'] });
    expect(await screen.findByText('You are not a member of any available group.')).toBeInTheDocument();
    expect(screen.getByText('You are a member of all available groups')).toBeInTheDocument();
  });
});
