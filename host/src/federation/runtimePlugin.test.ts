import { elementWithIntegrity, fetchWithRetry, trustIntegrity, withIntegrity } from './runtimePlugin';

const ok = { status: 200 } as Response;
const missing = { status: 404 } as Response;
const broken = { status: 502 } as Response;

describe('fetchWithRetry', () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });

  it('tries again after a network failure and a 5xx answer', async () => {
    global.fetch = jest.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(broken).mockResolvedValueOnce(ok);
    await expect(fetchWithRetry('/remotes/x/1.0.0/mf-manifest.json', undefined, [1, 1])).resolves.toBe(ok);
    expect(global.fetch).toHaveBeenCalledTimes(3);
  });

  it('takes a 404 as final', async () => {
    global.fetch = jest.fn().mockResolvedValue(missing);
    await expect(fetchWithRetry('/x', undefined, [1, 1])).resolves.toBe(missing);
    expect(global.fetch).toHaveBeenCalledTimes(1);
  });

  it('gives up after the last try with the last error', async () => {
    global.fetch = jest.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(fetchWithRetry('/x', undefined, [1, 1])).rejects.toThrow('Failed to fetch');
    expect(global.fetch).toHaveBeenCalledTimes(3);
  });
});

describe('subresource integrity of remote entry files', () => {
  const digest = 'sha384-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

  test('a fetch of a trusted entry carries its digest; other URLs are fetched as they were', () => {
    trustIntegrity({ '/remotes/sri/1.0.0/mf-manifest.json': digest });
    expect(withIntegrity(`${window.location.origin}/remotes/sri/1.0.0/mf-manifest.json`, { cache: 'no-store' })).toEqual({ cache: 'no-store', integrity: digest });
    expect(withIntegrity('/remotes/sri/1.0.0/mf-manifest.json', undefined)).toEqual({ integrity: digest });
    const init = { cache: 'no-store' as const };
    expect(withIntegrity('/remotes/other/1.0.0/mf-manifest.json', init)).toBe(init);
  });

  test('the entry script (and its preload link) is created with the digest and CORS mode, keeping the runtime’s attributes', () => {
    trustIntegrity({ '/remotes/sri/1.0.0/remoteEntry.js': digest });
    const url = `${window.location.origin}/remotes/sri/1.0.0/remoteEntry.js`;
    const script = elementWithIntegrity('script', url, { type: 'text/javascript', async: true, 'data-webpack': 'sri' });
    expect(script?.getAttribute('src')).toBe(url);
    expect(script?.integrity).toBe(digest);
    expect(script?.crossOrigin).toBe('anonymous');
    expect(script?.async).toBe(true);
    expect(script?.getAttribute('data-webpack')).toBe('sri');
    const link = elementWithIntegrity('link', url, { rel: 'preload', as: 'script' });
    expect(link?.getAttribute('href')).toBe(url);
    expect(link?.integrity).toBe(digest);
    expect(link?.rel).toBe('preload');
    expect(elementWithIntegrity('script', '/remotes/other/1.0.0/remoteEntry.js', {})).toBeUndefined();
  });
});
