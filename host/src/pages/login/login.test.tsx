import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError, CHALLENGE_REQUIRED, MESSAGES } from '@portal/shared';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import { destinationAfterSignIn } from './afterSignIn';
import { lastAuthType, rememberAuthType } from './preferences';
import { asSignInFailure, SignInError } from './signInErrors';
import { TokenSignInForm } from './TokenSignInForm';

// Typing with userEvent takes seconds on a busy machine (the whole suite runs in parallel).
jest.setTimeout(20_000);

const inRouter = (ui: React.ReactNode) => render(<AntApp><MemoryRouter>{ui}</MemoryRouter></AntApp>);

describe('sign-in errors (spec section 8)', () => {
  it.each([400, 401, 422])('a token sign-in answered %i offers generating a website token', (code) => {
    inRouter(<SignInError failure={{ message: 'Invalid username or website token.', code }} kind="token" cacSupport />);
    expect(screen.getByRole('alert')).toHaveTextContent(`Invalid username or website token. (code ${code})`);
    expect(screen.getByRole('link', { name: 'Generate a new website token' })).toHaveAttribute('href', '/reset-website-token');
  });

  it('a locked account (423) is offered an unlock request', () => {
    inRouter(<SignInError failure={{ message: 'This account is locked. Please request an unlock.', code: 423 }} kind="token" cacSupport />);
    expect(screen.getByRole('link', { name: 'Request an unlock' })).toHaveAttribute('href', '/request-unlock');
  });

  it('a CAC sign-in answered 404 offers requesting an account or registering the card', () => {
    inRouter(<SignInError failure={{ message: 'No account is registered for this certificate.', code: 404 }} kind="cac" cacSupport />);
    expect(screen.getByRole('link', { name: 'Request an account' })).toHaveAttribute('href', '/request-account');
    expect(screen.getByRole('link', { name: 'register your CAC' })).toHaveAttribute('href', '/register-cac');
  });

  it('a CAC sign-in answered 401 offers an unlock request', () => {
    inRouter(<SignInError failure={{ message: 'This account is locked or closed.', code: 401 }} kind="cac" cacSupport />);
    expect(screen.getByRole('link', { name: 'Request an unlock' })).toHaveAttribute('href', '/request-unlock');
  });

  it("a transport failure is 'Unknown server error'", () => {
    expect(asSignInFailure(new ApiError(MESSAGES.communicationError, 0))).toEqual({ message: 'Unknown server error', code: 500 });
    expect(asSignInFailure(new ApiError('Forbidden', 403))).toEqual({ message: 'Forbidden', code: 403 });
  });
});

describe('where a user goes after signing in', () => {
  const user = { username: 'jane', permissions: [] };
  const WIKI = { wiki_url: 'https://wiki.example.test/', service_origins: 'jira=https://jira.example.test,bitbucket=https://code.example.test:8443', supported_services: 'jira,bitbucket' };
  const NO_WIKI = { wiki_url: 'undefined', service_origins: '', supported_services: '' };
  it('to the redirect when it is a path on this site', () => {
    expect(destinationAfterSignIn(user, '/groups?tab=2', WIKI)).toEqual({ kind: 'route', to: '/groups?tab=2' });
  });
  it("to the OpenID provider's sign-in of a service by a full page load: the server answers it, not the host's routes", () => {
    expect(destinationAfterSignIn(user, '/oidc/interaction/Xy_1-z', WIKI)).toEqual({ kind: 'external', href: '/oidc/interaction/Xy_1-z' });
  });
  it('to a configured service or the wiki, whatever the path', () => {
    expect(destinationAfterSignIn(user, 'https://jira.example.test/browse/WEB-1', WIKI)).toEqual({ kind: 'external', href: 'https://jira.example.test/browse/WEB-1' });
    expect(destinationAfterSignIn(user, 'https://code.example.test:8443/projects', WIKI)).toEqual({ kind: 'external', href: 'https://code.example.test:8443/projects' });
    expect(destinationAfterSignIn(user, 'https://wiki.example.test/display/WEB', WIKI)).toEqual({ kind: 'external', href: 'https://wiki.example.test/display/WEB' });
  });
  it.each([
    '//evil.example/x',
    'https://evil.example/',
    'https://jira.example.test.evil.example/',
    'https://jira.example.test@evil.example/',
    'http://jira.example.test/',
    'https://code.example.test/projects',
    '/\\evil.example',
    'javascript:alert(1)',
    'https://jira.example.test/\tx',
  ])('never to %s', (redirect) => {
    expect(destinationAfterSignIn(user, redirect, WIKI)).toEqual({ kind: 'external', href: 'https://wiki.example.test/' });
  });
  it('to the wiki without a redirect, or to the profile when no wiki is configured', () => {
    expect(destinationAfterSignIn(user, null, NO_WIKI)).toEqual({ kind: 'route', to: '/profile' });
  });
  it('to /renew-account when the account must certify', () => {
    expect(destinationAfterSignIn({ username: 'jane', permissions: ['allow-renewal'] }, '/groups', NO_WIKI)).toEqual({
      kind: 'route',
      to: '/renew-account',
    });
  });
});


describe('the remembered authentication type', () => {
  it('defaults to CAC with smart-card support, else token, and remembers the choice', () => {
    window.localStorage.clear();
    expect(lastAuthType(true)).toBe('cac');
    expect(lastAuthType(false)).toBe('token');
    rememberAuthType('token');
    expect(lastAuthType(true)).toBe('token');
  });
});

describe('the website-token form', () => {
  beforeEach(() => {
    // The challenge endpoint is out of reach here: the widget reports that, the form still validates.
    global.fetch = jest.fn().mockRejectedValue(new TypeError('offline')) as unknown as typeof fetch;
  });

  it('shows what is missing only after a submit', async () => {
    inRouter(<TokenSignInForm cacSupport onSignedIn={jest.fn()} />);
    expect(screen.queryByText('Please enter your username or email.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Please enter your username or email.')).toBeInTheDocument();
    expect(screen.getByText('Please enter your website token.')).toBeInTheDocument();
    expect(await screen.findByText('There was an error loading the security challenge.')).toBeInTheDocument();
  });

  it('asks for the security challenge before sending anything', async () => {
    const onSignedIn = jest.fn();
    inRouter(<TokenSignInForm cacSupport onSignedIn={onSignedIn} />);
    await userEvent.type(screen.getByLabelText('Username or email'), 'jane.doe');
    await userEvent.type(screen.getByLabelText('Website token'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(CHALLENGE_REQUIRED)).toBeInTheDocument();
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(global.fetch).not.toHaveBeenCalledWith('/accounts/rest/sessions', expect.anything());
  });
});
