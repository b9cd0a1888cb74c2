import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  AUTO_REFRESH_MS,
  NO_FAILURES,
  NO_TARGETS,
  PROVISIONING_TITLE,
  RECONCILE_TEXT,
  RECONCILE_TITLE,
  RECONCILED,
  ProvisioningPage,
  notReadAgainText,
  retriedText,
} from './ProvisioningPage';

jest.setTimeout(20_000);

const at = (hour: number, minute: number) => new Date(2026, 2, 3, hour, minute).getTime();
const open = () => renderPage(<ProvisioningPage />, { path: '/provisioning', entries: ['/provisioning'] });

const failing = {
  targets: [
    { name: 'ldap', kind: 'ldap', backlog: 3, failing: 1, oldest_pending: at(10, 0), last_reconcile_at: at(9, 50), last_reconcile_differences: 2 },
    { name: 'scim:artifacts', kind: 'scim', backlog: 0, failing: 0, oldest_pending: null, last_reconcile_at: null, last_reconcile_differences: null },
  ],
  failures: [
    {
      target: 'ldap',
      object: 'account jane.doe',
      since: at(10, 0),
      attempts: 2,
      next_attempt_at: at(10, 7),
      error: 'the directory did not answer at ldap://127.0.0.1:389 (ECONNREFUSED)',
    },
  ],
  history: [
    { id: 3, target: 'ldap', at: at(10, 0), kind: 'failed', object: 'account jane.doe', detail: 'the directory did not answer at ldap://127.0.0.1:389 (ECONNREFUSED)' },
    {
      id: 2,
      target: 'ldap',
      at: at(9, 50),
      kind: 'reconciled',
      object: null,
      detail: '2 differences from the portal, 1 created, 1 changed, 0 removed\ncn=ALPHA-team: 0 members missing, 1 too many\nuid=sam: missing',
    },
  ],
};
const settled = { targets: [{ ...failing.targets[0], backlog: 0, failing: 0, oldest_pending: null }], failures: [], history: failing.history };

/** A table's body rows as a reader sees them, cell by cell. */
const rowsOf = (region: string) =>
  within(screen.getByRole('region', { name: region }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));

beforeEach(() => {
  configure();
  signIn('admin', ['MANAGE_PROVISIONING']);
});

