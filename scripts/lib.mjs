// Shared by the scripts behind `npm start`, `npm test`, `npm run build` and `npm run size`.
// Plain Node (no dependencies): these run before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = dirname(dirname(fileURLToPath(import.meta.url)));
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpmVersion = rootPackage.packageManager.replace(/^pnpm@/, '');

/** The apps that webpack builds, in build order, and the server. */
export const FRONTEND_APPS = [
  'host',
  'remote-self-service',
  'remote-groups',
  'remote-adjudication',
  'remote-mailing-lists',
  'remote-tokens',
];
export const REMOTE_APPS = FRONTEND_APPS.filter((app) => app !== 'host');

export function log(message) {
  process.stdout.write(`\x1b[36m›\x1b[0m ${message}\n`);
}

/** Runs a command with inherited output; resolves to its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export async function runOrExit(command, args, options = {}) {
  const code = await run(command, args, options);
  if (code !== 0) {
    console.error(`\n${command} ${args.join(' ')} failed (exit ${code}).`);
    process.exit(code);
  }
}

function hashFiles(paths) {
  const hash = createHash('sha256');
  const walk = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
        walk(join(path, name));
      }
    } else {
      hash.update(relative(root, path));
      hash.update('\0');
      hash.update(readFileSync(path));
      hash.update('\0');
    }
  };
  for (const path of paths) walk(join(root, path));
  return hash.digest('hex');
}

const workspacePackages = () => [
  'package.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  ...['host', 'shared', 'shared/api', 'server', 'e2e', ...REMOTE_APPS].map((p) => `${p}/package.json`),
];

/** The pnpm of package.json's packageManager, without needing it installed globally. */
export function pnpmCommand() {
  const local = join(root, 'node_modules', '.bin', 'pnpm');
  return existsSync(local) ? [local, []] : ['npx', ['--yes', `pnpm@${pnpmVersion}`]];
}

