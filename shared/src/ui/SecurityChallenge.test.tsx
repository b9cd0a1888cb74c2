import { render, screen } from '@testing-library/react';
import { fakeServer } from '../fakeApi';
import { CHALLENGE_LOAD_ERROR, SecurityChallenge } from './SecurityChallenge';

const TOO_MANY = 'Too many attempts from your network. Please wait 1 minute and try again.';

describe('the security challenge when it cannot be loaded', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  test('refused for the rate (429): the server says how long to wait, and the page shows it', async () => {
    fakeServer({ 'GET /accounts/botchallengeendpoint': { status: 429, body: { error: TOO_MANY, code: 429 } } });
    render(<SecurityChallenge generation={0} onSolved={() => undefined} />);
    expect(await screen.findByText(TOO_MANY)).toBeInTheDocument();
    expect(screen.queryByText(CHALLENGE_LOAD_ERROR)).not.toBeInTheDocument();
  });

  test('any other failure: the general sentence', async () => {
    fakeServer({ 'GET /accounts/botchallengeendpoint': { status: 500, body: { error: 'Unknown server error', code: 500 } } });
    render(<SecurityChallenge generation={0} onSolved={() => undefined} />);
    expect(await screen.findByText(CHALLENGE_LOAD_ERROR)).toBeInTheDocument();
  });
});
