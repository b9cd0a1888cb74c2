import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { remoteForPath, validateEnvironmentManifest, type EnvironmentRemote } from './contract';

const local = JSON.parse(readFileSync(join(__dirname, '../../server/environments/local.json'), 'utf8'));

describe('validateEnvironmentManifest', () => {
  it('accepts the local environment manifest', () => {
    expect(validateEnvironmentManifest(local)).toEqual([]);
  });

  it('names every problem with where it is', () => {
    const problems = validateEnvironmentManifest({
      environment: '',
      remotes: [
        { name: 'groups', version: '1.0.0', entry: '/x/mf-manifest.json', contract: '^2.0.0', routes: ['/groups'] },
        { name: 'groups', contract: '', routes: ['/groups', 'no-slash'] },
        { name: '9bad', version: 'latest', contract: '^1', routes: [] },
      ],
    });
    expect(problems).toEqual([
      'environment: must be a non-empty string',
      'remotes[0]: give exactly one of version and entry',
      "remotes[1].name: 'groups' is listed twice",
      'remotes[1]: give exactly one of version and entry',
      'remotes[1].contract: must be a version range such as ^2.0.0',
      "remotes[1].routes: '/groups' is already owned by groups",
      "remotes[1].routes: 'no-slash' is not a path prefix such as /groups",
      'remotes[2].name: must be letters, digits and underscores, starting with a letter',
      'remotes[2].version: must be a version such as 1.2.3',
      'remotes[2].routes: must be a non-empty list of path prefixes',
    ]);
  });

  it("checks each remote's sidebar entries: under its own routes, each page once, a known block, a known condition", () => {
    const entry = { section: 'main', order: 30, label: 'Groups', path: '/groups' };
    const manifest = (navigation: unknown) => ({ environment: 'x', remotes: [{ name: 'groups', version: '1.0.0', contract: '^2.0.0', routes: ['/groups'], navigation }] });
    expect(validateEnvironmentManifest(manifest([entry, { ...entry, path: '/groups/mine', when: 'service:artifacts', count: 'total_usergroup', group: 'Groups' }]))).toEqual([]);
    expect(validateEnvironmentManifest(manifest([entry, { ...entry, label: 'Again' }, { ...entry, path: '/profile', permission: 'not a name' }]))).toEqual([
      "remotes[0].navigation[1].path: '/groups' is listed twice",
      "remotes[0].navigation[2].path: '/profile' is not under one of this remote's routes",
      "remotes[0].navigation[2].permission: must be a permission's name such as SEARCH_ACCOUNTS",
    ]);
    expect(validateEnvironmentManifest(manifest([{ ...entry, section: 'top', when: 'smart-cards ' }]))).toEqual([
      'remotes[0].navigation[0].section: must be one of main, manage-accounts, platform',
      'remotes[0].navigation[0].when: must be smart-cards or service:NAME',
    ]);
  });

  it('refuses what is not a manifest at all', () => {
    expect(validateEnvironmentManifest(null)).toEqual(['the manifest must be a JSON object']);
    expect(validateEnvironmentManifest({ environment: 'x', remotes: {} })).toEqual(['remotes: must be a list']);
  });
});

describe('remoteForPath', () => {
  const remotes: EnvironmentRemote[] = local.remotes;
  it.each([
    ['/groups', 'groups'],
    ['/group-administration/42/7', 'groups'],
    ['/change-email/jane.doe', 'self_service'],
    ['/list-account-requests/12', 'adjudication'],
    ['/mailing-lists/dev@example.test/queue', 'mailing_lists'],
    ['/tokens/artifactory', 'tokens'],
  ])('%s belongs to %s', (path, name) => {
    expect(remoteForPath(remotes, path)?.name).toBe(name);
  });

  it('matches whole path segments only', () => {
    expect(remoteForPath(remotes, '/groupsx')).toBeUndefined();
    expect(remoteForPath(remotes, '/profile-photos')).toBeUndefined();
    expect(remoteForPath(remotes, '/')).toBeUndefined();
  });

  it('prefers the longest prefix', () => {
    const nested: EnvironmentRemote[] = [
      { name: 'a', version: '1.0.0', contract: '^2.0.0', routes: ['/tokens'] },
      { name: 'b', version: '1.0.0', contract: '^2.0.0', routes: ['/tokens/services'] },
    ];
    expect(remoteForPath(nested, '/tokens/services/x')?.name).toBe('b');
    expect(remoteForPath(nested, '/tokens/artifactory')?.name).toBe('a');
  });
});
