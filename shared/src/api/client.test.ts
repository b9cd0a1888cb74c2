import { MESSAGES } from '../messages';
import { adoptXsrfToken, ApiError, apiRequest, clearXsrfToken, INVALID_XSRF, XSRF_HEADER } from './client';

// jsdom has no Response: the client reads only these members.
function response(status: number, body: string, statusText = '') {
  return { ok: status >= 200 && status < 300, status, statusText, text: async () => body };
}

type Call = { url: string; method: string; headers: Record<string, string>; body?: string };

/** A fake server: answers by path, records every call. */
function serve(routes: Record<string, (call: Call) => ReturnType<typeof response>>): Call[] {
  const calls: Call[] = [];
  global.fetch = jest.fn(async (url: string, init: RequestInit) => {
    const call = { url, method: String(init.method), headers: init.headers as Record<string, string>, body: init.body as string | undefined };
    calls.push(call);
    const route = routes[url.replace('/accounts/rest', '')];
    if (!route) throw new Error(`no route for ${url}`);
    return route(call);
  }) as unknown as typeof fetch;
  return calls;
}

let tokens = 0;
const xsrf = () => response(200, JSON.stringify({ ok: `token-${++tokens}` }));

beforeEach(() => {
  clearXsrfToken();
  tokens = 0;
});

describe('apiRequest', () => {
  it('returns the parsed body of a success', async () => {
    serve({ '/configuration': () => response(200, '{"brand":"X"}') });
    await expect(apiRequest('GET', '/configuration', { xsrf: false })).resolves.toEqual({ brand: 'X' });
  });

  it('treats a body with an error field as a failure, whatever the status', async () => {
    serve({ '/xsrf': xsrf, '/usergroups/x': () => response(200, '{"error":"Forbidden","code":403}') });
    const failure = apiRequest('GET', '/usergroups/x');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ message: 'Forbidden', status: 200, code: 403 });
  });

  it('gives the generic message for a transport failure', async () => {
    global.fetch = jest.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiRequest('GET', '/configuration', { xsrf: false })).rejects.toMatchObject({
      message: MESSAGES.communicationError,
      status: 0,
    });
  });

  it('fails on an error status without a JSON body', async () => {
    serve({ '/configuration': () => response(502, '<html>Bad gateway</html>', 'Bad Gateway') });
    await expect(apiRequest('GET', '/configuration', { xsrf: false })).rejects.toMatchObject({ message: 'Bad Gateway', status: 502 });
  });

  it('sends a JSON body', async () => {
    const calls = serve({ '/sessions': () => response(200, '{}') });
    await apiRequest('POST', '/sessions', { body: { id: 'a' }, xsrf: false });
    expect(calls[0]).toMatchObject({ method: 'POST', body: '{"id":"a"}', headers: expect.objectContaining({ 'Content-Type': 'application/json' }) });
  });
});

