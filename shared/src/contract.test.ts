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
        { name: 'groups', version: '1.0.0', entry: '/x/mf-manifest.json', contract: '^1.0.0', routes: ['/groups'] },
        { name: 'groups', contract: '', routes: ['/groups', 'no-slash'] },
        { name: '9bad', version: 'latest', contract: '^1', routes: [] },
      ],
    });
    expect(problems).toEqual([
      'environment: must be a non-empty string',
      'remotes[0]: give exactly one of version and entry',
      "remotes[1].name: 'groups' is listed twice",
      'remotes[1]: give exactly one of version and entry',
      'remotes[1].contract: must be a version range such as ^1.0.0',
      "remotes[1].routes: '/groups' is already owned by groups",
      "remotes[1].routes: 'no-slash' is not a path prefix such as /groups",
      'remotes[2].name: must be letters, digits and underscores, starting with a letter',
      'remotes[2].version: must be a version such as 1.2.3',
      'remotes[2].routes: must be a non-empty list of path prefixes',
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
      { name: 'a', version: '1.0.0', contract: '^1.0.0', routes: ['/tokens'] },
      { name: 'b', version: '1.0.0', contract: '^1.0.0', routes: ['/tokens/services'] },
    ];
    expect(remoteForPath(nested, '/tokens/services/x')?.name).toBe('b');
    expect(remoteForPath(nested, '/tokens/artifactory')?.name).toBe('a');
  });
});
