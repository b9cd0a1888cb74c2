import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sampleList, sampleMember } from '../testing/samples';
import { ListMembersPage } from './ListMembersPage';

jest.setTimeout(20_000);

beforeEach(() => {
  configure({ email_domain: 'example.test' });
  signIn('admin', []);
});

const LIST = 'portal-dev@example.test';
const PATH = '/mailinglists/portal-dev%40example.test';
const open = () => renderPage(<ListMembersPage />, { path: '/mailing-lists/:listId', entries: [`/mailing-lists/${encodeURIComponent(LIST)}`] });
const row = (email: string) => screen.getByRole('cell', { name: email }).closest('tr') as HTMLElement;

describe('/mailing-lists/:listId (member administration)', () => {
  it("lists the eligible users under the list's address, each with Subscribe or Unsubscribe", async () => {
    fakeServer({
      [`GET ${PATH}/members`]: {
        body: { rows: [sampleMember(), sampleMember({ user_email: 'sam.boss@example.test', user_full_name: 'Sam Boss', is_subscribed: false })] },
      },
    });
    open();
    expect(screen.getByRole('heading', { level: 2, name: 'Mailing List Members' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: LIST })).toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: 'Jane Doe' })).toBeInTheDocument();
    expect(within(row('jane.doe@example.test')).getByRole('cell', { name: 'Yes' })).toBeInTheDocument();
    expect(within(row('jane.doe@example.test')).getByRole('button', { name: 'Unsubscribe jane.doe@example.test' })).toBeInTheDocument();
    expect(within(row('sam.boss@example.test')).getByRole('cell', { name: 'No' })).toBeInTheDocument();
    expect(within(row('sam.boss@example.test')).getByRole('button', { name: 'Subscribe sam.boss@example.test' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View held messages' })).toHaveAttribute('href', '/mailing-lists/portal-dev%40example.test/queue');
  });

  it("shows the empty state 'This mailing list has no eligible users.'", async () => {
    fakeServer({ [`GET ${PATH}/members`]: { body: { rows: [] } } });
    open();
    expect(await screen.findByText('This mailing list has no eligible users.')).toBeInTheDocument();
  });

  it('subscribes a user with their email and updates the row', async () => {
    const server = fakeServer({
      [`GET ${PATH}/members`]: { body: { rows: [sampleMember({ is_subscribed: false })] } },
      [`POST ${PATH}`]: { body: sampleList({ is_moderator: true }) },
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe jane.doe@example.test' }));
    expect(await screen.findByRole('button', { name: 'Unsubscribe jane.doe@example.test' })).toBeInTheDocument();
    expect(within(row('jane.doe@example.test')).getByRole('cell', { name: 'Yes' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('jane.doe@example.test subscribed.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(server.called(`POST ${PATH}`).map((c) => c.body)).toEqual([{ is_subscribed: true, is_regular_subscription: true, user_email: 'jane.doe@example.test' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe jane.doe@example.test' }));
    expect(await screen.findByRole('button', { name: 'Subscribe jane.doe@example.test' })).toBeInTheDocument();
    expect(server.called(`POST ${PATH}`)[1]?.body).toEqual({ is_subscribed: false, is_regular_subscription: true, user_email: 'jane.doe@example.test' });
  });

  it('shows a refused change and leaves the row as it was', async () => {
    fakeServer({
      [`GET ${PATH}/members`]: { body: { rows: [sampleMember({ is_subscribed: false })] } },
      [`POST ${PATH}`]: {
        status: 400,
        body: { error: 'jane.doe@example.test is not eligible for this list.', code: 400, fields: { user_email: 'jane.doe@example.test is not eligible for this list.' } },
      },
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe jane.doe@example.test' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^jane\.doe@example\.test is not eligible for this list\.$/);
    expect(within(row('jane.doe@example.test')).getByRole('cell', { name: 'No' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Subscribe jane.doe@example.test' })).toBeEnabled());
  });

  it('says the caller is not authorized for a list they do not moderate (403)', async () => {
    fakeServer({ [`GET ${PATH}/members`]: { status: 403, body: { error: 'Forbidden', code: 403 } } });
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^It appears you are not authorized to perform that action\.$/);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the not-found view for a list that is not found (404)', async () => {
    fakeServer({ [`GET ${PATH}/members`]: { status: 404, body: { error: 'Mailing list not found.', code: 404 } } });
    open();
    expect(await screen.findByText('The requested resource was not found.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Not Found' })).toBeInTheDocument();
  });

  it("shows 'Your session has expired. Please refresh to log in again.' for 'Bad Request'", async () => {
    fakeServer({ [`GET ${PATH}/members`]: { status: 400, body: { error: 'Bad Request', code: 400 } } });
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Your session has expired\. Please refresh to log in again\.$/);
  });
});