/** Installs the workspace from the lockfile when the lockfile or a package.json changed since. */
export async function ensureInstalled() {
  const stampFile = join(root, 'node_modules', '.portal-install-stamp');
  const wanted = hashFiles(workspacePackages());
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === wanted) return;
  log(`Installing dependencies (pnpm ${pnpmVersion}, frozen lockfile)…`);
  const [command, prefix] = pnpmCommand();
  await runOrExit(command, [...prefix, 'install', '--frozen-lockfile'], {
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  writeFileSync(stampFile, wanted);
}

const cacheDir = join(root, 'node_modules', '.cache', 'portal-build');

/** Where `npm run bench` builds the portal without federation (scripts/monolith). */
export const MONOLITH_DIR = join(root, '.portal', 'monolith');

/** Where a browser app's build lists the workspace files its output is made of (shared/build/federation.cjs, BuildInputsPlugin). */
const inputsFile = (app) => join(cacheDir, `${app}.inputs.json`);

/** The workspace files an app's last build is made of, if it listed them. */
export function recordedInputs(app) {
  try {
    const { files } = JSON.parse(readFileSync(inputsFile(app), 'utf8'));
    return Array.isArray(files) ? files : undefined;
  } catch {
    return undefined;
  }
}

function appInputs(app) {
  const config = ['shared/build', 'shared/package.json', 'shared/api/package.json', 'tsconfig.json', 'tsconfig.base.json', 'pnpm-lock.yaml'];
  const shared = ['shared/src', 'shared/api/src', ...config];
  if (app === 'server') return ['server/src', 'server/migrations', 'server/build.mjs', 'server/package.json', ...shared];
  if (app === 'monolith') return ['scripts/monolith', 'host/webpack.config.cjs', ...FRONTEND_APPS.flatMap((a) => [`${a}/src`, `${a}/package.json`, `${a}/tsconfig.json`]), ...shared];
  const own = [`${app}/src`, `${app}/package.json`, `${app}/webpack.config.cjs`, `${app}/tsconfig.json`, ...config];
  // The shared sources this app's last build is made of: a change to any other file of
  // @portal/api or @portal/shared does not rebuild it. Until it has listed them: all of them.
  const read = recordedInputs(app);
  return read ? [...own, ...read] : [...own, 'shared/src', 'shared/api/src'];
}

function appOutput(app) {
  if (app === 'server') return join(root, 'server', 'dist', 'cli.mjs');
  if (app === 'host') return join(root, 'host', 'dist', 'index.html');
  if (app === 'monolith') return join(MONOLITH_DIR, 'index.html');
  const { version } = JSON.parse(readFileSync(join(root, app, 'package.json'), 'utf8'));
  return join(root, app, 'dist', version, 'mf-manifest.json');
}

const stampFileOf = (app) => join(cacheDir, `${app}.sha256`);

/** Whether an app's build is there and its inputs hash as at that build (then buildApp skips it). */
export function isBuildCurrent(app) {
  const stampFile = stampFileOf(app);
  return existsSync(appOutput(app)) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hashFiles(appInputs(app));
}

/** Builds one app when its inputs changed since its last build (see buildAll). */
export async function buildApp(app, { force = false } = {}) {
  mkdirSync(cacheDir, { recursive: true });
  const stampFile = stampFileOf(app);
  if (!force && isBuildCurrent(app)) return false;
  const wanted = hashFiles(appInputs(app));
  const t0 = Date.now();
  log(`Building ${app}…`);
  if (app === 'server') {
    await runOrExit(process.execPath, ['build.mjs'], { cwd: join(root, 'server') });
  } else if (app === 'monolith') {
    // Only `npm run bench` builds it, with the host's webpack (scripts/monolith/webpack.config.cjs).
    await runOrExit(join(root, 'host', 'node_modules', '.bin', 'webpack'), ['--config', join(root, 'scripts', 'monolith', 'webpack.config.cjs'), '--no-stats'], {
      cwd: join(root, 'host'),
    });
  } else {
    await runOrExit(join(root, app, 'node_modules', '.bin', 'webpack'), ['--mode', 'production', '--no-stats'], {
      cwd: join(root, app),
      env: { ...process.env, PORTAL_BUILD_INPUTS: inputsFile(app) },
    });
  }
  // Hashed again: the build has just listed what it read.
  writeFileSync(stampFile, FRONTEND_APPS.includes(app) ? hashFiles(appInputs(app)) : wanted);
  log(`Built ${app} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return true;
}

/**
 * Builds what changed, one app at a time (webpack builds of antd apps need ~1 GB and both cores
 * each). An app whose inputs hash as at its last build, and whose output is there, is skipped.
 */
export async function buildAll({ force = false } = {}) {
  const started = Date.now();
  let built = 0;
  for (const app of [...FRONTEND_APPS, 'server']) if (await buildApp(app, { force })) built++;
  if (built === 0) log('Build is up to date.');
  else log(`Built ${built} of ${FRONTEND_APPS.length + 1} apps in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const isDebian = () => existsSync('/etc/debian_version');
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * The programs from the system's packages that the tests run for real, each with how to tell
 * it is there and what to say when it is not.
 */
export const SYSTEM_PACKAGES = {
  // The end-to-end tests' browser.
  chromium: {
    present: () => chromiumPath() !== null,
    advice: () =>
      [
        'The end-to-end tests need Chromium and none was found.',
        isDebian() ? '  Install it with: sudo apt-get install chromium' : "  Install Chromium (or Google Chrome) from your system's packages,",
        '  or set CHROMIUM_PATH to a Chromium or Chrome executable.',
      ].join('\n'),
  },
  // Mailman 3 core: server/test/mailman.test.ts starts its own on loopback.
  mailman3: {
    present: () => spawnSync('mailman', ['--version'], { encoding: 'utf8' }).status === 0,
    advice: () =>
      [
        "The Mailman list engine's tests need Mailman 3 core and `mailman --version` does not work.",
        isDebian() ? '  Install it with: sudo apt-get install mailman3' : "  Install Mailman 3 core (Debian's mailman3 package: /usr/lib/mailman3/bin/master is what the tests start).",
      ].join('\n'),
  },
  // OpenLDAP: the provisioning tests start their own slapd on loopback and read it with ldapsearch.
  slapd: {
    present: () => existsSync('/usr/sbin/slapd') && existsSync('/usr/sbin/slapadd'),
    advice: () =>
      [
        'The provisioning tests need OpenLDAP (slapd) and /usr/sbin/slapd was not found.',
        isDebian() ? '  Install it with: sudo apt-get install slapd ldap-utils' : "  Install OpenLDAP's server (slapd, slapadd) from your system's packages.",
      ].join('\n'),
  },
  'ldap-utils': {
    present: () => spawnSync('ldapsearch', ['-VV'], { encoding: 'utf8' }).error === undefined,
    advice: () =>
      [
        'The provisioning tests read the directory with ldapsearch and ldapmodify, which were not found.',
        isDebian() ? '  Install them with: sudo apt-get install ldap-utils' : "  Install OpenLDAP's client tools (ldapsearch, ldapmodify).",
      ].join('\n'),
  },
  // nginx: the forward-auth tests start their own on loopback in front of a tiny service.
  nginx: {
    present: () => existsSync(NGINX_PATH),
    advice: () =>
      [
        `The forward-auth tests need nginx at ${NGINX_PATH} and it is not there.`,
        isDebian() ? '  Install it with: sudo apt-get install nginx' : "  Install nginx (Debian's nginx package, with its auth_request module), or set NGINX_PATH.",
      ].join('\n'),
  },
};

/** The nginx the forward-auth tests start: NGINX_PATH, else Debian's. */
export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** The Chromium the tests use: CHROMIUM_PATH, else Debian's; null when there is none. */
export function chromiumPath() {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean).find((path) => existsSync(path)) ?? null;
}

/**
 * Installs the named SYSTEM_PACKAGES that are missing, in one apt-get run, when we may (root on
 * Debian), without questions and without leaving a package's own daemon running: a temporary
 * /usr/sbin/policy-rc.d that exits 101 keeps packages from starting their services (one already
 * there is left as it is). Output goes to `out` (a stream; default this process's). Resolves to
 * the names still missing afterwards, whose advice it has written.
 */
export async function ensureSystemPackages(names, out = process.stdout) {
  const missing = names.filter((name) => !SYSTEM_PACKAGES[name].present());
  if (missing.length > 0 && isDebian() && isRoot()) {
    out.write(`\x1b[36m›\x1b[0m Installing Debian's ${missing.join(', ')} for the tests…\n`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const policy = '/usr/sbin/policy-rc.d';
    const ownPolicy = !existsSync(policy);
    if (ownPolicy) writeFileSync(policy, '#!/bin/sh\n# Written by scripts/lib.mjs ensureSystemPackages(): no service starts while test packages are installed.\nexit 101\n', { mode: 0o755 });
    const apt = (...args) =>
      new Promise((resolve) => {
        const child = spawn('apt-get', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.pipe(out, { end: false });
        child.stderr.pipe(out, { end: false });
        child.on('error', () => resolve(1));
        child.on('close', (code) => resolve(code));
      });
    try {
      await apt('update');
      await apt('install', '-y', '--no-install-recommends', '-o', 'Dpkg::Options::=--force-confdef', '-o', 'Dpkg::Options::=--force-confold', ...missing);
    } finally {
      if (ownPolicy) rmSync(policy, { force: true });
    }
  }
  const still = names.filter((name) => !SYSTEM_PACKAGES[name].present());
  for (const name of still) out.write(`${SYSTEM_PACKAGES[name].advice()}\n`);
  return still;
}

/** Where Chromium is, installing Debian's package when we may; null (with advice printed) when not. */
export async function ensureChromium() {
  await ensureSystemPackages(['chromium']);
  return chromiumPath();
}
