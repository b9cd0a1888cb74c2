// npm run bench, the pages (issue 17, parts 1 and 2): the federated portal beside the same
// application built as one bundle without federation (scripts/monolith), each served by its own
// portal process on the embedded database, measured in the same run in Chromium:
//  - JavaScript before content: the compressed bytes of every script that had arrived when the
//    page's content appeared, on a cold cache (a new browser context for each load);
//  - time to content: from the start of the navigation to the content being in the page
//    (a MutationObserver set up before the page's own scripts run records the moment);
//  - in-app navigation from /profile to a page of the same remote and to a page of a remote not
//    loaded yet (from the history change to the new page's content).
// The loads alternate between the two builds so that whatever else the machine does weighs on
// both alike; the figures are medians of PAGE_RUNS loads.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './lib.mjs';

export const PAGE_RUNS = 10;

/** The measured first loads: where, what counts as its content, and whether signed in. */
export const PAGES = [
  { path: '/login', heading: 'Please Sign In', signedIn: false },
  { path: '/profile', heading: 'User Profile: admin', signedIn: true },
  // A table route: its content is the table with its first row.
  { path: '/groups', heading: 'Groups', signedIn: true, table: true },
];

/** In-app navigations from /profile (the self-service remote loaded): within it, and to another remote. */
export const NAVIGATIONS = [
  { label: 'to a page of the loaded remote (/profile → /subscriptions)', path: '/subscriptions', heading: 'Subscriptions' },
  { label: 'to a remote not loaded yet (/profile → /groups)', path: '/groups', heading: 'Groups', table: true },
];

/** Issue 17's targets, as ratios of one run. */
export const PAGE_TARGETS = { bytes: 1.1, time: 1.1, navigation: 1.3 };

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Runs in the page before its scripts: records in window.__portalContentAt the first moment an
 * h2 reads `heading` (and, for a table, a table row is there), counted from the navigation's
 * start; window.__portalWatch(heading, table) starts watching again for an in-app navigation.
 */
function contentWatcher(first) {
  const watch = (heading, table) => {
    window.__portalContentAt = undefined;
    const ready = () =>
      [...document.querySelectorAll('h2')].some((h) => h.textContent?.trim() === heading) && (!table || document.querySelector('table tbody tr') !== null);
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

/** From /profile (content shown), an in-app navigation to `spec`: ms from the history change to its content. */
async function navigation(browser, build, spec) {
  const context = await newContext(browser, build, true, { heading: 'User Profile: admin', table: false });
  try {
    const page = await context.newPage();
    await page.goto(`${build.base}/profile`);
    await waitForContent(page);
    await page.waitForLoadState('networkidle');
    const started = await page.evaluate(({ path, heading, table }) => {
      window.__portalWatch(heading, table);
      const t0 = performance.now();
      window.history.pushState({}, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
      return t0;
    }, { path: spec.path, heading: spec.heading, table: Boolean(spec.table) });
    return (await waitForContent(page)) - started;
  } finally {
    await context.close();
  }
}

/**
 * Measures both builds: `builds` is [federated, monolith], each { label, base, cookie, monolith }.
 * Returns, per page and navigation, the medians of each build.
 */
export async function measurePages(chromiumPath, builds) {
  const { chromium } = createRequire(join(root, 'e2e', 'package.json'))('@playwright/test');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
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

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value) => `${Math.round(value)} ms`;
const ratio = (a, b) => (a / b).toFixed(2);
const verdict = (value, target) => (value <= target ? `≤ ${target.toFixed(2)}: met` : `≤ ${target.toFixed(2)}: MISSED`);

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
  for (const { spec, medians } of result.pages) {
    const [f, m] = medians;
    const bytes = f.bytes / m.bytes;
    const time = f.at / m.at;
    lines.push(`| ${spec.path} | ${kb(f.bytes)} | ${kb(m.bytes)} | ${ratio(f.bytes, m.bytes)} | ${verdict(bytes, PAGE_TARGETS.bytes)} | ${ms(f.at)} | ${ms(m.at)} | ${ratio(f.at, m.at)} | ${verdict(time, PAGE_TARGETS.time)} |`);
    if (bytes > PAGE_TARGETS.bytes) misses.push(`${spec.path}: JS before content ${ratio(f.bytes, m.bytes)} × the monolith's (target ≤ ${PAGE_TARGETS.bytes})`);
    if (time > PAGE_TARGETS.time) misses.push(`${spec.path}: time to content ${ratio(f.at, m.at)} × the monolith's (target ≤ ${PAGE_TARGETS.time})`);
  }
  lines.push('', `| in-app navigation | ${federated} | ${monolith} |`, '|---|---:|---:|');
  for (const { spec, medians } of result.navigations) lines.push(`| ${spec.label} | ${ms(medians[0])} | ${ms(medians[1])} |`);
  const [within, other] = result.navigations.map((n) => n.medians[0]);
  const navRatio = other / within;
  lines.push(
    '',
    `Navigation to a remote not loaded yet, ${federated}: ${ratio(other, within)} × navigation within the loaded one (target ${verdict(navRatio, PAGE_TARGETS.navigation)}).`,
  );
  if (navRatio > PAGE_TARGETS.navigation) misses.push(`navigation to a remote not loaded yet: ${ratio(other, within)} × within a loaded one (target ≤ ${PAGE_TARGETS.navigation})`);
  const unstable = result.pages.flatMap(({ spec, medians }) => medians.flatMap((m, i) => (m.bytesSame ? [] : [`${spec.path} on ${builds[i].label}`])));
  if (unstable.length > 0) lines.push(`The script bytes varied between loads of ${unstable.join(', ')} (a script still arriving as the content appeared).`);
  return { lines, misses };
}
