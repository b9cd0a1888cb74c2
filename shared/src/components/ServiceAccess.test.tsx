import { act, render, screen, waitFor, within } from '@testing-library/react';
import { fakeServer } from '@portal/shared/testing';
import { SERVICE_ACCESS_TITLE, ServiceAccessPanel } from './ServiceAccess';

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));
const at = (hour: number, minute: number) => new Date(2026, 2, 3, hour, minute).getTime();

/** The panel's rows as a reader sees them: service, then the words. */
const rows = async () => {
  const section = await screen.findByRole('region', { name: SERVICE_ACCESS_TITLE });
  return within(section)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
};

describe('the access to each service an account uses', () => {
  it("says per service whether it is in step, with the times as the portal shows dates and a failure's reason", async () => {
    const server = fakeServer({
      'GET /service-access/jane.doe': {
        body: {
          provisioned: true,
          services: [
            { service: 'artifacts', state: 'failed', since: at(10, 0), next_attempt_at: at(10, 7), error: 'the directory did not answer at ldap://127.0.0.1:389 (ECONNREFUSED)' },
            { service: 'confluence', state: 'pending', since: at(10, 2), next_attempt_at: null, error: null },
            { service: 'jira', state: 'up-to-date', since: null, next_attempt_at: null, error: null },
            { service: 'gitlab-ee', state: 'up-to-date', since: null, next_attempt_at: null, error: null },
          ],
        },
      },
    });
    render(<ServiceAccessPanel username="jane.doe" />);
    expect(await rows()).toEqual([
      ['Artifactory', 'Failed: the directory did not answer at ldap://127.0.0.1:389 (ECONNREFUSED); retrying at Tue Mar 3 2026 10:07 AM'],
      ['Confluence', 'Pending since Tue Mar 3 2026 10:02 AM'],
      ['Jira', 'Up to date'],
      // A service id the portal does not list is shown as the server names it.
      ['gitlab-ee', 'Up to date'],
    ]);
    expect(screen.getByRole('heading', { level: 3, name: SERVICE_ACCESS_TITLE })).toBeInTheDocument();
    expect(server.called('GET /service-access/jane.doe')).toHaveLength(1);
  });

  it('shows nothing when the portal provisions no directory, nor for an account that uses no service', async () => {
    const server = fakeServer({
      'GET /service-access/jane.doe': { body: { provisioned: false, services: [] } },
      'GET /service-access/sam': { body: { provisioned: true, services: [] } },
    });
    const { container, rerender } = render(<ServiceAccessPanel username="jane.doe" />);
    // While it loads, the page is marked busy (the section may yet appear).
    expect(container.querySelector('[aria-busy="true"]')).not.toBeNull();
    // Asked, answered, and still nothing (the answer is rendered within a few ticks).
    await waitFor(() => expect(server.called('GET /service-access/jane.doe')).toHaveLength(1));
    await settle();
    expect(container).toBeEmptyDOMElement();
    rerender(<ServiceAccessPanel username="sam" />);
    await waitFor(() => expect(server.called('GET /service-access/sam')).toHaveLength(1));
    await settle();
    expect(container).toBeEmptyDOMElement();
  });

  it("says so when the state cannot be read, with the server's reason", async () => {
    fakeServer({ 'GET /service-access/jane.doe': { status: 409, body: { error: 'This account is not approved yet.', code: 409 } } });
    render(<ServiceAccessPanel username="jane.doe" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not tell whether the access to the services is up to date: This account is not approved yet.');
  });
});