describe('/provisioning', () => {
  it('shows each target, the failures with their reasons, the history newest first with what each reconcile repaired, and the CSV link', async () => {
    fakeServer({ 'GET /provisioning': { body: failing } });
    open();
    expect(screen.getByRole('heading', { level: 2, name: PROVISIONING_TITLE })).toBeInTheDocument();
    await screen.findByRole('region', { name: 'Targets' });
    expect(rowsOf('Targets')).toEqual([
      ['ldap (ldap)', '3', '1', 'Tue Mar 3 2026 10:00 AM', 'Tue Mar 3 2026 9:50 AM', '2'],
      ['scim:artifacts (scim)', '0', '0', 'None', 'Never', '–'],
    ]);
    expect(rowsOf('Failures')).toEqual([
      ['ldap', 'account jane.doe', 'Tue Mar 3 2026 10:00 AM', '2', 'Tue Mar 3 2026 10:07 AM', 'the directory did not answer at ldap://127.0.0.1:389 (ECONNREFUSED)'],
    ]);
    expect(rowsOf('History')).toEqual([
      ['Tue Mar 3 2026 10:00 AM', 'ldap', 'Failed', 'account jane.doe', 'the directory did not answer at ldap://127.0.0.1:389 (ECONNREFUSED)'],
      ['Tue Mar 3 2026 9:50 AM', 'ldap', 'Reconciled', '', failing.history[1]!.detail],
    ]);
    expect(screen.getByRole('link', { name: 'Download history (CSV)' })).toHaveAttribute('href', '/accounts/rest/provisioning/history.csv');
  });

  it('Retry asks for the failed changes to be tried again, says how many, and shows the page again', async () => {
    const server = fakeServer({ 'GET /provisioning': [{ body: failing }, { body: settled }], 'POST /provisioning/retry': { body: { retried: 1 } } });
    open();
    const failures = await screen.findByRole('region', { name: 'Failures' });
    fireEvent.click(within(failures).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('status')).toHaveTextContent(retriedText(1));
    expect(await within(failures).findByText(NO_FAILURES)).toBeInTheDocument();
    expect(within(failures).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(server.called('POST /provisioning/retry').map((c) => c.body)).toEqual([{}]);
    expect(server.called('GET /provisioning')).toHaveLength(2);
  });

  it('Reconcile now asks first (Cancel does nothing), then shows what each target repaired', async () => {
    const server = fakeServer({
      'GET /provisioning': { body: settled },
      'POST /provisioning/reconcile': {
        body: {
          results: [
            { target: 'ldap', summary: '1 difference from the portal, 0 created, 1 changed, 0 removed', differences: 1, drift: ['cn=ALPHA-team: 0 members missing, 1 too many'], unknown: [] },
          ],
        },
      },
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Reconcile now' }));
    let dialog = await screen.findByRole('dialog', { name: RECONCILE_TITLE });
    expect(within(dialog).getByText(RECONCILE_TEXT)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: RECONCILE_TITLE })).not.toBeInTheDocument());
    expect(server.called('POST /provisioning/reconcile')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Reconcile now' }));
    dialog = await screen.findByRole('dialog', { name: RECONCILE_TITLE });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reconcile' }));
    const outcome = await screen.findByRole('status');
    expect(outcome).toHaveTextContent(RECONCILED);
    expect(outcome).toHaveTextContent('ldap: 1 difference from the portal, 0 created, 1 changed, 0 removed');
    expect(outcome).toHaveTextContent('cn=ALPHA-team: 0 members missing, 1 too many');
    expect(server.called('POST /provisioning/reconcile').map((c) => c.body)).toEqual([{}]);
    await waitFor(() => expect(server.called('GET /provisioning')).toHaveLength(2));
  });

  it("says why a reconcile could not run (another server is reconciling)", async () => {
    fakeServer({
      'GET /provisioning': { body: settled },
      'POST /provisioning/reconcile': { status: 409, body: { error: 'ldap is being reconciled by another server; try again when it has finished.', code: 409 } },
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Reconcile now' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: RECONCILE_TITLE })).getByRole('button', { name: 'Reconcile' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('ldap is being reconciled by another server; try again when it has finished.');
  });

  it('says when no target is configured and nothing has failed; Reconcile now cannot be pressed', async () => {
    fakeServer({ 'GET /provisioning': { body: { targets: [], failures: [], history: [] } } });
    open();
    expect(await screen.findByText(NO_TARGETS)).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Failures' })).getByText(NO_FAILURES)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reconcile now' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('shows the error when the page cannot be loaded', async () => {
    fakeServer({ 'GET /provisioning': { status: 500, body: { error: 'Internal Server Error', code: 500 } } });
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal Server Error');
    expect(screen.queryByRole('button', { name: 'Reconcile now' })).not.toBeInTheDocument();
  });

  describe('reading itself again', () => {
    /** The page's own timer, run as if its interval had passed. */
    let tick: () => void;
    let visibility: DocumentVisibilityState;
    beforeEach(() => {
      visibility = 'visible';
      jest.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
      const setInterval = window.setInterval.bind(window);
      jest.spyOn(window, 'setInterval').mockImplementation(((handler: () => void, ms?: number) => {
        if (ms === AUTO_REFRESH_MS) tick = () => act(handler);
        return setInterval(handler, ms);
      }) as typeof window.setInterval);
    });
    afterEach(() => jest.restoreAllMocks());

    it('every 15 seconds while in view, without veiling the tables: a drained backlog and a cleared failure show by themselves', async () => {
      let answer = (_: { body: unknown }) => {};
      const held = () => new Promise<{ body: unknown }>((resolve) => (answer = resolve));
      const server = fakeServer({ 'GET /provisioning': [{ body: failing }, held] });
      open();
      const failures = await screen.findByRole('region', { name: 'Failures' });
      expect(screen.getByText(/^Read at .*; read again every 15 seconds\.$/)).toBeInTheDocument();
      visibility = 'hidden';
      tick();
      expect(server.called('GET /provisioning')).toHaveLength(1);
      visibility = 'visible';
      tick();
      await waitFor(() => expect(server.called('GET /provisioning')).toHaveLength(2));
      // While the page reads itself again, the tables stay as they were, unveiled.
      expect(document.querySelector('.ant-spin-spinning')).toBeNull();
      expect(rowsOf('Failures')).toHaveLength(1);
      await act(async () => answer({ body: settled }));
      expect(await within(failures).findByText(NO_FAILURES)).toBeInTheDocument();
      expect(rowsOf('Targets')[0]).toEqual(['ldap (ldap)', '0', '0', 'None', 'Tue Mar 3 2026 9:50 AM', '2']);
      expect(server.called('GET /provisioning')).toHaveLength(2);
    });

    it('a reading by itself that fails keeps the last answer on the page and says why', async () => {
      fakeServer({ 'GET /provisioning': [{ body: failing }, { status: 503, body: { error: 'The database did not answer.', code: 503 } }] });
      open();
      await screen.findByRole('region', { name: 'Failures' });
      tick();
      expect(await screen.findByRole('alert')).toHaveTextContent(notReadAgainText('The database did not answer.'));
      expect(rowsOf('Failures')).toHaveLength(1);
      expect(screen.getByRole('button', { name: 'Reconcile now' })).toBeEnabled();
    });
  });
});
