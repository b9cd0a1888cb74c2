/**
 * server/src/v8-flags.ts: the server turns V8's allocation-site pretenuring off before anything else
 * runs. Node warns that a V8 flag set after start may do nothing, so this runs a probe that keeps
 * two million objects of one allocation site alive and reads V8's own trace of its pretenuring: with
 * pretenuring on, V8 weighs that site (and switches it to the old generation); off, it weighs none.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const SERVER_DIR = join(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'v8-flags-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const PROBE = `const kept = [];
function make(i) { return { i, text: 'x' + i }; }
for (let round = 0; round < 40; round++) for (let i = 0; i < 50000; i++) kept.push(make(i));
console.log('kept', kept.length);
`;

/** How many times V8 weighed an allocation site for pretenuring while the probe ran, with or without the server's module loaded first. */
function sitesWeighed(withServerFlags: boolean): number {
  const probe = join(scratch, 'probe.mjs');
  writeFileSync(probe, PROBE);
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--trace-pretenuring-statistics', ...(withServerFlags ? ['--import', './src/v8-flags.ts'] : []), probe],
    { cwd: SERVER_DIR, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  assert.match(output, /kept 2000000/);
  return output.split('\n').filter((line) => line.includes('pretenuring: AllocationSite')).length;
}

test("without the module V8 weighs the probe's allocation site (the probe shows what it should)", () => {
  assert.ok(sitesWeighed(false) > 0);
});

test('with it V8 weighs no allocation site: pretenuring is off', () => {
  assert.equal(sitesWeighed(true), 0);
});

test('main.ts loads it before any other module of the server', () => {
  const firstImport = /^import\s[^;]*;/m.exec(readFileSync(join(SERVER_DIR, 'src', 'main.ts'), 'utf8'))?.[0];
  assert.equal(firstImport, "import './v8-flags.js';");
});
