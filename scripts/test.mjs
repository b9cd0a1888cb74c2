// npm test: every check — type check, lint, the unit tests of every browser package (Jest), the
// server tests (node:test, on PGlite and also on PostgreSQL when DATABASE_URL is set), the
// production build, and the end-to-end tests in Chromium. Ends with the time each stage took, its
// slowest files, and one line `N passed, N failed`; exits non-zero when anything failed.
//
// The stages run in two lanes side by side where they do not wait on each other: the server tests
// in one, at a lower priority (SERVER_NICENESS); the type check, lint, unit tests and the build in
// the other; then the end-to-end tests, whose workers each run a portal of their own. The output
// of stages that run side by side is kept and printed whole as each ends.
//
// `npm test -- --changed[=REF]` is the fast loop for everyday work: only the checks and test files
// a change against REF (default: the uncommitted changes) can affect (scripts/test/changed.mjs).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, setPriority, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildAll, buildApp, chromiumPath, ensureInstalled, ensureSystemPackages, log, root } from './lib.mjs';
import { changedFiles, selectForChange } from './test/changed.mjs';

const args = process.argv.slice(2);
const changedArg = args.find((a) => a === '--changed' || a.startsWith('--changed='));
for (const arg of args) {
  if (arg !== changedArg) {
    console.error(`Unknown option '${arg}'. Usage: npm test [-- --changed[=REF]]`);
    process.exit(2);
  }
}

const bin = (name, pkg = '.') => join(root, pkg, 'node_modules', '.bin', name);
const scratch = mkdtempSync(join(tmpdir(), 'portal-test-'));
const cacheDir = join(root, 'node_modules', '.cache', 'portal-test');
const started = Date.now();
// Another program already keeping the cores busy makes every stage slower: said first, so that a
// slow run's log tells a busy machine from slow tests.
const load = () => `load ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`;
const loadAtStart = load();
log(`Machine: ${loadAtStart} before the tests start`);
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const results = [];

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Running commands: live when a stage runs alone, kept and printed whole when lanes run side by side.

let sideBySide = 0;
const running = new Set();

/**
 * Runs a command for a stage; resolves to its exit code. With `niceness`, the command (and the
 * processes it starts after) runs at that lower priority: a lane that has work for both cores
 * leaves the CPU to one that can use only one (SERVER_NICENESS).
 */
function runFor(stage, command, commandArgs, { niceness, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd: root, ...options, stdio: ['ignore', stage.out ? 'pipe' : 'inherit', stage.out ? 'pipe' : 'inherit'] });
    if (niceness !== undefined && child.pid !== undefined) {
      try {
        setPriority(child.pid, niceness);
      } catch {
        // Not allowed here: the stage runs at the usual priority, only slower beside the other lane.
      }
    }
    if (stage.out) {
      child.stdout.pipe(stage.out, { end: false });
      child.stderr.pipe(stage.out, { end: false });
    }
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * A stage: its work runs with `stage` (pass it to runFor), and returns { passed, failed, note,
 * slowest }. Its time is recorded from its start to its end.
 */
