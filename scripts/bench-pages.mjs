// npm run bench, the pages: the federated portal beside the same
// application built as one bundle without federation (scripts/monolith), each served by its own
// portal process on the embedded database, measured in the same run in Chromium:
//  - JavaScript before content: the compressed bytes of every script that had arrived when the
//    page's content appeared, on a cold cache (a new browser context for each load);
//  - time to content: from the start of the navigation to the content being in the page
//    (a MutationObserver set up before the page's own scripts run records the moment);
//  - in-app navigation from /profile to a page of the same remote and to a page of a remote not
//    loaded yet (from the history change to the new page's content);
//  - Lighthouse 12 (e2e's devDependency), performance only, mobile (its default: a slow 4G link and
//    a 4× slower CPU, simulated) and desktop, on /login and /profile: the median score of
//    LIGHTHOUSE_RUNS runs, with LCP and TBT; and mobile again with the CPU slowed to the phone
//    Lighthouse's 4× means, whatever the machine (see calibratedSlowdown).
// The loads alternate between the two builds so that whatever else the machine does weighs on
// both alike; the figures are medians of PAGE_RUNS loads.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './lib.mjs';

export const PAGE_RUNS = 10;

/** The measured first loads: where, what counts as its content, and whether signed in. */
export const PAGES = [
  { path: '/login', heading: 'Please Sign In', signedIn: false },
  { path: '/profile', heading: 'User Profile: admin', signedIn: true },
  // A table route: its content is the table with its first row.
  { path: '/groups', heading: 'Groups', signedIn: true, table: true },
];

/**
 * In-app navigations, each from a page that has settled (its content shown, nothing on it loading,
 * then no request for QUIET_MS: the sidebar's remotes fetched ahead). The target compares the same
 * destination reached two ways: from a page of its own remote (`within`) and from another remote's
 * page, its remote not run yet (`other`), so that the ratio is what a remote not loaded yet costs,
 * not the difference between two pages. The third is a lighter page of the loaded remote, for
 * reference.
 */
export const NAVIGATIONS = [
  {
    role: 'within',
    label: 'to a page of the loaded remote (/request-user-group → /groups)',
    from: { path: '/request-user-group', heading: 'Request User Group' },
    path: '/groups',
    heading: 'Groups',
    table: true,
  },
  {
    role: 'other',
    label: 'to a remote not loaded yet (/profile → /groups)',
    from: { path: '/profile', heading: 'User Profile: admin' },
    path: '/groups',
    heading: 'Groups',
    table: true,
  },
  {
    role: 'reference',
    label: 'to a lighter page of the loaded remote (/profile → /subscriptions)',
    from: { path: '/profile', heading: 'User Profile: admin' },
    path: '/subscriptions',
    heading: 'Subscriptions',
  },
];

/** The pages' targets (docs/performance.md), as ratios of one run; Lighthouse's as the federated portal's scores. */
export const PAGE_TARGETS = { bytes: 1.1, time: 1.1, navigation: 1.3, lighthouse: { mobile: 85, desktop: 99 } };

/**
 * Lighthouse runs of each page, form factor and build; the median is reported. Five, as Lighthouse's
 * docs/variability.md advises (the median of five runs about halves the spread of one): with three,
 * four runs of one build read /profile's blocking time from 286 to 828 ms, minutes apart on one
 * machine (2026-11-28), and a median of three could land near either end.
 */
export const LIGHTHOUSE_RUNS = 5;

/**
 * The machine Lighthouse's default 4× CPU slowdown is meant for: "a constant 4x CPU multiplier
 * which moves a typical run in the high-end desktop bracket somewhere into the mid-tier mobile
 * bracket" (Lighthouse's docs/throttling.md), that bracket being a BenchmarkIndex of 1,500–2,000:
 * its middle. On a machine of index 3,800 the 4× is a phone twice as fast as Lighthouse means, and
 * the mobile score rises with the machine, not the code (/profile mobile read 92 at 4× on a machine
 * of 3,819, and 60 on machines of about 1,550 with the same pages).
 */
export const LIGHTHOUSE_REFERENCE_BENCHMARK_INDEX = 1750;

