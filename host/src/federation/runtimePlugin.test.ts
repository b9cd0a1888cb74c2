import { fetchWithRetry } from './runtimePlugin';

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
