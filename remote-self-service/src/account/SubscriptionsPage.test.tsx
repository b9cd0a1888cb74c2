import { SYNC_NOTICES } from '@portal/api';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configure, fakeServer, renderPage, signIn, type FakeAnswer } from '@portal/shared/testing';
import { redirectWarning, SubscriptionsPage, SUBSCRIPTIONS_WARNING, THROUGH_A_GROUP } from './SubscriptionsPage';

const open = (url = '/subscriptions') => renderPage(<SubscriptionsPage />, { path: '/subscriptions', entries: [url] });
const box = (name: string) => screen.getByRole('checkbox', { name });

beforeEach(() => {
  configure({ supported_services: 'jira,artifacts,confluence' });
  signIn('jane.doe', ['VIEW_SUBSCRIPTIONS', 'EDIT_SUBSCRIPTIONS']);
});

describe('/subscriptions', () => {
  it('shows the notices and one box per supported service; those held through a group are ticked and locked', async () => {
    fakeServer({ 'GET /subscriptions/jane.doe': { body: { direct: ['jira'], nested: ['confluence'] } } });
    open();
    expect(screen.getByText(SUBSCRIPTIONS_WARNING)).toBeInTheDocument();
    expect(screen.getByText(SYNC_NOTICES.subscription)).toBeInTheDocument();
    await screen.findByRole('checkbox', { name: 'Jira' });
    expect(screen.getAllByRole('checkbox').map((c) => c.closest('label')?.textContent)).toEqual(['Jira', 'Artifactory', 'Confluence']);
    expect(box('Jira')).toBeChecked();
    expect(box('Jira')).toBeEnabled();
    expect(box('Artifactory')).not.toBeChecked();
    expect(box('Confluence')).toBeChecked();
    expect(box('Confluence')).toBeDisabled();
    expect(within(box('Confluence').closest('li') as HTMLElement).getByText(THROUGH_A_GROUP)).toBeInTheDocument();
    expect(within(box('Jira').closest('li') as HTMLElement).queryByText(THROUGH_A_GROUP)).not.toBeInTheDocument();
    expect(box('Jira')).toHaveAccessibleDescription(/Issue tracker/);
  });

  it('sends a change at once and shows it before the answer', async () => {
    let answer: (value: FakeAnswer) => void = () => undefined;
    const server = fakeServer({
      'GET /subscriptions/jane.doe': { body: { direct: ['jira'], nested: [] } },
      'PUT /subscriptions/jane.doe': () => new Promise<FakeAnswer>((resolve) => (answer = resolve)),
    });
    open();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Artifactory' }));
    expect(box('Artifactory')).toBeChecked();
    expect(box('Artifactory')).toBeDisabled(); // until the server answers
    expect(server.called('PUT /subscriptions/jane.doe')[0]?.body).toEqual({ service: 'artifacts', subscribed: true });
    answer({ body: { direct: ['jira', 'artifacts'], nested: [] } });
    await waitFor(() => expect(box('Artifactory')).toBeEnabled());
    expect(box('Artifactory')).toBeChecked();
  });

  it('puts a refused change back and says why', async () => {
    fakeServer({
      'GET /subscriptions/jane.doe': { body: { direct: ['jira'], nested: [] } },
      'PUT /subscriptions/jane.doe': { status: 500, body: { error: 'Internal server error', code: 500 } },
    });
    open();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Jira' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("Error updating user's subscriptions: 500 Internal server error");
    expect(box('Jira')).toBeChecked();
    expect(box('Jira')).toBeEnabled();
  });

  it('locks every box without the edit-subscriptions permission', async () => {
    signIn('jane.doe', ['VIEW_SUBSCRIPTIONS']);
    const server = fakeServer({ 'GET /subscriptions/jane.doe': { body: { direct: ['jira'], nested: [] } } });
    open();
    await screen.findByRole('checkbox', { name: 'Jira' });
    for (const checkbox of screen.getAllByRole('checkbox')) expect(checkbox).toBeDisabled();
    expect(server.calls.map((c) => c.method)).toEqual(['GET']);
  });

  it("shows 'Error getting user's subscriptions: {status} {error}' when they cannot be loaded", async () => {
    fakeServer({ 'GET /subscriptions/jane.doe': { status: 403, body: { error: 'Forbidden', code: 403 } } });
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent("Error getting user's subscriptions: 403 Forbidden");
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('explains a redirect from a service the user lacks, and only then', async () => {
    fakeServer({ 'GET /subscriptions/jane.doe': { body: { direct: [], nested: ['confluence'] } } });
    const { unmount } = open('/subscriptions?service=jira');
    expect(await screen.findByRole('alert')).toHaveTextContent(redirectWarning('Jira'));
    expect(screen.getByText(redirectWarning('Jira'))).toHaveTextContent(
      'Jira has redirected you to this page because your account is lacking a service subscription. Please select a subscription to the service.',
    );
    unmount();

    for (const url of ['/subscriptions?service=confluence', '/subscriptions?service=bitbucket', '/subscriptions?service=nonsense']) {
      const view = open(url);
      await screen.findByRole('checkbox', { name: 'Jira' });
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      view.unmount();
    }
  });
});