/** The CPU slowdown that makes this machine (its median BenchmarkIndex) the phone Lighthouse's 4× means; at least 1. */
export function calibratedSlowdown(benchmarkIndex) {
  return Math.max(1, Math.round(((4 * benchmarkIndex) / LIGHTHOUSE_REFERENCE_BENCHMARK_INDEX) * 10) / 10);
}
const LIGHTHOUSE_PAGES = ['/login', '/profile'];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Runs in the page before its scripts: records in window.__portalContentAt the first moment an
 * h2 reads `heading` (and, for a table, a table row is there and nothing loads), counted from the navigation's
 * start; window.__portalWatch(heading, table) starts watching again for an in-app navigation.
 */
function contentWatcher(first) {
  const watch = (heading, table) => {
    window.__portalContentAt = undefined;
    // A table counts once it has a row and nothing on the page is loading (antd's Spin marks
    // itself aria-busy): a table still loading shows a placeholder row.
    const ready = () =>
      [...document.querySelectorAll('h2')].some((h) => h.textContent?.trim() === heading) &&
      (!table || (document.querySelector('table tbody tr') !== null && document.querySelector('[aria-busy="true"]') === null));
    const check = (observer) => {
      if (window.__portalContentAt === undefined && ready()) {
        window.__portalContentAt = performance.now();
        observer?.disconnect();
      }
    };
    const observer = new MutationObserver(() => check(observer));
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    check(observer);
  };
  window.__portalWatch = watch;
  watch(first.heading, first.table);
}

/** The compressed bytes of the scripts that had fully arrived by `until` (ms from the navigation's start). */
function scriptBytesBefore(until) {
  return performance
    .getEntriesByType('resource')
    .filter((e) => /\.js(?:$|\?)/.test(new URL(e.name).pathname) && e.responseEnd <= until)
    .reduce((sum, e) => sum + e.encodedBodySize, 0);
}

async function newContext(browser, build, signedIn, content) {
  const context = await browser.newContext();
  if (signedIn) {
    const [name, ...value] = build.cookie.split('=');
    await context.addCookies([{ name, value: value.join('='), url: build.base }]);
  }
  // The monolith is served by the same server, whose first HTML hints at the federated remote's
  // entry files: the monolith never uses them, so they are not fetched (they would count as its bytes).
  if (build.monolith) await context.route('**/remotes/**', (route) => route.abort());
  await context.addInitScript(contentWatcher, content);
  return context;
}

async function waitForContent(page) {
  await page.waitForFunction(() => window.__portalContentAt !== undefined, undefined, { timeout: 30_000 });
  return page.evaluate(() => window.__portalContentAt);
}

/** One cold load of `spec` from `build`: its time to content and the script bytes before it. */
async function firstLoad(browser, build, spec) {
  const context = await newContext(browser, build, spec.signedIn, { heading: spec.heading, table: Boolean(spec.table) });
  try {
    const page = await context.newPage();
    await page.goto(`${build.base}${spec.path}`);
    const at = await waitForContent(page);
    const bytes = await page.evaluate(scriptBytesBefore, at);
    return { at, bytes };
  } finally {
    await context.close();
  }
}

/**
 * Counts a page's requests in flight from Node (Playwright's events): `quiet(ms)` resolves once
 * none has been in flight, and none has started or ended, for `ms`.
 */
