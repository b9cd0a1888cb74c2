/** Manage Remotes and the preview marker against a fake server (fetch), as an administrator sees them. */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearXsrfToken } from '@portal/shared';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import { readEnvironment } from '../../federation/environment';
import { PreviewMarker } from '../../shell/PreviewMarker';
import { useEnvironmentStore } from '../../shell/startup';
import ManageRemotesPage from './ManageRemotesPage';

jest.setTimeout(30_000);

const answer = (status: number, body: unknown) => ({ ok: status < 400, status, statusText: '', text: async () => JSON.stringify(body) });

const FEDERATION = {
  environment: 'local',
  served_environment: 'local',
  environments: ['local', 'staging'],
  host_contract: '2.0.0',
  remotes: [
    {
      name: 'groups', version: '0.2.0', contract: '^2.0.0', routes: ['/groups'], pinned_at: Date.UTC(2026, 10, 24, 10), pinned_by: 'ada', reason: 'new table',
      rollback_to: '0.1.0', preview: null,
      versions: [
        { version: '3.0.0', contract: '^3.0.0', published_at: Date.UTC(2026, 10, 24), published_by: 'team', compatible: false },
        { version: '0.2.0', contract: '^2.0.0', published_at: Date.UTC(2026, 10, 23), published_by: 'team', compatible: true },
        { version: '0.1.0', contract: '^2.0.0', published_at: Date.UTC(2026, 10, 22), published_by: 'team', compatible: true },
      ],
    },
    {
      name: 'tokens', version: '0.1.0', contract: '^2.0.0', routes: ['/tokens'], pinned_at: Date.UTC(2026, 10, 20), pinned_by: 'initial pins', reason: 'initial pin',
      rollback_to: null, preview: null, versions: [{ version: '0.1.0', contract: '^2.0.0', published_at: Date.UTC(2026, 10, 20), published_by: 'workspace build', compatible: true }],
    },
  ],
};
const HISTORY = {
  environment: 'local',
  history: [{ id: 2, environment: 'local', remote: 'groups', action: 'pin', from_version: '0.1.0', to_version: '0.2.0', changed_at: Date.UTC(2026, 10, 24, 10), changed_by: 'ada', reason: 'new table' }],
};

type Sent = { method: string; url: string; body?: string };
let sent: Sent[];
let pinAnswer: ReturnType<typeof answer>;

beforeEach(() => {
  clearXsrfToken();
  sent = [];
  pinAnswer = answer(409, { error: 'groups 0.1.0 cannot be pinned: it needs host contract ^3.0.0, and the host of local implements 2.0.0.', code: 409 });
  global.fetch = jest.fn(async (url: string, init: RequestInit = {}) => {
    const method = String(init.method ?? 'GET');
    sent.push({ method, url, body: init.body as string | undefined });
    if (url.endsWith('/xsrf')) return answer(200, { ok: 't' });
    if (url.includes('/federation/history')) return answer(200, HISTORY);
    if (url.includes('/federation/pins')) return pinAnswer;
    if (url.includes('/federation/previews/')) return answer(200, { ok: true });
    if (url.includes('/federation')) return answer(200, FEDERATION);
    return answer(404, { error: 'Not found', code: 404 });
  }) as unknown as typeof fetch;
});

function renderPage() {
  return render(
    <AntApp>
      <MemoryRouter>
        <ManageRemotesPage />
      </MemoryRouter>
    </AntApp>,
  );
}

describe('Manage Remotes', () => {
  it('lists each remote’s pin, offers a rollback only where there was an earlier pin, and links the history CSV', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 2, name: 'Manage Remotes' })).toBeInTheDocument();
    const remotes = await screen.findByRole('table', { name: 'Remotes' });
    await within(remotes).findByText('groups', { exact: true });
    const row = (name: string) => within(remotes).getAllByRole('row').find((r) => within(r).queryByText(name, { exact: true })) as HTMLElement;
    const groups = row('groups');
    expect(within(groups).getByText('new table')).toBeInTheDocument();
    expect(within(groups).getByText('ada')).toBeInTheDocument();
    expect(within(groups).getByRole('button', { name: 'Roll back groups' })).toBeEnabled();
    const tokens = row('tokens');
    expect(within(tokens).getByRole('button', { name: 'Roll back tokens' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/accounts/rest/federation/history.csv?environment=local');
    const history = await screen.findByRole('table', { name: 'History' });
    expect(await within(history).findByText('0.1.0')).toBeInTheDocument();
  });

  it('pins through a confirmation with a reason, and shows why the server refused', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Pin a version of groups' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pin a version of groups' });
    await user.click(within(dialog).getByRole('button', { name: 'Pin' }));
    expect(await within(dialog).findByText('Please choose a version.')).toBeInTheDocument();
    expect(await within(dialog).findByText('Please say why (it is kept in the history).')).toBeInTheDocument();
    expect(sent.some((s) => s.url.includes('/federation/pins'))).toBe(false);

    await user.click(within(dialog).getByRole('combobox', { name: 'Version' }));
    expect(await screen.findByTitle('3.0.0 (needs contract ^3.0.0)')).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByTitle('0.1.0 (contract ^2.0.0)'));
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'back to the old table');
    await user.click(within(dialog).getByRole('button', { name: 'Pin' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('groups 0.1.0 cannot be pinned: it needs host contract ^3.0.0');
    const pin = sent.find((s) => s.url.includes('/federation/pins'));
    expect(JSON.parse(pin?.body ?? '{}')).toEqual({ environment: 'local', remote: 'groups', version: '0.1.0', reason: 'back to the old table' });

    pinAnswer = answer(200, { environment: 'local', remote: 'groups', action: 'pin', from_version: '0.2.0', to_version: '0.1.0' });
    await user.click(within(dialog).getByRole('button', { name: 'Pin' }));
    expect(await screen.findByText('local now runs groups 0.1.0, from the next page load.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('the preview marker', () => {
  it('says which version this browser previews and ends the preview', async () => {
    useEnvironmentStore.setState({
      status: 'ready',
      environment: readEnvironment({
        environment: 'local',
        remotes: [{ name: 'groups', version: '0.2.0', entry: '/remotes/groups/0.2.0/mf-manifest.json', contract: '^2.0.0', routes: ['/groups'], preview: true }],
      }),
    });
    const user = userEvent.setup();
    render(<PreviewMarker />);
    expect(screen.getByText('Preview: groups 0.2.0 (only in your browser)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'End preview' }));
    await waitFor(() => expect(sent.some((s) => s.method === 'DELETE' && s.url.endsWith('/federation/previews/groups'))).toBe(true));
  });

  it('is not there without a preview', () => {
    useEnvironmentStore.setState({ status: 'ready', environment: readEnvironment({ environment: 'local', remotes: [] }) });
    const { container } = render(<PreviewMarker />);
    expect(container).toBeEmptyDOMElement();
  });
});
