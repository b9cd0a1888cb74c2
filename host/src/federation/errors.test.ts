import { classifyLoadFailure, RemoteLoadError } from './errors';

describe('classifyLoadFailure', () => {
  it.each([
    [
      'an entry script that did not load (its text names 404 among the possible causes)',
      new Error(
        '[ Federation Runtime ]: Failed to load script resources. #RUNTIME-008\nargs: {"remoteName":"groups"}\nScriptNetworkError: Failed to load script "/remotes/groups/0.1.0/remoteEntry.js" - the script URL is unreachable or the server returned an error (network failure, 404, CORS, etc.)',
      ),
      'network',
    ],
    ['a fetch that failed', new TypeError('Failed to fetch'), 'network'],
    ['a chunk that did not load', Object.assign(new Error('Loading chunk 806 failed.'), { name: 'ChunkLoadError' }), 'network'],
    ['an answer 404', new Error('/remotes/groups/0.1.0/remoteEntry.js answered 404'), 'not-found'],
    ['a script that threw', new Error('ScriptExecutionError: Script "/x.js" loaded but threw a runtime error during execution'), 'script'],
    ['a reason already given', new RemoteLoadError('groups', 'contract', 'it needs contract ^3.0.0'), 'contract'],
  ])('%s: %s', (_what, error, reason) => {
    expect(classifyLoadFailure(error)).toBe(reason);
  });
});
