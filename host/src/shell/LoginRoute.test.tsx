/**
 * /login's page is a chunk of its own (../loginChunk.ts): while it loads the chrome shows the
 * loading state; if it cannot be loaded the chrome stays and says so, and Retry asks for it again
 * and shows the page.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_CONFIGURATION } from '@portal/api';
import { MESSAGES, useConfigurationStore, useSessionStore } from '@portal/shared';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import { loadLoginPage } from '../loginChunk';
import { PortalRoutes } from './Shell';

jest.mock('../loginChunk', () => ({ loadLoginPage: jest.fn() }));
const mockedLoad = loadLoginPage as jest.MockedFunction<typeof loadLoginPage>;

const page = { LoginPage: () => <h2>Please Sign In</h2> } as unknown as Awaited<ReturnType<typeof loadLoginPage>>;

beforeEach(() => {
  global.fetch = jest.fn(async () => ({ ok: false, status: 404, statusText: '', text: async () => '{"error":"Not found","code":404}' })) as unknown as typeof fetch;
  useSessionStore.setState({ status: 'anonymous', session: undefined });
  useConfigurationStore.getState().setConfiguration({ ...DEFAULT_CONFIGURATION }, true);
  mockedLoad.mockReset();
});

function renderLogin() {
  return render(
    <AntApp>
      <MemoryRouter initialEntries={['/login']}>
        <PortalRoutes />
      </MemoryRouter>
    </AntApp>,
  );
}

it('shows the sign-in page once its chunk has loaded', async () => {
  mockedLoad.mockResolvedValue(page);
  renderLogin();
  expect(await screen.findByRole('heading', { name: 'Please Sign In' })).toBeVisible();
});

it('keeps the chrome and offers Retry when the chunk cannot be loaded; Retry shows the page', async () => {
  mockedLoad.mockRejectedValueOnce(new Error('Loading chunk login failed.')).mockRejectedValueOnce(new Error('Loading chunk login failed.'));
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  renderLogin();
  expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.remoteUnavailable);
  expect(screen.getByRole('banner')).toBeVisible();
  // Still failing: the panel stays.
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.remoteUnavailable);
  // Back: the page.
  mockedLoad.mockResolvedValue(page);
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('heading', { name: 'Please Sign In' })).toBeVisible();
  expect(screen.queryByText(MESSAGES.remoteUnavailable)).toBeNull();
});
