// npm test: every check, in order — type check, lint, the unit tests of every browser package
// (Jest), the server tests (node:test, on PGlite and also on PostgreSQL when DATABASE_URL is
// set), the production build, and the end-to-end tests in Chromium. Ends with one line
// `N passed, N failed` and exits non-zero when anything failed.
import { mkdtempSync, readdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAll, ensureChromium, ensureInstalled, ensureMailman, log, root, run } from './lib.mjs';

const bin = (name, pkg = '.') => join(root, pkg, 'node_modules', '.bin', name);
const scratch = mkdtempSync(join(tmpdir(), 'portal-test-'));
const results = [];

function record(stage, passed, failed, note = '') {
  results.push({ stage, passed, failed, note });
}

/** A check that is one pass or one fail (type check, lint). */
async function check(stage, command, args, options) {
  log(stage);
  const code = await run(command, args, options);
  record(stage, code === 0 ? 1 : 0, code === 0 ? 0 : 1);
  return code === 0;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

await ensureInstalled();

await check('Type check: browser packages', bin('tsc'), ['-p', 'tsconfig.json']);
await check('Type check: server', bin('tsc'), ['-p', 'server/tsconfig.json']);
await check('Type check: end-to-end tests', bin('tsc'), ['-p', 'e2e/tsconfig.json']);
await check('Lint', bin('eslint'), ['--max-warnings', '0', '.']);

{
  log('Unit tests (Jest, every browser package)');
  const out = join(scratch, 'jest.json');
  const code = await run(bin('jest'), ['--ci', '--json', `--outputFile=${out}`]);
  const report = readJson(out);
  if (report) {
    const brokenSuites = report.numRuntimeErrorTestSuites ?? 0;
    record('Unit tests', report.numPassedTests, report.numFailedTests + brokenSuites, brokenSuites ? `${brokenSuites} suite(s) failed to run` : '');
  } else record('Unit tests', 0, 1, `jest exited ${code} without a report`);
}

{
  // The Mailman list engine's tests start a real Mailman 3 core (they fail, saying what to install, without one).
  ensureMailman();
  log(`Server tests (node:test${process.env.DATABASE_URL ? ', PGlite and PostgreSQL' : ', PGlite'})`);
  const tap = join(scratch, 'server.tap');
  const files = readdirSync(join(root, 'server', 'test'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join('test', f));
  const code = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { cwd: join(root, 'server') },
  );
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const count = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  const passed = count('pass');
  const failed = count('fail') + (count('cancelled') || 0);
  if (Number.isNaN(passed) || Number.isNaN(failed)) record('Server tests', 0, 1, `node --test exited ${code} without a summary`);
  else record('Server tests', passed, failed + (code !== 0 && failed === 0 ? 1 : 0));
}

let built = true;
{
  log('Production build');
  try {
    await buildAll();
  } catch (error) {
    built = false;
    console.error(error);
  }
  record('Production build', built ? 1 : 0, built ? 0 : 1);
}

{
  const chromium = ensureChromium();
  if (!built || !chromium) {
    record('End-to-end tests', 0, 1, !built ? 'not run: the build failed' : 'not run: no Chromium');
  } else {
    log('End-to-end tests (Playwright, Chromium)');
    const report = join(root, 'e2e', 'test-results', 'results.json');
    rmSync(report, { force: true });
    const code = await run(bin('playwright', 'e2e'), ['test'], {
      cwd: join(root, 'e2e'),
      env: { ...process.env, CHROMIUM_PATH: chromium, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    });
    const stats = readJson(report)?.stats;
    if (stats) {
      record('End-to-end tests', stats.expected + (stats.flaky ?? 0), stats.unexpected + (code !== 0 && stats.unexpected === 0 ? 1 : 0), stats.flaky ? `${stats.flaky} flaky` : '');
    } else record('End-to-end tests', 0, 1, `playwright exited ${code} without a report`);
  }
}

rmSync(scratch, { recursive: true, force: true });

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log('\nSummary');
for (const r of results) {
  const mark = r.failed ? '\x1b[31m✗\x1b[0m' : '\x1b[32m✓\x1b[0m';
  console.log(`  ${mark} ${r.stage.padEnd(34)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed${r.note ? `  (${r.note})` : ''}`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