function requestTracker(page) {
  let inFlight = 0;
  let last = Date.now();
  const started = () => {
    inFlight += 1;
    last = Date.now();
  };
  const ended = () => {
    inFlight -= 1;
    last = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return async (ms) => {
    const deadline = Date.now() + 30_000;
    while (inFlight > 0 || Date.now() - last < ms) {
      if (Date.now() > deadline) throw new Error(`The page did not settle: ${inFlight} request(s) still in flight after 30 s.`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
}

/** How long no request may start or end before a page counts as settled (Playwright's 'networkidle' waits as long). */
const QUIET_MS = 500;

/**
 * From `spec.from` settled, an in-app navigation to `spec`: ms from the history change to its
 * content; with `detail`, { ms, fetched } with what it fetched on the way. Settled is where a reader
 * clicks a link: the content shown, nothing on the page loading (its placeholders mark themselves
 * aria-busy), then no request for QUIET_MS. Playwright's 'networkidle' alone is not that: it can
 * come while the page still renders after its content (half a second without a request), before the
 * page asks for the rest of its code (/profile's groups table) and before the sidebar fetches its
 * remotes ahead (when the page has settled and the browser is idle).
 */
async function navigation(browser, build, spec, detail = false) {
  const context = await newContext(browser, build, true, { heading: spec.from.heading, table: false });
  try {
    const page = await context.newPage();
    const quiet = requestTracker(page);
    await page.goto(`${build.base}${spec.from.path}`);
    await waitForContent(page);
    await page.waitForFunction(() => document.readyState === 'complete' && document.querySelector('[aria-busy="true"]') === null, undefined, { timeout: 30_000 });
    await quiet(QUIET_MS);
    const started = await page.evaluate(({ path, heading, table }) => {
      window.__portalWatch(heading, table);
      // The navigation's own requests are listed from here (the first load's may fill the buffer).
      performance.clearResourceTimings();
      const t0 = performance.now();
      window.history.pushState({}, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
      return t0;
    }, { path: spec.path, heading: spec.heading, table: Boolean(spec.table) });
    const at = await waitForContent(page);
    if (!detail) return at - started;
    // What the navigation fetched, from its start: each request's path, start and end (ms).
    const fetched = await page.evaluate(
      (t0) =>
        performance
          .getEntriesByType('resource')
          .filter((e) => e.startTime >= t0)
          .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime - t0, end: e.responseEnd - t0 })),
      started,
    );
    return { ms: at - started, fetched };
  } finally {
    await context.close();
  }
}

/** Chromium through Playwright (e2e's devDependency), kept off the network this machine does not have. */
function launchChromium(chromiumPath) {
  const { chromium } = createRequire(join(root, 'e2e', 'package.json'))('@playwright/test');
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/**
 * Measures both builds: `builds` is [federated, monolith], each { label, base, cookie, monolith }.
 * Returns, per page and navigation, the medians of each build.
 */
export async function measurePages(chromiumPath, builds) {
  const browser = await launchChromium(chromiumPath);
  try {
    const pages = PAGES.map((spec) => ({ spec, runs: builds.map(() => ({ at: [], bytes: [] })) }));
    const navigations = NAVIGATIONS.map((spec) => ({ spec, runs: builds.map(() => []) }));
    for (let run = 0; run < PAGE_RUNS; run++) {
      for (const page of pages) {
        for (const [i, build] of builds.entries()) {
          const { at, bytes } = await firstLoad(browser, build, page.spec);
          page.runs[i].at.push(at);
          page.runs[i].bytes.push(bytes);
        }
      }
      for (const nav of navigations) {
        for (const [i, build] of builds.entries()) nav.runs[i].push(await navigation(browser, build, nav.spec));
      }
    }
    return {
      pages: pages.map(({ spec, runs }) => ({ spec, medians: runs.map((r) => ({ at: median(r.at), bytes: median(r.bytes), bytesSame: new Set(r.bytes).size === 1 })) })),
      navigations: navigations.map(({ spec, runs }) => ({ spec, medians: runs.map(median) })),
    };
  } finally {
    await browser.close();
  }
}

/**
 * `npm run bench -- --only=navigation`: the in-app navigations alone, on both builds, with what
 * each navigation fetched in its median run (to see where a navigation's time goes).
 */
export async function measureNavigations(chromiumPath, builds) {
  const browser = await launchChromium(chromiumPath);
  try {
    const lines = ['', `In-app navigation, medians of ${PAGE_RUNS} runs each, alternating:`];
    for (const spec of NAVIGATIONS) {
      const runs = builds.map(() => []);
      for (let run = 0; run < PAGE_RUNS; run++) {
        for (const [i, build] of builds.entries()) runs[i].push(await navigation(browser, build, spec, true));
      }
      lines.push('', spec.label);
      for (const [i, build] of builds.entries()) {
        const sorted = [...runs[i]].sort((a, b) => a.ms - b.ms);
        const mid = sorted[Math.floor(sorted.length / 2)];
        lines.push(`  ${build.label}: ${Math.round(median(runs[i].map((r) => r.ms)))} ms; its median run fetched:`);
        for (const f of mid.fetched) lines.push(`    ${f.path}  ${Math.round(f.start)}–${Math.round(f.end)} ms`);
        if (mid.fetched.length === 0) lines.push('    nothing');
      }
    }
    return lines;
  } finally {
    await browser.close();
  }
}

/** Starts Chromium for Lighthouse with a DevTools port of its own; resolves to { port, stop }. */
function startChromeForLighthouse(chromiumPath) {
  const profile = mkdtempSync(join(tmpdir(), 'portal-lighthouse-'));
  const args = ['--headless=new', '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--no-first-run', '--disable-background-networking', '--disable-component-update'];
  // Chromium refuses to run as root with its sandbox (Playwright passes the same flag).
  if (typeof process.getuid === 'function' && process.getuid() === 0) args.push('--no-sandbox');
  const chrome = spawn(chromiumPath, [...args, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise((resolve) => chrome.once('exit', resolve));
  // Its profile is removed once it has exited (it writes there until then; its helper processes
  // can still be writing a moment later). A profile left in the temporary folder is only said: a
  // failed clean-up once threw away a whole run's results.
  const stop = async () => {
    if (chrome.exitCode === null && chrome.signalCode === null) chrome.kill();
    await exited;
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
    } catch (error) {
      console.warn(`Chromium's profile for Lighthouse was left at ${profile}: ${error.message}`);
    }
  };
  return new Promise((resolve, reject) => {
    let said = '';
    chrome.stderr.on('data', (chunk) => {
      said += chunk;
      const listening = /DevTools listening on ws:\/\/[^/]+:(\d+)\//.exec(said);
      if (listening) resolve({ port: Number(listening[1]), stop });
    });
    chrome.on('exit', (code) => {
      stop().finally(() => reject(new Error(`Chromium for Lighthouse stopped (${code}): ${said.slice(-400)}`)));
    });
  });
}

/**
 * Lighthouse on both builds: for each page and form factor, LIGHTHOUSE_RUNS runs alternating
 * between the builds; the medians of the performance score, LCP and TBT. Then mobile again, the
 * CPU slowed by calibratedSlowdown of the median BenchmarkIndex the first runs measured. With
 * `reportDir`, each run's report is written there as JSON. `desktop: false` and `calibrated: false`
 * leave those rows out (mobile at Lighthouse's 4× only). Answers { rows, benchmarkIndex, slowdown }.
 */
export async function measureLighthouse(chromiumPath, builds, reportDir, { desktop = true, calibrated = true } = {}) {
  const lighthouseDir = dirname(createRequire(join(root, 'e2e', 'package.json')).resolve('lighthouse/package.json'));
  const { default: lighthouse } = await import(pathToFileURL(join(lighthouseDir, 'core', 'index.js')).href);
  const { default: desktopConfig } = await import(pathToFileURL(join(lighthouseDir, 'core', 'config', 'desktop-config.js')).href);
  const { throttling } = await import(pathToFileURL(join(lighthouseDir, 'core', 'config', 'constants.js')).href);
  const chrome = await startChromeForLighthouse(chromiumPath);
  try {
    const rows = [];
    const benchmarkIndexes = [];
    const measure = async (formFactor, slowdown) => {
      for (const path of LIGHTHOUSE_PAGES) {
        const runs = builds.map(() => ({ score: [], lcp: [], tbt: [] }));
        for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
          for (const [i, build] of builds.entries()) {
            const flags = {
              port: chrome.port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: ['performance'],
              ...(slowdown === undefined ? {} : { throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: slowdown } }),
              ...(path === '/login' ? {} : { extraHeaders: { Cookie: build.cookie } }),
              // As in the loads above: the monolith never uses the federated remotes' files that
              // the server's first HTML hints at.
              ...(build.monolith ? { blockedUrlPatterns: ['*/remotes/*'] } : {}),
            };
            // A run whose trace came out broken (Lighthouse's NO_NAVSTART: "Please run Lighthouse
            // again", seen now and then on this machine) is run again, twice at most.
            let lhr;
            for (let attempt = 1; ; attempt++) {
              ({ lhr } = await lighthouse(`${build.base}${path}`, flags, formFactor === 'desktop' ? desktopConfig : undefined));
              if (!lhr.runtimeError) break;
              const problem = `Lighthouse on ${build.label} ${path} (${formFactor}): ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
              if (attempt === 3) throw new Error(problem);
              console.log(`${problem}; running it again.`);
            }
            if (reportDir) {
              const name = `${build.monolith ? 'monolith' : 'federated'}${path.replace(/\//g, '-')}-${formFactor}${slowdown === undefined ? '' : '-calibrated'}-${run + 1}.json`;
              writeFileSync(join(reportDir, name), JSON.stringify(lhr));
            }
            if (slowdown === undefined) benchmarkIndexes.push(lhr.environment.benchmarkIndex);
            else if (lhr.configSettings.throttling.cpuSlowdownMultiplier !== slowdown) throw new Error(`Lighthouse ran with a CPU slowdown of ${lhr.configSettings.throttling.cpuSlowdownMultiplier}, not ${slowdown}.`);
            runs[i].score.push(Math.round(lhr.categories.performance.score * 100));
            runs[i].lcp.push(lhr.audits['largest-contentful-paint'].numericValue);
            runs[i].tbt.push(lhr.audits['total-blocking-time'].numericValue);
          }
        }
        rows.push({ path, formFactor, slowdown, medians: runs.map((r) => ({ score: median(r.score), lcp: median(r.lcp), tbt: median(r.tbt) })) });
      }
    };
    await measure('mobile');
    if (desktop) await measure('desktop');
    const benchmarkIndex = median(benchmarkIndexes);
    const slowdown = calibratedSlowdown(benchmarkIndex);
    if (calibrated) await measure('mobile', slowdown);
    return { rows, benchmarkIndex, slowdown };
  } finally {
    await chrome.stop();
  }
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value) => `${Math.round(value)} ms`;
const ratio = (a, b) => (a / b).toFixed(2);
const verdict = (value, target) => (value <= target ? `≤ ${target.toFixed(2)}: met` : `≤ ${target.toFixed(2)}: MISSED`);

/**
 * Lighthouse's table (markdown) for `measureLighthouse`'s answer, and the misses, one line each.
 * The mobile target holds for both mobile rows: at Lighthouse's 4× (the figure earlier runs
 * quote) and at the calibrated slowdown (the one that does not rise with the machine).
 */
export function lighthouseReport({ rows, benchmarkIndex, slowdown }, builds) {
  const [federated, monolith] = builds.map((b) => b.label);
  const lines = [
    '',
    `Lighthouse 12, performance (medians of ${LIGHTHOUSE_RUNS} runs; mobile is Lighthouse's simulated slow 4G and a slower CPU: 4× as Lighthouse sets it, ` +
      `then ${slowdown}×, the phone Lighthouse's 4× means (4× on a machine of index ${LIGHTHOUSE_REFERENCE_BENCHMARK_INDEX}) from this machine's ` +
      `BenchmarkIndex of ${Math.round(benchmarkIndex)}, the median of the first runs):`,
    '',
    `| page | form factor | ${federated}: score | LCP | TBT | ${monolith}: score | LCP | TBT | target (${federated}) |`,
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  const misses = [];
  const figures = [];
  for (const { path, formFactor, slowdown: rowSlowdown, medians } of rows) {
    const [f, m] = medians;
    const target = PAGE_TARGETS.lighthouse[formFactor];
    const met = f.score >= target;
    const label = formFactor === 'mobile' ? `mobile, CPU ${rowSlowdown ?? 4}×` : formFactor;
    lines.push(
      `| ${path} | ${label} | ${f.score} | ${(f.lcp / 1000).toFixed(1)} s | ${ms(f.tbt)} | ${m.score} | ${(m.lcp / 1000).toFixed(1)} s | ${ms(m.tbt)} | ≥ ${target}: ${met ? 'met' : 'MISSED'} |`,
    );
    if (!met) misses.push(`${path}: Lighthouse ${label} ${f.score} (target ≥ ${target}; the monolith: ${m.score})`);
    figures.push({ what: `Lighthouse ${label}, ${path}`, figure: `${f.score} (the monolith ${m.score})`, target: `≥ ${target}`, met });
  }
  return { lines, misses, figures };
}

/** The side-by-side table (markdown) and the misses, one line each. */
export function pagesReport(result, builds) {
  const [federated, monolith] = builds.map((b) => b.label);
  const lines = [
    '',
    `Pages in Chromium, ${federated} beside ${monolith} (the same application without federation, scripts/monolith), ` +
      `each served by its own portal on PGlite; medians of ${PAGE_RUNS} cold loads each, alternating:`,
    '',
    `| page | JS before content, ${federated} | ${monolith} | ratio | target | time to content, ${federated} | ${monolith} | ratio | target |`,
    '|---|---:|---:|---:|---|---:|---:|---:|---|',
  ];
  const misses = [];
  const figures = [];
  for (const { spec, medians } of result.pages) {
    const [f, m] = medians;
    const bytes = f.bytes / m.bytes;
    const time = f.at / m.at;
    lines.push(`| ${spec.path} | ${kb(f.bytes)} | ${kb(m.bytes)} | ${ratio(f.bytes, m.bytes)} | ${verdict(bytes, PAGE_TARGETS.bytes)} | ${ms(f.at)} | ${ms(m.at)} | ${ratio(f.at, m.at)} | ${verdict(time, PAGE_TARGETS.time)} |`);
    if (bytes > PAGE_TARGETS.bytes) misses.push(`${spec.path}: JS before content ${ratio(f.bytes, m.bytes)} × the monolith's (target ≤ ${PAGE_TARGETS.bytes})`);
    if (time > PAGE_TARGETS.time) misses.push(`${spec.path}: time to content ${ratio(f.at, m.at)} × the monolith's (target ≤ ${PAGE_TARGETS.time})`);
    figures.push(
      { what: `JavaScript before content, ${spec.path}, × the monolith's`, figure: `${ratio(f.bytes, m.bytes)} (${kb(f.bytes)})`, target: `≤ ${PAGE_TARGETS.bytes}`, met: bytes <= PAGE_TARGETS.bytes },
      { what: `time to content, ${spec.path}, × the monolith's`, figure: `${ratio(f.at, m.at)} (${ms(f.at)})`, target: `≤ ${PAGE_TARGETS.time}`, met: time <= PAGE_TARGETS.time },
    );
  }
  lines.push('', `| in-app navigation | ${federated} | ${monolith} |`, '|---|---:|---:|');
  for (const { spec, medians } of result.navigations) lines.push(`| ${spec.label} | ${ms(medians[0])} | ${ms(medians[1])} |`);
  const federatedMedian = (role) => result.navigations.find((n) => n.spec.role === role).medians[0];
  const [within, other] = [federatedMedian('within'), federatedMedian('other')];
  const navRatio = other / within;
  lines.push(
    '',
    `Navigation to a remote not loaded yet, ${federated}: ${ratio(other, within)} × the same page reached within its loaded remote (target ${verdict(navRatio, PAGE_TARGETS.navigation)}).`,
  );
  if (navRatio > PAGE_TARGETS.navigation) misses.push(`navigation to a remote not loaded yet: ${ratio(other, within)} × within a loaded one (target ≤ ${PAGE_TARGETS.navigation})`);
  figures.push({ what: 'navigation to a remote not loaded yet, × within its loaded remote', figure: `${ratio(other, within)} (${ms(other)})`, target: `≤ ${PAGE_TARGETS.navigation}`, met: navRatio <= PAGE_TARGETS.navigation });
  if (result.lighthouse) {
    const lighthouse = lighthouseReport(result.lighthouse, builds);
    lines.push(...lighthouse.lines);
    misses.push(...lighthouse.misses);
    figures.push(...lighthouse.figures);
  }
  const unstable = result.pages.flatMap(({ spec, medians }) => medians.flatMap((m, i) => (m.bytesSame ? [] : [`${spec.path} on ${builds[i].label}`])));
  if (unstable.length > 0) lines.push(`The script bytes varied between loads of ${unstable.join(', ')} (a script still arriving as the content appeared).`);
  return { lines, misses, figures };
}
