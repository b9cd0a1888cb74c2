/**
 * Requests the host starts before its first render, with plain fetch: nothing here may import
 * @portal/shared or antd, which the first render must not wait for.
 */
export const ENVIRONMENT_URL = '/environment.json';

const started = new Map<string, Promise<Response>>();

export function prefetch(url: string, init?: RequestInit): void {
  const response = fetch(url, init);
  response.catch(() => undefined); // the consumer reports failures
  started.set(url, response);
}

/** A fetch that hands out a prefetched response once, then fetches afresh (e.g. on Retry). */
export const fetchPrefetched: typeof fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const early = started.get(url);
  if (early) {
    started.delete(url);
    return early;
  }
  return fetch(input, init);
};