describe('the anti-forgery token', () => {
  it('is fetched first, sent as a header, and fetched once for many calls', async () => {
    const calls = serve({ '/xsrf': xsrf, '/sessions/current': () => response(200, '{"username":"a","permissions":[]}') });
    await apiRequest('GET', '/sessions/current');
    await apiRequest('GET', '/sessions/current');
    expect(calls.map((c) => c.url)).toEqual(['/accounts/rest/xsrf', '/accounts/rest/sessions/current', '/accounts/rest/sessions/current']);
    expect(calls[0]?.headers[XSRF_HEADER]).toBeUndefined();
    expect(calls[1]?.headers[XSRF_HEADER]).toBe('token-1');
    expect(calls[2]?.headers[XSRF_HEADER]).toBe('token-1');
  });

  it('is not sent on exempt calls', async () => {
    const calls = serve({ '/configuration': () => response(200, '{}') });
    await apiRequest('GET', '/configuration', { xsrf: false });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers[XSRF_HEADER]).toBeUndefined();
  });

  it('is forgotten after an error, and fetched again for the next call', async () => {
    let fail = true;
    const calls = serve({
      '/xsrf': xsrf,
      '/requests': () => (fail ? response(500, '{"error":"Internal server error","code":500}') : response(200, '{}')),
    });
    await expect(apiRequest('GET', '/requests')).rejects.toMatchObject({ status: 500 });
    fail = false;
    await apiRequest('GET', '/requests');
    expect(calls.filter((c) => c.url.endsWith('/xsrf'))).toHaveLength(2);
    expect(calls[3]?.headers[XSRF_HEADER]).toBe('token-2');
  });

  it('is kept when the caller gave up on a call (an aborted request says nothing about the token)', async () => {
    const calls = serve({ '/xsrf': xsrf, '/requests': () => response(200, '{}') });
    await apiRequest('GET', '/requests');
    const controller = new AbortController();
    global.fetch = jest.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: String(init.method), headers: init.headers as Record<string, string> });
      controller.abort();
      throw new DOMException('The operation was aborted.', 'AbortError');
    }) as unknown as typeof fetch;
    await expect(apiRequest('GET', '/requests', { signal: controller.signal })).rejects.toBeDefined();
    const after = serve({ '/xsrf': xsrf, '/requests': () => response(200, '{}') });
    await apiRequest('GET', '/requests');
    expect(after.map((c) => c.url)).toEqual(['/accounts/rest/requests']);
    expect(after[0]?.headers[XSRF_HEADER]).toBe('token-1');
  });

  it('is renewed, and the call sent once more, when the server calls it stale', async () => {
    const calls = serve({
      '/xsrf': xsrf,
      '/requests': (call) =>
        call.headers[XSRF_HEADER] === 'token-1' ? response(403, JSON.stringify({ error: INVALID_XSRF, code: 403 })) : response(200, '{"total_new":3}'),
    });
    await expect(apiRequest('GET', '/requests')).resolves.toEqual({ total_new: 3 });
    expect(calls.map((c) => [c.url.replace('/accounts/rest', ''), c.headers[XSRF_HEADER]])).toEqual([
      ['/xsrf', undefined],
      ['/requests', 'token-1'],
      ['/xsrf', undefined],
      ['/requests', 'token-2'],
    ]);
  });

  it('sends the token the first HTML carried without asking GET /xsrf, and asks once it is refused as stale', async () => {
    const calls = serve({
      '/xsrf': xsrf,
      '/requests': (call) => (call.headers[XSRF_HEADER] === 'token-1' ? response(200, '{"total_new":3}') : response(403, JSON.stringify({ error: INVALID_XSRF, code: 403 }))),
    });
    adoptXsrfToken('carried');
    await expect(apiRequest('GET', '/requests')).resolves.toEqual({ total_new: 3 });
    expect(calls.map((c) => [c.url.replace('/accounts/rest', ''), c.headers[XSRF_HEADER]])).toEqual([
      ['/requests', 'carried'],
      ['/xsrf', undefined],
      ['/requests', 'token-1'],
    ]);
  });

  it('keeps a token it already has over one adopted later', async () => {
    const calls = serve({ '/xsrf': xsrf, '/requests': () => response(200, '{}') });
    await apiRequest('GET', '/requests');
    adoptXsrfToken('late');
    await apiRequest('GET', '/requests');
    expect(calls.map((c) => c.headers[XSRF_HEADER]).filter(Boolean)).toEqual(['token-1', 'token-1']);
  });

  it('is not retried for any other 403', async () => {
    const calls = serve({ '/xsrf': xsrf, '/requests': () => response(403, '{"error":"Forbidden","code":403}') });
    await expect(apiRequest('GET', '/requests')).rejects.toMatchObject({ message: 'Forbidden', status: 403 });
    expect(calls.filter((c) => c.url.endsWith('/requests'))).toHaveLength(1);
  });
});
