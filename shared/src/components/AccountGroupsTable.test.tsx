import { render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';

// The table's chunk fails to load (a dropped connection, a release replaced under the page).
jest.mock('./AccountGroupsTableView.js', () => {
  throw new Error('Loading chunk account-groups-table failed.');
});

import { AccountGroupsTable, GROUPS_LOAD_ERROR } from './AccountGroupsTable';

describe('AccountGroupsTable', () => {
  it("says so in the table's place when the table's code cannot be loaded, and keeps the rest of the page", async () => {
    // React reports the caught error on the console.
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <AntApp>
        <MemoryRouter>
          <h2>User Profile: admin</h2>
          <AccountGroupsTable groups={[]} emptyText="No groups" />
        </MemoryRouter>
      </AntApp>,
    );
    expect(screen.getByRole('status', { name: 'Loading the groups' })).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent(GROUPS_LOAD_ERROR);
    expect(screen.getByRole('heading', { name: 'User Profile: admin' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading the groups' })).not.toBeInTheDocument();
    consoleError.mockRestore();
  });
});
