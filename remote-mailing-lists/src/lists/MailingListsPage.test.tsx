import { configure, fakeServer, renderPage, signIn, type FakeAnswer } from '@portal/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sampleHeld, sampleList, sampleSummary } from '../testing/samples';
import { MailingListsPage } from './MailingListsPage';

jest.setTimeout(20_000);

beforeEach(() => {
  configure({ email_domain: 'example.test' });
  signIn('jane.doe', []);
});

const open = () => renderPage(<MailingListsPage />, { path: '/mailing-lists', entries: ['/mailing-lists'] });
const subscribed = (id: string) => screen.getByRole('checkbox', { name: `Subscribed to ${id}` });
const digest = (id: string) => screen.getByRole('switch', { name: `Daily digest for ${id}` });
const dev = 'portal-dev@example.test';
const announce = 'portal-announce@example.test';

describe('/mailing-lists', () => {
  it("lists the caller's lists with their subscription and digest; no Actions column for a non-moderator", async () => {
    const server = fakeServer({
      'GET /mailinglists': {
        body: {
          rows: [
            sampleList(),
            sampleList({ id: announce, description: 'Announcements', is_subscribed: false, automatic_subscription: false, posting_permissions: 'announce' }),
          ],
        },
      },
      'GET /usergroups': { body: { rows: [] } },
    });
    open();
    expect(await screen.findByText(dev)).toBeInTheDocument();
    expect(screen.getByText('Portal developers')).toBeInTheDocument();
    expect(subscribed(dev)).toBeChecked();
    expect(digest(dev)).not.toBeChecked();
    expect(digest(dev)).toBeEnabled();
    expect(subscribed(announce)).not.toBeChecked();
    expect(digest(announce)).toBeDisabled();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /View held messages/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'All held messages' })).not.toBeInTheDocument();
    expect(server.called('GET /moderation/held')).toEqual([]);
  });

  it("shows the empty state 'There are no mailing lists associated with your groups.'", async () => {
    fakeServer({ 'GET /mailinglists': { body: { rows: [] } }, 'GET /usergroups': { body: { rows: [] } } });
    open();
    expect(await screen.findByText('There are no mailing lists associated with your groups.')).toBeInTheDocument();
  });

  it("shows 'Your session has expired. Please refresh to log in again.' for an error 'Bad Request', else the server's text", async () => {
    fakeServer({ 'GET /mailinglists': { status: 400, body: { error: 'Bad Request', code: 400 } } });
    const { unmount } = open();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Your session has expired\. Please refresh to log in again\.$/);
    unmount();
    fakeServer({ 'GET /mailinglists': { status: 500, body: { error: 'Internal server error', code: 500 } } });
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Internal server error$/);
  });

  it('sends the digest switch at once and shows the answer', async () => {
    let answer: (value: FakeAnswer) => void = () => undefined;
    const server = fakeServer({
      'GET /mailinglists': { body: { rows: [sampleList()] } },
      'POST /mailinglists/portal-dev%40example.test': () => new Promise<FakeAnswer>((resolve) => (answer = resolve)),
    });
    open();
    await screen.findByText(dev);
    fireEvent.click(digest(dev));
    expect(digest(dev)).toBeChecked();
    expect(digest(dev)).toBeDisabled(); // until the server answers
    expect(subscribed(dev)).toBeDisabled();
    await waitFor(() => expect(server.called('POST /mailinglists/portal-dev%40example.test')).toHaveLength(1));
    expect(server.called('POST /mailinglists/portal-dev%40example.test')[0]?.body).toEqual({ is_subscribed: true, is_regular_subscription: false });
    answer({ body: sampleList({ is_regular_subscription: false }) });
    await waitFor(() => expect(digest(dev)).toBeEnabled());
    expect(digest(dev)).toBeChecked();
    // No reload for a digest change: one GET only.
    expect(server.called('GET /mailinglists')).toHaveLength(1);
  });

  it('subscribing sends is_regular_subscription true (digest off) and reloads the lists to learn moderator status', async () => {
    const server = fakeServer({
      'GET /mailinglists': [
        { body: { rows: [sampleList({ is_subscribed: false, is_regular_subscription: false })] } },
        { body: { rows: [sampleList({ is_moderator: true, held_count: 3 })] } },
      ],
      'POST /mailinglists/portal-dev%40example.test': { body: sampleList() },
      'GET /moderation/held': { body: { rows: [] } },
    });
    open();
    await screen.findByText(dev);
    expect(digest(dev)).toBeDisabled();
    fireEvent.click(subscribed(dev));
    await waitFor(() => expect(server.called('POST /mailinglists/portal-dev%40example.test')).toHaveLength(1));
    expect(server.called('POST /mailinglists/portal-dev%40example.test')[0]?.body).toEqual({ is_subscribed: true, is_regular_subscription: true });
    expect(await screen.findByRole('link', { name: /^View held messages \(3\)/ })).toHaveAttribute('href', '/mailing-lists/portal-dev%40example.test/queue');
    expect(server.called('GET /mailinglists')).toHaveLength(2);
    expect(subscribed(dev)).toBeChecked();
    expect(digest(dev)).not.toBeChecked();
    expect(digest(dev)).toBeEnabled();
  });

  it('unsubscribing sends is_subscribed false without a reload; a refused change is put back with the reason', async () => {
    const server = fakeServer({
      'GET /mailinglists': { body: { rows: [sampleList(), sampleList({ id: announce, is_subscribed: false })] } },
      'POST /mailinglists/portal-dev%40example.test': { body: sampleList({ is_subscribed: false }) },
      'POST /mailinglists/portal-announce%40example.test': {
        status: 400,
        body: { error: 'jane.doe@example.test is not eligible for this list.', code: 400 },
      },
    });
    open();
    await screen.findByText(dev);
    fireEvent.click(subscribed(dev));
    await waitFor(() => expect(subscribed(dev)).toBeEnabled());
    expect(subscribed(dev)).not.toBeChecked();
    expect(server.called('POST /mailinglists/portal-dev%40example.test')[0]?.body).toEqual({ is_subscribed: false, is_regular_subscription: true });
    fireEvent.click(subscribed(announce));
    expect(await screen.findByRole('alert')).toHaveTextContent('jane.doe@example.test is not eligible for this list.');
    expect(subscribed(announce)).not.toBeChecked();
    expect(subscribed(announce)).toBeEnabled();
    expect(server.called('GET /mailinglists')).toHaveLength(1);
  });

  it("gives a moderator the Actions column, the held count, and every held message of the lists they moderate", async () => {
    const server = fakeServer({
      'GET /mailinglists': {
        body: {
          rows: [
            sampleList({ is_moderator: true, held_count: 2 }),
            sampleList({ id: announce, is_moderator: true, held_count: 0 }),
            sampleList({ id: 'other-list@example.test', is_moderator: false }),
          ],
        },
      },
      'GET /moderation/held': { body: { rows: [sampleHeld(), sampleHeld({ request_id: 8, subject: 'Second post', sender: 'you@elsewhere.example' })] } },
      'GET /usergroups': { body: { rows: [sampleSummary(), sampleSummary({ id: 'PLAIN', permissions: [] })] } },
    });
    open();
    expect(await screen.findByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: `View held messages (2): ${dev}` })).toHaveAttribute('href', '/mailing-lists/portal-dev%40example.test/queue');
    expect(screen.getByRole('link', { name: `View held messages: ${announce}` })).toHaveAttribute('href', '/mailing-lists/portal-announce%40example.test/queue');
    expect(screen.getByRole('link', { name: `Manage members: ${dev}` })).toHaveAttribute('href', '/mailing-lists/portal-dev%40example.test');
    expect(screen.queryByRole('link', { name: 'Manage members: other-list@example.test' })).not.toBeInTheDocument();

    const held = screen.getByRole('region', { name: 'All held messages' });
    expect(await within(held).findByText('Second post')).toBeInTheDocument();
    expect(within(held).getByText('you@elsewhere.example')).toBeInTheDocument();
    expect(within(held).getAllByRole('link', { name: `${dev}: held messages` })[0]).toHaveAttribute('href', '/mailing-lists/portal-dev%40example.test/queue');
    expect(server.called('GET /moderation/held')).toHaveLength(1);

    // Beyond the spec: the groups where the caller may request a list.
    const request = await screen.findByRole('region', { name: 'Request a mailing list' });
    expect(within(request).getByRole('link', { name: 'Request a mailing list for PORTAL' })).toHaveAttribute('href', '/mailing-lists/new/PORTAL');
    expect(within(request).queryByRole('link', { name: /PLAIN/ })).not.toBeInTheDocument();
  });

  it("tells a moderator outside a list's permission group, before any click, that they cannot subscribe, and why", async () => {
    const server = fakeServer({
      'GET /mailinglists': {
        body: {
          rows: [
            sampleList({ is_moderator: true, held_count: 0 }),
            sampleList({ id: announce, permission_group: 'PORTAL-release', is_moderator: true, is_eligible: false, is_subscribed: false, held_count: 0 }),
          ],
        },
      },
      'GET /moderation/held': { body: { rows: [] } },
      'GET /usergroups': { body: { rows: [] } },
    });
    open();
    await screen.findByText(announce);
    expect(subscribed(dev)).toBeEnabled();
    expect(subscribed(announce)).toBeDisabled();
    expect(digest(announce)).toBeDisabled();
    const reason = 'You moderate this list but are not in PORTAL-release, whose members it is for: you cannot subscribe to it.';
    expect(screen.getByText(reason)).toBeInTheDocument();
    expect(subscribed(announce)).toHaveAccessibleDescription(reason);
    expect(server.called(`POST /mailinglists/${encodeURIComponent(announce)}`)).toEqual([]);
  });

  it("shows the held messages' empty state to a moderator whose lists hold none", async () => {
    fakeServer({
      'GET /mailinglists': { body: { rows: [sampleList({ is_moderator: true, held_count: 0 })] } },
      'GET /moderation/held': { body: { rows: [] } },
    });
    open();
    const held = await screen.findByRole('region', { name: 'All held messages' });
    expect(await within(held).findByText('There are currently no messages in this queue.')).toBeInTheDocument();
  });
});
