import { formatDateTime } from '@portal/shared/components';
import { configure, fakeServer, renderPage, signIn, type FakeAnswer } from '@portal/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sampleHeld } from '../testing/samples';
import { HeldMessagesPage } from './HeldMessagesPage';

jest.setTimeout(20_000);

const LIST = 'portal-dev@example.test';
const PATH = '/mailinglists/portal-dev%40example.test/held';
const open = () => renderPage(<HeldMessagesPage />, { path: '/mailing-lists/:listId/queue', entries: [`/mailing-lists/${encodeURIComponent(LIST)}/queue`] });
const card = (subject: string) => screen.getByRole('article', { name: subject });
const actionOf = (subject: string, action: string) => within(card(subject)).getByRole('radio', { name: action });

// jsdom lays nothing out: a message's height is measured from its text here (a long one is tall).
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.textContent?.includes('LONG') ? 400 : 40;
    },
  });
});
afterAll(() => {
  delete (HTMLElement.prototype as { scrollHeight?: number }).scrollHeight;
});

beforeEach(() => {
  configure({ email_domain: 'example.test' });
  signIn('admin', []);
});

describe('/mailing-lists/:listId/queue (held messages)', () => {
  it('shows one card per message: sender, subject, date, size in KB, reason and its text; defer chosen', async () => {
    const held = sampleHeld();
    fakeServer({ [`GET ${PATH}`]: { body: { rows: [held] } } });
    open();
    expect(screen.getByRole('heading', { level: 2, name: 'Held Messages' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: LIST })).toBeInTheDocument();
    const hello = await screen.findByRole('article', { name: 'Hello' });
    expect(within(hello).getByText('me@elsewhere.example')).toBeInTheDocument();
    expect(within(hello).getByText(formatDateTime(held.hold_date))).toBeInTheDocument();
    expect(within(hello).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(hello).getByText('The sender is not a subscriber of a closed list.')).toBeInTheDocument();
    expect(within(hello).getByText('Hi all')).toBeInTheDocument();
    expect(within(hello).getByRole('radiogroup', { name: 'Action for Hello from me@elsewhere.example' })).toBeInTheDocument();
    expect(actionOf('Hello', 'Defer')).toBeChecked();
    expect(within(hello).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['Defer', 'Discard', 'Accept', 'Always accept']);
    // A short message is not collapsed and has no toggle.
    expect(within(hello).queryByRole('button', { name: 'Show the whole message' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Discard all deferred messages' })).not.toBeChecked();
  });

  it('shows a hostile message as literal text, never as markup', async () => {
    fakeServer({ [`GET ${PATH}`]: { body: { rows: [sampleHeld({ subject: '<img src=x onerror=alert(1)>', msg: '<script>alert(1)</script><b>x</b>' })] } } });
    open();
    const hostile = await screen.findByRole('article', { name: '<img src=x onerror=alert(1)>' });
    const text = within(hostile).getByText('<script>alert(1)</script><b>x</b>');
    expect(text.tagName).toBe('PRE');
    expect(text.textContent).toBe('<script>alert(1)</script><b>x</b>');
    expect(hostile.querySelector('script, b, img')).toBeNull();
  });

  it('starts a card taller than 135 px collapsed, with a toggle to expand it', async () => {
    fakeServer({ [`GET ${PATH}`]: { body: { rows: [sampleHeld({ subject: 'Long one', msg: `LONG\n${'line\n'.repeat(40)}` }), sampleHeld({ request_id: 8, subject: 'Short one' })] } } });
    open();
    const long = await screen.findByRole('article', { name: 'Long one' });
    const toggle = within(long).getByRole('button', { name: 'Show the whole message' });
    const region = long.querySelector('[data-collapsed]') as HTMLElement;
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', region.id);
    expect(region).toHaveAttribute('data-collapsed', 'true');
    expect(region).toHaveStyle({ maxHeight: '135px', overflow: 'hidden' });
    fireEvent.click(toggle);
    expect(within(long).getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
    expect(region).toHaveAttribute('data-collapsed', 'false');
    expect(region).not.toHaveStyle({ maxHeight: '135px' });
    expect(within(card('Short one')).queryByRole('button', { name: /Show/ })).not.toBeInTheDocument();
  });

  it('submits the chosen actions (deferred omitted) with discard_deferred, disabled while processing, then reloads', async () => {
    let answer: (value: FakeAnswer) => void = () => undefined;
    const server = fakeServer({
      [`GET ${PATH}`]: [
        {
          body: {
            rows: [
              sampleHeld(),
              sampleHeld({ request_id: 8, subject: 'Second', sender: 'you@elsewhere.example' }),
              sampleHeld({ request_id: 9, subject: 'Third', sender: 'spam@elsewhere.example' }),
              sampleHeld({ request_id: 10, subject: 'Fourth', sender: 'friend@elsewhere.example' }),
            ],
          },
        },
        { body: { rows: [] } },
      ],
      [`POST ${PATH}`]: () => new Promise<FakeAnswer>((resolve) => (answer = resolve)),
    });
    open();
    await screen.findByRole('article', { name: 'Hello' });
    fireEvent.click(actionOf('Second', 'Accept'));
    fireEvent.click(actionOf('Third', 'Discard'));
    fireEvent.click(actionOf('Fourth', 'Always accept'));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Discard all deferred messages' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(server.called(`POST ${PATH}`)).toHaveLength(1));
    expect(screen.getByRole('button', { name: /Submit/ })).toBeDisabled();
    expect(actionOf('Hello', 'Accept')).toBeDisabled();
    expect(server.called(`POST ${PATH}`)[0]?.body).toEqual({
      messages: [
        { messageId: 8, action: 'accept', sender: 'you@elsewhere.example' },
        { messageId: 9, action: 'discard', sender: 'spam@elsewhere.example' },
        { messageId: 10, action: 'always-accept', sender: 'friend@elsewhere.example' },
      ],
      discard_deferred: true,
    });
    answer({ body: { ok: true, accepted: 2, discarded: 2 } });
    expect(await screen.findByText('There are currently no messages in this queue.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('2 messages accepted, 2 discarded.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(server.called(`GET ${PATH}`)).toHaveLength(2);
  });

  it('sends discard_deferred false when the box is not ticked, and nothing when every message is deferred', async () => {
    const server = fakeServer({
      [`GET ${PATH}`]: { body: { rows: [sampleHeld()] } },
      [`POST ${PATH}`]: { body: { ok: true, accepted: 1, discarded: 0 } },
    });
    open();
    await screen.findByRole('article', { name: 'Hello' });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Every message is deferred: there is nothing to submit.')).toBeInTheDocument();
    expect(server.called(`POST ${PATH}`)).toEqual([]);
    fireEvent.click(actionOf('Hello', 'Accept'));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(server.called(`POST ${PATH}`)).toHaveLength(1));
    expect(server.called(`POST ${PATH}`)[0]?.body).toEqual({ messages: [{ messageId: 7, action: 'accept', sender: 'me@elsewhere.example' }], discard_deferred: false });
    expect(await screen.findByText('1 message accepted, 0 discarded.')).toBeInTheDocument();
  });

  it('shows a refused submit and keeps the choices', async () => {
    fakeServer({
      [`GET ${PATH}`]: { body: { rows: [sampleHeld()] } },
      [`POST ${PATH}`]: { status: 403, body: { error: 'Forbidden', code: 403 } },
    });
    open();
    await screen.findByRole('article', { name: 'Hello' });
    fireEvent.click(actionOf('Hello', 'Discard'));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Forbidden$/);
    expect(actionOf('Hello', 'Discard')).toBeChecked();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  it("shows the empty state 'There are currently no messages in this queue.'", async () => {
    fakeServer({ [`GET ${PATH}`]: { body: { rows: [] } } });
    open();
    expect(await screen.findByText('There are currently no messages in this queue.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
  });

  it('says a caller who does not moderate the list (403) is not authorized, as the members page does, and offers no member administration', async () => {
    fakeServer({ [`GET ${PATH}`]: { status: 403, body: { error: 'Forbidden', code: 403 } } });
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^It appears you are not authorized to perform that action\.$/);
    expect(screen.queryByText("We could not retrieve this mailing list's held messages.")).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Manage members' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Mailing Lists' })).toBeInTheDocument();
  });

  it("says 'We could not retrieve this mailing list's held messages.' when they cannot be loaded", async () => {
    fakeServer({ [`GET ${PATH}`]: { status: 500, body: { error: 'Internal Server Error', code: 500 } } });
    const { unmount } = open();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^We could not retrieve this mailing list's held messages\.$/);
    unmount();
    fakeServer({ [`GET ${PATH}`]: { status: 400, body: { error: 'Bad Request', code: 400 } } });
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Your session has expired\. Please refresh to log in again\.$/);
  });

  it('shows the not-found view for a list that is not found', async () => {
    fakeServer({ [`GET ${PATH}`]: { status: 404, body: { error: 'Mailing list not found.', code: 404 } } });
    open();
    expect(await screen.findByText('The requested resource was not found.')).toBeInTheDocument();
  });
});