async function stage(title, work) {
  const s = { title, start: Date.now(), out: undefined, file: undefined };
  if (sideBySide > 1) {
    s.file = join(scratch, `${results.length}-${title.replace(/\W+/g, '-')}.log`);
    s.out = createWriteStream(s.file);
  }
  log(`${title}${s.out ? ' (its output follows when it ends)' : ''}`);
  running.add(s);
  let outcome;
  try {
    outcome = await work(s);
  } catch (error) {
    outcome = { passed: 0, failed: 1, note: String(error?.message ?? error) };
  }
  running.delete(s);
  const end = Date.now();
  if (s.out) {
    await new Promise((r) => s.out.end(r));
    process.stdout.write(`\n\x1b[36m──── ${title} ────\x1b[0m\n`);
    process.stdout.write(readFileSync(s.file, 'utf8'));
  }
  const result = { title, start: s.start - started, ms: end - s.start, passed: 0, failed: 0, note: '', slowest: [], ...outcome };
  results.push(result);
  log(`${title}: ${result.failed ? `\x1b[31m${result.failed} failed\x1b[0m, ` : ''}${result.passed} passed in ${seconds(result.ms)}`);
  return result;
}

/** Runs lanes (async functions) side by side; output of their stages is kept while more than one runs. */
async function lanes(...work) {
  sideBySide = work.length;
  const heartbeat = setInterval(() => {
    const now = Date.now();
    log(`… running: ${[...running].map((s) => `${s.title} (${seconds(now - s.start)})`).join(', ')}; ${load()}`);
  }, 120_000);
  try {
    await Promise.all(work.map((lane) => lane()));
  } finally {
    clearInterval(heartbeat);
    sideBySide = 0;
  }
}

/** A check that is one pass or one fail. */
const check = (title, command, commandArgs, options) =>
  stage(title, async (s) => {
    const code = await runFor(s, command, commandArgs, options);
    return { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
  });

const slowestOf = (entries) =>
  entries
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10)
    .map(({ name, ms }) => ({ name: relative(root, name) || name, ms }));

// ---------------------------------------------------------------------------------------------
// What to run

let selection = { everything: true };
if (changedArg) {
  const ref = changedArg.includes('=') ? changedArg.slice('--changed='.length) : 'HEAD';
  const files = changedFiles(root, ref);
  selection = selectForChange(root, files);
  log(`--changed: ${files.length} file(s) changed against ${ref}${selection.everything ? ', among them one everything depends on: every check runs' : ''}`);
  if (!selection.everything) {
    const say = (what, list) => log(`  ${what}: ${list.length ? list.join(' ') : 'nothing to run'}`);
    say('type check', selection.types);
    say('lint', selection.lint);
    say('unit tests related to', selection.unit);
    say('server test files', selection.server);
    say('end-to-end specs', selection.e2e);
  }
}
const all = selection.everything;

// ---------------------------------------------------------------------------------------------
// The stages

const TYPE_PROGRAMS = { browser: 'tsconfig.json', server: 'server/tsconfig.json', e2e: 'e2e/tsconfig.json' };

function typeCheck(program) {
  // Incremental: a second run after a small change reads the rest from its .tsbuildinfo.
  mkdirSync(cacheDir, { recursive: true });
  return check(`Type check: ${program}`, bin('tsc'), ['-p', TYPE_PROGRAMS[program], '--incremental', '--tsBuildInfoFile', join(cacheDir, `${program}.tsbuildinfo`)]);
}

function lint(files) {
  return check('Lint', bin('eslint'), ['--max-warnings', '0', '--cache', '--cache-location', join(cacheDir, 'eslint'), ...files]);
}

function unitTests(related) {
  return stage('Unit tests (Jest, every browser package)', async (s) => {
    const out = join(scratch, 'jest.json');
    const code = await runFor(s, bin('jest'), ['--ci', '--json', `--outputFile=${out}`, ...(related ? ['--findRelatedTests', ...related] : [])]);
    const report = readJson(out);
    if (!report) return { failed: 1, note: `jest exited ${code} without a report` };
    const broken = report.numRuntimeErrorTestSuites ?? 0;
    return {
      passed: report.numPassedTests,
      failed: report.numFailedTests + broken + (code !== 0 && report.numFailedTests + broken === 0 ? 1 : 0),
      note: broken ? `${broken} suite(s) failed to run` : '',
      slowest: slowestOf(report.testResults.map((r) => ({ name: r.name, ms: r.endTime - r.startTime }))),
    };
  });
}

/**
 * How many server test files run at once. Each is a process of its own whose tests wait on
 * PostgreSQL, on child processes and on sockets as much as on the CPU; three keep two cores busy.
 */
const SERVER_CONCURRENCY = Number(process.env.PORTAL_TEST_SERVER_CONCURRENCY ?? Math.max(2, availableParallelism() + 1));

/**
 * The server tests' priority beside the other lane. That lane's checks (tsc, eslint, Jest in one
 * worker) each use one core; the server tests' several processes would otherwise take three
 * quarters of two cores and leave Jest a quarter of its speed (it took 390 s beside them instead
 * of 111 s alone), so the lane it is on ended last with one core idle. At this niceness the lane
 * of single-core checks gets a whole core and the server tests the other and whatever is left.
 */
const SERVER_NICENESS = 5;

function serverTests(files) {
  return stage(`Server tests (node:test, ${process.env.DATABASE_URL ? 'PGlite and PostgreSQL' : 'PGlite'})`, async (s) => {
    // The tests that start the server or its command line as a process run the bundle, as a person does.
    await buildApp('server');
    const report = join(scratch, 'server.json');
    const list =
      files ??
      readdirSync(join(root, 'server', 'test'))
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => join('test', f));
    const code = await runFor(
      s,
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        `--test-concurrency=${SERVER_CONCURRENCY}`,
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        `--test-reporter=${join(root, 'scripts', 'test', 'node-test-reporter.mjs')}`,
        `--test-reporter-destination=${report}`,
        ...list,
      ],
      { cwd: join(root, 'server'), niceness: SERVER_NICENESS },
    );
    const counts = readJson(report);
    if (!counts) return { failed: 1, note: `node --test exited ${code} without a report` };
    const failed = counts.fail + counts.cancelled;
    return {
      passed: counts.pass,
      failed: failed + (code !== 0 && failed === 0 ? 1 : 0),
      note: [counts.skipped ? `${counts.skipped} skipped` : '', counts.todo ? `${counts.todo} todo` : ''].filter(Boolean).join(', '),
      slowest: slowestOf(counts.files.map((f) => ({ name: f.file, ms: f.ms }))),
    };
  });
}

