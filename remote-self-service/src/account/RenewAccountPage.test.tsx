import { RULE_MESSAGES } from '@portal/api';
import { useSessionStore } from '@portal/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { RenewAccountPage, ROLES_PAGE_TITLE, wikiPage } from './RenewAccountPage';

const open = () => renderPage(<RenewAccountPage />, { path: '/renew-account', entries: ['/renew-account'] });
const continueButton = () => screen.getByRole('button', { name: 'Continue to Profile' });

beforeEach(() => {
  configure({ wiki_url: 'https://wiki.example.test/' });
  signIn('jane.doe', ['RENEW_ACCOUNT', 'allow-renewal']);
});

describe('/renew-account', () => {
  it('links to the wiki page on website user roles and responsibilities', () => {
    fakeServer({});
    open();
    expect(screen.getByRole('heading', { level: 2, name: 'Renew Your Account' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: new RegExp(ROLES_PAGE_TITLE) })).toHaveAttribute(
      'href',
      'https://wiki.example.test/display/WEB/Website+User+Roles+and+Responsibilities',
    );
  });

  it('names the page without a link when no wiki is configured', () => {
    expect(wikiPage('undefined', 'x')).toBeUndefined();
    configure({ wiki_url: 'undefined' });
    fakeServer({});
    open();
    expect(screen.getByText(ROLES_PAGE_TITLE)).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('wants the box ticked, and sends nothing until it is', async () => {
    const server = fakeServer({});
    open();
    expect(screen.queryByText(RULE_MESSAGES.certifyRequirements)).not.toBeInTheDocument();
    await userEvent.click(continueButton());
    expect(await screen.findByText(RULE_MESSAGES.certifyRequirements)).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });

  it("certifies with 'Certifying', asks for the session again, then goes to /profile", async () => {
    const server = fakeServer({
      'POST /requests/renewal': { body: { ok: true, code: 200 } },
      'GET /sessions/current': { body: { username: 'jane.doe', permissions: ['CHANGE_EMAIL', 'VIEW_SUBSCRIPTIONS'] } },
    });
    open();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have read and understand the requirements' }));
    await userEvent.click(continueButton());
    expect(await screen.findByTestId('landed')).toHaveTextContent('/profile');
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /requests/renewal', 'GET /sessions/current']);
    expect(server.calls[0]?.body).toEqual({ username: 'jane.doe', reason: 'Certifying' });
    expect(useSessionStore.getState().session?.permissions).toEqual(['CHANGE_EMAIL', 'VIEW_SUBSCRIPTIONS']);
  });

  it('shows a failure below the button and stays', async () => {
    fakeServer({ 'POST /requests/renewal': { status: 500, body: { error: 'Internal server error', code: 500 } } });
    open();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have read and understand the requirements' }));
    await userEvent.click(continueButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal server error');
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
  });
});
