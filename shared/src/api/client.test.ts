import { ApiError, apiRequest } from './client';
import { MESSAGES } from '../messages';

// jsdom has no Response: the client reads only these members.
function response(status: number, body: string, statusText = '') {
  return { ok: status >= 200 && status < 300, status, statusText, text: async () => body };
}
function answer(status: number, body: string) {
  global.fetch = jest.fn().mockResolvedValue(response(status, body));
}

describe('apiRequest', () => {
  afterEach(() => jest.restoreAllMocks());

  it('returns the parsed body of a success', async () => {
    answer(200, '{"brand":"X"}');
    await expect(apiRequest('GET', '/configuration')).resolves.toEqual({ brand: 'X' });
    expect(global.fetch).toHaveBeenCalledWith('/accounts/rest/configuration', expect.objectContaining({ method: 'GET' }));
  });

  it('treats a body with an error field as a failure, whatever the status', async () => {
    answer(200, '{"error":"Forbidden","code":403}');
    const failure = apiRequest('GET', '/usergroups/x');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ message: 'Forbidden', status: 200, code: 403 });
  });

  it('gives the generic message for a transport failure', async () => {
    global.fetch = jest.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiRequest('GET', '/configuration')).rejects.toMatchObject({
      message: MESSAGES.communicationError,
      status: 0,
    });
  });

  it('fails on an error status without a JSON body', async () => {
    global.fetch = jest.fn().mockResolvedValue(response(502, '<html>Bad gateway</html>', 'Bad Gateway'));
    await expect(apiRequest('GET', '/configuration')).rejects.toMatchObject({ message: 'Bad Gateway', status: 502 });
  });

  it('sends a JSON body', async () => {
    answer(200, '{}');
    await apiRequest('POST', '/sessions', { body: { id: 'a' } });
    expect(global.fetch).toHaveBeenCalledWith(
      '/accounts/rest/sessions',
      expect.objectContaining({ method: 'POST', body: '{"id":"a"}', headers: expect.objectContaining({ 'Content-Type': 'application/json' }) }),
    );
  });
});