function build() {
  return stage('Production build', async () => {
    await buildAll();
    return { passed: 1 };
  });
}

/** How many Playwright workers (each with a portal and a Chromium of its own). */
const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? Math.max(1, Math.min(4, availableParallelism())));

/**
 * What the page showed when a test failed (the accessibility tree Playwright writes beside its
 * screenshots), printed into the log: a CI log is all that is left of a run on another machine.
 */
function printPageSnapshots(s) {
  const artifacts = join(root, 'e2e', 'test-results', 'artifacts');
  let folders = [];
  try {
    folders = readdirSync(artifacts);
  } catch {
    return;
  }
  for (const folder of folders.sort()) {
    let text;
    try {
      text = readFileSync(join(artifacts, folder, 'error-context.md'), 'utf8');
    } catch {
      continue;
    }
    // One yaml block per page the test had open.
    const snapshots = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1].trimEnd());
    if (snapshots.length === 0) continue;
    const lines = snapshots.join('\n---\n').split('\n');
    const shown = lines.length > 200 ? [...lines.slice(0, 200), `… ${lines.length - 200} more lines`] : lines;
    (s.out ?? process.stdout).write(`\nThe page when ${folder} failed:\n${shown.map((l) => `  ${l}`).join('\n')}\n`);
  }
}

