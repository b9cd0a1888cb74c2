/**
 * Requests the host starts before its first render, with plain fetch: nothing here may import
 * @portal/shared or antd (but for types), which the first render must not wait for.
 */
import type { BootData } from '@portal/shared/contract';

export const ENVIRONMENT_URL = '/environment.json';

const started = new Map<string, Promise<Response>>();

/** The id of the JSON block the server puts into the first HTML (server/src/routes/host.ts). */
export const BOOT_DATA_ID = 'portal-boot';

/** The first HTML's boot data; undefined when there is none or it is not readable. */
export function bootData(doc: Document = document): BootData | undefined {
  const text = doc.getElementById(BOOT_DATA_ID)?.textContent;
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as BootData) : undefined;
  } catch {
    return undefined;
  }
}

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
