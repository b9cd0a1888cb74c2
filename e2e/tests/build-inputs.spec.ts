/**
 * `npm start` rebuilds an app only when a file its output is made of changes (scripts/lib.mjs
 * with shared/build/federation.cjs's BuildInputsPlugin): the host is not rebuilt for an API
 * definition only a remote calls, and is for one it uses. Runs on the build the test run made.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { repoRoot } from './paths';

interface BuildLib {
  isBuildCurrent(app: string): boolean;
  recordedInputs(app: string): string[] | undefined;
}

/** Runs `check` with a comment appended to a file of the workspace, then puts the file back as it was. */
function withFileChanged(path: string, check: () => void): void {
  const file = join(repoRoot, path);
  const before = readFileSync(file, 'utf8');
  try {
    writeFileSync(file, `${before}\n// changed by build-inputs.spec.ts\n`);
    check();
  } finally {
    writeFileSync(file, before);
  }
}

test("the host's build is current until a shared file it is made of changes, not when a definition only a remote calls does", async () => {
  const lib = (await import(join(repoRoot, 'scripts', 'lib.mjs'))) as BuildLib;
  const inputs = lib.recordedInputs('host') ?? [];
  expect(inputs).toEqual(expect.arrayContaining(['host/src/bootstrap.tsx', 'shared/api/src/links.ts', 'shared/src/contract.ts']));
  // What only the tokens remote calls: its token list and its creation.
  expect(inputs).not.toContain('shared/api/src/tokens/create-token.ts');
  expect(inputs.filter((file) => file.startsWith('remote-'))).toEqual([]);
  expect(lib.isBuildCurrent('host')).toBe(true);

  withFileChanged('shared/api/src/tokens/create-token.ts', () => {
    expect(lib.isBuildCurrent('host')).toBe(true);
    expect(lib.isBuildCurrent('remote-tokens')).toBe(false);
  });
  withFileChanged('shared/api/src/links.ts', () => expect(lib.isBuildCurrent('host')).toBe(false));
  expect(lib.isBuildCurrent('host')).toBe(true);
});

test("a remote's build is made of its sidebar entries too: its src/navigation.ts and what they read of @portal/api", async () => {
  const lib = (await import(join(repoRoot, 'scripts', 'lib.mjs'))) as BuildLib;
  const inputs = lib.recordedInputs('remote-tokens') ?? [];
  expect(inputs).toEqual(expect.arrayContaining(['remote-tokens/src/navigation.ts', 'shared/api/src/pages/navigation.ts', 'shared/api/src/pages/tokens.ts']));
  expect(lib.isBuildCurrent('remote-tokens')).toBe(true);
  withFileChanged('remote-tokens/src/navigation.ts', () => expect(lib.isBuildCurrent('remote-tokens')).toBe(false));
  withFileChanged('shared/api/src/pages/navigation.ts', () => {
    expect(lib.isBuildCurrent('remote-tokens')).toBe(false);
    // The host's own entry (Manage Remotes) is made the same way.
    expect(lib.isBuildCurrent('host')).toBe(false);
  });
  expect(lib.isBuildCurrent('remote-tokens')).toBe(true);
});
