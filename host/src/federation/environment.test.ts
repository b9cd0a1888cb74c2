import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentError, fetchEnvironment, readEnvironment } from './environment';

const local = JSON.parse(readFileSync(join(__dirname, '../../../server/environments/local.json'), 'utf8'));
const served = {
  ...local,
  remotes: local.remotes.map((r: { name: string; version: string }) => ({ ...r, entry: `/remotes/${r.name}/${r.version}/mf-manifest.json` })),
};

describe('readEnvironment', () => {
  it('keeps every remote whose contract range this host satisfies', () => {
    const env = readEnvironment(served, '2.0.0');
    expect(env.remotes.map((r) => [r.name, r.compatible])).toEqual([
      ['self_service', true],
      ['groups', true],
      ['adjudication', true],
      ['mailing_lists', true],
      ['tokens', true],
    ]);
  });

  it('marks a remote that needs another contract as incompatible (a host of contract 1 or 3)', () => {
    const env = readEnvironment(served, '1.5.0');
    expect(env.remotes.every((r) => !r.compatible)).toBe(true);
    expect(readEnvironment(served, '3.0.0').remotes.some((r) => r.compatible)).toBe(false);
  });

  it('refuses a manifest whose entries the server did not resolve', () => {
    expect(() => readEnvironment(local)).toThrow(EnvironmentError);
    expect(() => readEnvironment(local)).toThrow('remotes[0].entry: the server did not resolve it');
  });

  it('refuses a broken manifest, saying what is wrong', () => {
    expect(() => readEnvironment({ environment: 'x' })).toThrow('The environment manifest is not valid: remotes: must be a list');
  });
});

describe('fetchEnvironment', () => {
  it('asks for the manifest without any cache', async () => {
    const fetchImpl = jest.fn().mockResolvedValue({ ok: true, status: 200, json: async () => served });
    await fetchEnvironment(fetchImpl as unknown as typeof fetch);
    expect(fetchImpl).toHaveBeenCalledWith('/environment.json', expect.objectContaining({ cache: 'no-store' }));
  });

  it('reports an unreachable or failing manifest as an EnvironmentError', async () => {
    await expect(fetchEnvironment(jest.fn().mockRejectedValue(new TypeError('offline')))).rejects.toThrow(
      'The environment manifest could not be fetched.',
    );
    await expect(
      fetchEnvironment(jest.fn().mockResolvedValue({ ok: false, status: 503, json: async () => ({}) }) as unknown as typeof fetch),
    ).rejects.toThrow('The environment manifest answered 503.');
  });
});
