// npm run size: what a browser downloads, measured in Chromium against the production build.
//  - the host before its first render (index.html and its first file: react, react-dom, the
//    router, the first part of the portal's antd, the federation runtime);
//  - the host's shell (the chrome), loaded right after the first render;
//  - each remote's entry plus its first route, loaded into a page where the host already is (with
//    the parts of the portal's antd the route needs that the host had not loaded yet).
// Sizes are of the files served, compressed as the build precompresses them: gzip (level 9) and
// brotli (quality 11, what Chromium is sent).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildAll, ensureChromium, ensureInstalled, log, root } from './lib.mjs';

await ensureInstalled();
await buildAll();
const chromiumPath = await ensureChromium();
if (!chromiumPath) process.exit(1);

const { chromium } = createRequire(join(root, 'e2e', 'package.json'))('@playwright/test');
const manifest = JSON.parse(readFileSync(join(root, 'server', 'environments', 'local.json'), 'utf8'));
const FIRST_ROUTES = {
  self_service: '/profile',
  groups: '/groups',
  adjudication: '/manage-accounts',
  mailing_lists: '/mailing-lists',
  tokens: '/tokens/services',
};

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** The file on disk behind a URL the portal served. */
function fileFor(pathname) {
  const remote = /^\/remotes\/([^/]+)\/([^/]+)\/(.+)$/.exec(pathname);
  if (remote) return join(root, `remote-${remote[1].replace(/_/g, '-')}`, 'dist', remote[2], remote[3]);
  if (!/\.[a-z0-9]+$/i.test(pathname)) return join(root, 'host', 'dist', 'index.html');
  return join(root, 'host', 'dist', pathname.slice(1));
}

const gz = (pathname) => gzipSync(readFileSync(fileFor(pathname)), { level: 9 }).length;
const br = (pathname) =>
  brotliCompressSync(readFileSync(fileFor(pathname)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const total = (paths, size = gz) => paths.reduce((n, p) => n + size(p), 0);
/** Files the portal served (API calls and the manifest are data, not code; a 404 costs nothing). */
const assetsOnly = (urls) =>
  [...new Set(urls.map((u) => new URL(u).pathname))].filter(
    (p) => !p.startsWith('/accounts/rest') && p !== '/environment.json' && existsSync(fileFor(p)),
  );

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'portal-size-'));
const server = spawn(process.execPath, [join(root, 'server', 'dist', 'main.mjs')], {
  cwd: root,
  // The demo configuration, as `npm start` serves it (no login agreement stage).
  env: { ...process.env, PORT: String(port), PORTAL_LIST_SMTP_PORT: '0', PORTAL_DATA_DIR: dataDir, PORTAL_CONFIG_FILE: join(root, 'server', 'config', 'demo.json'), LOG_LEVEL: 'warn', DATABASE_URL: '' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = `http://localhost:${port}`;
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/accounts/rest/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (i > 100) throw new Error('The portal did not start.');
    await new Promise((r) => setTimeout(r, 200));
  }
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--disable-background-networking'] });
  const rows = [];
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/login`);
    const firstRender = await page.waitForFunction(() => window.__PORTAL_FIRST_RENDER__).then((h) => h.jsonValue());
    await page.getByRole('heading', { name: 'Please Sign In' }).waitFor();
    // The shell's chunk is preloaded by index.html, so it usually arrives before the first render
    // too: its own row either way.
    const isShell = (p) => /^\/shell\.[0-9a-f]+\.js$/.test(p);
    const beforeRender = ['/login', ...assetsOnly(firstRender)].filter((p) => !isShell(p));
    const shell = assetsOnly(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name))).filter(
      (p) => !beforeRender.includes(p),
    );
    rows.push(["host: before its first render (index.html, antd's styles, the first file)", beforeRender]);
    rows.push(['host: the shell (the chrome), preloaded by index.html', shell]);

    for (const remote of manifest.remotes) {
      const p = await browser.newPage();
      await p.goto(`${base}/login`);
      await p.getByRole('heading', { name: 'Please Sign In' }).waitFor();
      const before = new Set(await p.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)));
      await p.evaluate((to) => {
        window.history.pushState({}, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, FIRST_ROUTES[remote.name]);
      // The history change is no navigation: the page's 'networkidle' has already come, and a
      // heading is already there (the sign-in page's). Wait for the remote's routes to arrive, then
      // for nothing new to be fetched for half a second (a row read 0 files now and then before).
      await p.waitForFunction(
        (name) => performance.getEntriesByType('resource').some((e) => e.name.includes(`/remotes/${name}/`) && e.name.includes('__federation_expose_routes')),
        remote.name,
      );
      await p.getByRole('heading', { level: 2 }).first().waitFor();
      for (let seen = -1, count = 0; count !== seen; ) {
        seen = count;
        await p.waitForTimeout(500);
        count = await p.evaluate(() => performance.getEntriesByType('resource').length);
      }
      const after = await p.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
      const added = assetsOnly(after.filter((u) => !before.has(u)));
      const own = added.filter((path) => path.startsWith(`/remotes/${remote.name}/`));
      rows.push([`remote ${remote.name}: entry + ${FIRST_ROUTES[remote.name]}`, added, own.length === added.length ? '' : "includes the host's antd parts it needs"]);
      await p.close();
    }
  } finally {
    await browser.close();
  }
  log('Sizes of what the browser loads');
  console.log('\n| what | files | gzip | brotli |\n|---|---:|---:|---:|');
  for (const [label, files, note] of rows) {
    console.log(`| ${label}${note ? ` (${note})` : ''} | ${files.length} | ${kb(total(files))} | ${kb(total(files, br))} |`);
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