function endToEnd(specs) {
  return stage(`End-to-end tests (Playwright, Chromium, ${E2E_WORKERS} workers)`, async (s) => {
    const chromium = chromiumPath();
    if (!chromium) return { failed: 1, note: 'not run: no Chromium' };
    const report = join(root, 'e2e', 'test-results', 'results.json');
    rmSync(report, { force: true });
    const e2eDir = join(scratch, 'e2e');
    const code = await runFor(s, bin('playwright', 'e2e'), ['test', ...(specs ?? [])], {
      cwd: join(root, 'e2e'),
      env: { ...process.env, CHROMIUM_PATH: chromium, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', E2E_DIR: e2eDir, E2E_WORKERS: String(E2E_WORKERS) },
    });
    printPageSnapshots(s);
    const json = readJson(report);
    if (!json?.stats) return { failed: 1, note: `playwright exited ${code} without a report` };
    const files = new Map();
    const flaky = [];
    const walk = (suite, file) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests) {
          const ms = t.results.reduce((n, r) => n + r.duration, 0);
          files.set(file, (files.get(file) ?? 0) + ms);
          if (t.status === 'flaky') flaky.push(`${file}: ${spec.title}`);
        }
      }
      for (const child of suite.suites ?? []) walk(child, child.file ?? file);
    };
    for (const suite of json.suites) walk(suite, suite.file);
    const { stats } = json;
    return {
      passed: stats.expected + (stats.flaky ?? 0),
      failed: stats.unexpected + (code !== 0 && stats.unexpected === 0 ? 1 : 0),
      note: flaky.length ? `${flaky.length} flaky (passed only when run again): ${flaky.join('; ')}` : '',
      slowest: slowestOf([...files].map(([name, ms]) => ({ name: join('e2e', 'tests', name), ms }))),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The run

const runsServerTests = all || selection.server.length > 0;
const runsEndToEnd = all || selection.e2e.length > 0;
// The real programs the tests start: Chromium for the end-to-end tests, Mailman 3 core for the
// Mailman list engine's, OpenLDAP's slapd and its client tools for provisioning's, nginx for
// forward auth's (both kinds) (a test without its program fails saying what to install).
const systemPackages = [
  ...new Set([...(runsEndToEnd ? ['chromium', 'nginx'] : []), ...(runsServerTests ? ['mailman3', 'slapd', 'ldap-utils', 'nginx'] : [])]),
];
sideBySide = 2;
await Promise.all([
  stage('Install (pnpm, frozen lockfile)', async () => {
    await ensureInstalled();
    return { passed: 1 };
  }),
  stage(`System packages (${systemPackages.join(', ') || 'none needed'})`, async (s) => {
    const missing = await ensureSystemPackages(systemPackages, s.out ?? process.stdout);
    return { passed: systemPackages.length - missing.length, failed: 0, note: missing.length ? `missing: ${missing.join(', ')}` : '' };
  }),
]);
sideBySide = 0;

const staticUnitAndBuild = async () => {
  for (const program of all ? Object.keys(TYPE_PROGRAMS) : selection.types) await typeCheck(program);
  if (all) await lint(['.']);
  else if (selection.lint.length) await lint(selection.lint);
  if (all) await unitTests();
  else if (selection.unit.length) await unitTests(selection.unit);
  if (runsEndToEnd) await build();
};
const server = async () => {
  if (runsServerTests) await serverTests(all ? undefined : selection.server);
};
await lanes(staticUnitAndBuild, server);

const built = results.find((r) => r.title === 'Production build');
if (runsEndToEnd) {
  if (built?.failed) results.push({ title: 'End-to-end tests', start: Date.now() - started, ms: 0, passed: 0, failed: 1, note: 'not run: the build failed', slowest: [] });
  else await endToEnd(all ? undefined : selection.e2e);
}

rmSync(scratch, { recursive: true, force: true });

// ---------------------------------------------------------------------------------------------
// The summary

const total = Date.now() - started;
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log('\nSummary (a stage\'s time is its own; stages side by side overlap)');
for (const r of results) {
  const mark = r.failed ? '\x1b[31m✗\x1b[0m' : '\x1b[32m✓\x1b[0m';
  console.log(`  ${mark} ${r.title.padEnd(52)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(3)} failed  ${`${seconds(r.start)} +${seconds(r.ms)}`.padStart(13)}${r.note ? `  (${r.note})` : ''}`);
}
for (const r of results.filter((x) => x.slowest.length)) {
  console.log(`\nSlowest files: ${r.title}`);
  for (const { name, ms } of r.slowest) console.log(`  ${seconds(ms).padStart(6)}  ${name}`);
}
console.log(`\nWall clock ${seconds(total)} (the machine before the start: ${loadAtStart})${changedArg ? ' (--changed: only what the change can affect; CI runs everything)' : ''}.`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
