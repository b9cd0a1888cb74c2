import { elementWithIntegrity, integrityFor, trustIntegrity } from './runtimePlugin';

describe('subresource integrity of remote entry files', () => {
  const digest = 'sha384-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

  test('a trusted entry has its digest wherever the URL is written; other URLs have none', () => {
    trustIntegrity({ '/remotes/sri/1.0.0/remoteEntry.js': digest });
    expect(integrityFor(`${window.location.origin}/remotes/sri/1.0.0/remoteEntry.js`)).toBe(digest);
    expect(integrityFor('/remotes/sri/1.0.0/remoteEntry.js')).toBe(digest);
    expect(integrityFor('/remotes/other/1.0.0/remoteEntry.js')).toBeUndefined();
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
