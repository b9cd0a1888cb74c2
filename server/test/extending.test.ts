/**
 * docs/extending.md, "Adding a request kind", done as it says: a copy of the server and of
 * @portal/api with the guide's files added (read from the guide's code blocks) and no file edited,
 * then the guide's own test of the new kind run against that copy. If a new kind ever needs an
 * edit to a list elsewhere (a table of kinds, a roles list, a summary field, a check constraint),
 * the copy lacks it and this fails.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { copyWorkspace, guideFiles, REPO } from '../../scripts/workspace-copy.mjs';

const work = mkdtempSync(join(tmpdir(), 'portal-extending-'));
after(() => rmSync(work, { recursive: true, force: true }));

test("adding a request kind as docs/extending.md says adds files only, and the kind's own test passes on the copy", () => {
  const files = guideFiles('Adding a request kind');
  assert.deepEqual([...files.keys()], [
    'shared/api/src/requests/kinds/service-token.ts',
    'server/src/services/request-kinds/kinds/service-token.ts',
    'server/test/service-token.test.ts',
    'remote-tokens/src/requests/serviceTokenQueue.tsx',
  ]);
  copyWorkspace(work);
  for (const [path, content] of files) {
    assert.ok(!existsSync(join(REPO, path)), `${path} is new, not an edit of a file the portal has`);
    // The remote's queue is built and shown by the end-to-end test (independent-deploy.spec.ts).
    if (!path.startsWith('remote-')) writeFileSync(join(work, path), content, { flag: 'wx' });
  }
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', 'test/service-token.test.ts'], {
    cwd: join(work, 'server'),
    encoding: 'utf8',
    // A run of its own, reporting as a team's run would (not to this test's runner).
    env: { ...process.env, DATABASE_URL: '', NODE_TEST_CONTEXT: undefined },
    timeout: 240_000,
  });
  assert.equal(run.status, 0, `the guide's test failed on the copy:\n${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /^# pass 1$/m);
  assert.match(run.stdout, /^# fail 0$/m);
  // The kind's files type-check in the copy beside the other kinds' (as in the server's program):
  // the declaration adds the kind to RequestKinds, which its module and its test are checked against.
  writeFileSync(
    join(work, 'server', 'tsconfig.kind.json'),
    JSON.stringify({ extends: './tsconfig.json', include: ['src/services/request-kinds/kinds/*.ts', 'test/service-token.test.ts'] }),
  );
  const typed = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.kind.json'], {
    cwd: join(work, 'server'),
    encoding: 'utf8',
    timeout: 240_000,
  });
  assert.equal(typed.status, 0, `the kind's files do not type-check:\n${typed.stdout}${typed.stderr}`);
});
