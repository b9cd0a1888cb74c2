/**
 * docs/extending.md, "Adding a request kind", done as it says: a copy of the server and of
 * @portal/api with the guide's files added (read from the guide's code blocks) and no file edited,
 * then the guide's own test of the new kind run against that copy. If a new kind ever needs an
 * edit to a list elsewhere (a table of kinds, a roles list, a summary field, a check constraint),
 * the copy lacks it and this fails.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const GUIDE = join(REPO, 'docs', 'extending.md');

/** The guide's files: each fenced block whose info string names one (```ts file=path), by path. */
function guideFiles(section: string): Map<string, string> {
  const text = readFileSync(GUIDE, 'utf8');
  const start = text.indexOf(`## ${section}`);
  assert.notEqual(start, -1, `docs/extending.md has a section '${section}'`);
  const end = text.indexOf('\n## ', start + 1);
  const body = text.slice(start, end === -1 ? undefined : end);
  const files = new Map<string, string>();
  for (const match of body.matchAll(/^```ts file=(\S+)\n([\s\S]*?)^```$/gm)) files.set(match[1] as string, match[2] as string);
  return files;
}

const work = mkdtempSync(join(tmpdir(), 'portal-extending-'));
after(() => rmSync(work, { recursive: true, force: true }));

/**
 * The workspace as a team's checkout has it, for the server and @portal/api: their sources copied,
 * their node_modules copied as the links pnpm made (relative, so @portal/api leads to the copy),
 * the store they lead to shared with this checkout.
 */
function copyWorkspace(): void {
  symlinkSync(join(REPO, 'node_modules'), join(work, 'node_modules'), 'dir');
  for (const path of ['package.json', 'server/package.json', 'server/tsconfig.json', 'server/src', 'server/test', 'server/migrations', 'server/config', 'server/environments', 'server/node_modules', 'shared/package.json', 'shared/src', 'shared/node_modules', 'shared/api/package.json', 'shared/api/src', 'shared/api/node_modules']) {
    if (existsSync(join(REPO, path))) cpSync(join(REPO, path), join(work, path), { recursive: true, verbatimSymlinks: true, filter: (source) => !source.endsWith('.cache') });
  }
}

test("adding a request kind as docs/extending.md says adds files only, and the kind's own test passes on the copy", () => {
  const files = guideFiles('Adding a request kind');
  assert.deepEqual([...files.keys()], [
    'shared/api/src/requests/kinds/service-token.ts',
    'server/src/services/request-kinds/kinds/service-token.ts',
    'server/test/service-token.test.ts',
  ]);
  copyWorkspace();
  for (const [path, content] of files) {
    assert.ok(!existsSync(join(REPO, path)), `${path} is new, not an edit of a file the portal has`);
    writeFileSync(join(work, path), content, { flag: 'wx' });
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
