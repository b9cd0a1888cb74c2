/**
 * Test helpers for the screens of every remote (never part of a bundle; re-exported by
 * '@portal/shared/testing'): a fake API at the fetch boundary, the session and configuration a
 * page reads, a real router whose other paths show where the page sent the user and the feedback
 * it passed, and the security challenge solved as the widget reports it.
 */
import { render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation, type InitialEntry } from 'react-router-dom';
import type { Account } from '@portal/api';
import { clearXsrfToken } from './api/client.js';
import { DEFAULT_CONFIGURATION, type PortalConfiguration } from '@portal/api';
import { feedbackOf } from './navigation.js';
import type { Permission } from '@portal/api';
import { useConfigurationStore } from './stores/configuration.js';
import { useSessionStore } from './stores/session.js';

export interface FakeCall {
  readonly method: string;
  /** Below /accounts/rest, with the query: '/requests/profilechange/email-exists?email=a%40b.c'. */
  readonly path: string;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}
export interface FakeAnswer {
  readonly status?: number;
  readonly body?: unknown;
}
type Handler = FakeAnswer | ((call: FakeCall) => FakeAnswer | Promise<FakeAnswer>);

/** What fetch resolves to (jsdom has no Response: the client reads only these members). */
function response(status: number, body: unknown) {
  return { ok: status >= 200 && status < 300, status, statusText: '', text: async () => (body === undefined ? '' : JSON.stringify(body)) };
}

/**
 * Replaces fetch with a fake API answering 'METHOD /path' keys; GET /xsrf is answered for every
 * test. A list of answers is used in turn, its last one repeated. A call without an answer gets
 * 501, so a test never passes on a call it did not expect.
 */
export function fakeServer(routes: Record<string, Handler | Handler[]>): { calls: FakeCall[]; called(key: string): FakeCall[] } {
  clearXsrfToken();
  const calls: FakeCall[] = [];
  const queues = new Map(Object.entries(routes).map(([key, value]) => [key, Array.isArray(value) ? [...value] : [value]]));
  global.fetch = jest.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = url.replace(/^\/accounts\/rest/, '');
    if (method === 'GET' && path === '/xsrf') return response(200, { ok: 'xsrf-token' });
    const call = {
      method,
      path,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      headers: { ...(init.headers as Record<string, string> | undefined) },
    };
    calls.push(call);
    const queue = queues.get(`${method} ${path}`);
    const handler = queue && queue.length > 1 ? queue.shift() : queue?.[0];
    if (!handler) return response(501, { error: `No fake answer for ${method} ${path}`, code: 501 });
    const answer = typeof handler === 'function' ? await handler(call) : handler;
    return response(answer.status ?? 200, answer.body);
  }) as unknown as typeof fetch;
  return { calls, called: (key) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}

export function signIn(username: string, permissions: readonly Permission[]): void {
  useSessionStore.setState({ status: 'signed-in', session: { username, permissions }, error: undefined });
}

export function configure(config: Partial<PortalConfiguration> = {}): void {
  useConfigurationStore.setState({ status: 'ready', loaded: true, config: { ...DEFAULT_CONFIGURATION, ...config } });
}

/** Where a page sent the user: the path, the feedback banner's message, and the whole location state. */
function Landed() {
  const location = useLocation();
  return (
    <>
      <p data-testid="landed">{`${location.pathname}${location.search}`}</p>
      <p data-testid="feedback">{feedbackOf(location.state) ?? ''}</p>
      <p data-testid="landed-state">{JSON.stringify(location.state ?? null)}</p>
    </>
  );
}

/**
 * Renders `page` at `path` through a MemoryRouter opened at `entries` (the last one current); an
 * entry may be a location object to carry state: { pathname, search, state }.
 */
export function renderPage(page: ReactElement, { path, entries }: { path: string; entries: InitialEntry[] }) {
  return render(
    <AntApp>
      <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
        <Routes>
          <Route path={path} element={page} />
          <Route path="*" element={<Landed />} />
        </Routes>
      </MemoryRouter>
    </AntApp>,
  );
}

/** A complete account as GET /accounts/{username} answers it. */
export function sampleAccount(overrides: Partial<Account> = {}): Account {
  return {
    username: 'jane.doe',
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane.doe@example.test',
    active: true,
    closed: false,
    last_authenticated: '2026-03-03T16:05:00',
    authentication: ['token'],
    phone: '555-123-4567',
    address: { street: '1 Main St', city: 'Springfield', state: 'VA', zip: '22150', country: 'USA' },
    company: 'ACME',
    project: 'Portal',
    supervisor: { first_name: 'Sam', last_name: 'Boss', email: 'sam.boss@example.test', phone: '555-765-4321' },
    reason: 'Builds the portal.',
    certificate: null,
    updates: [],
    email_change_pending: false,
    auth_change_pending: false,
    groups: [],
    ...overrides,
  } as Account;
}

/** Solves the security challenge as the ALTCHA widget reports it (its 'statechange' event). */
export function solveChallenge(container: HTMLElement, payload = 'solved-payload'): void {
  const widget = container.querySelector('altcha-widget');
  if (!widget) throw new Error('no security challenge on the page');
  widget.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload } }));
}
